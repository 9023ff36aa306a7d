package gpfs

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
)

// kind is how an attribute's value is checked and shown.
type kind int

const (
	kindInt   kind = iota // a whole number
	kindSize              // bytes with an optional K, M, G or T suffix
	kindEnum              // one of attr.values
	kindYesNo             // yes or no; mmdiag shows 1 or 0
	kindPorts             // verbsPorts: dev[/port[/fabnum]] separated by spaces
	kindText              // anything
)

// attr is one configuration attribute mmchconfig accepts.
type attr struct {
	def    string
	kind   kind
	values []string
	// immediate attributes accept -i/-I and change the running daemon;
	// the others take effect at the next daemon start only.
	immediate bool
}

// attrs is the catalogue of attributes the simulator knows. mmchconfig
// refuses any other name.
var attrs = map[string]attr{
	"verbsRdma":     {def: "disable", kind: kindEnum, values: []string{"enable", "disable"}},
	"verbsRdmaSend": {def: "no", kind: kindYesNo},
	"verbsRdmaCm":   {def: "disable", kind: kindEnum, values: []string{"enable", "disable"}},
	"verbsPorts":    {kind: kindPorts},
	// IBM Storage Scale's switch for GPUDirect Storage reads (5.1.2+);
	// IBM requires it with verbsRdma and verbsRdmaSend on GDS clients.
	"verbsGPUDirectStorage":        {def: "no", kind: kindYesNo},
	"pagepool":                     {def: "1G", kind: kindSize},
	"pagepoolMaxPhysMemPct":        {def: "75", kind: kindInt},
	"maxMBpS":                      {def: "2048", kind: kindInt, immediate: true},
	"workerThreads":                {def: "48", kind: kindInt},
	"worker1Threads":               {def: "48", kind: kindInt},
	"maxFilesToCache":              {def: "4000", kind: kindSize},
	"maxStatCache":                 {def: "1000", kind: kindSize},
	"maxblocksize":                 {def: "4M", kind: kindSize},
	"autoload":                     {def: "no", kind: kindYesNo},
	"tiebreakerDisks":              {kind: kindText},
	"opensslLibName":               {def: "/usr/lib64/libssl.so.10:/usr/lib64/libssl.so.6:libssl.so", kind: kindText},
	"parallelMetadataWrite":        {def: "0", kind: kindInt},
	"nfsPrefetchStrategy":          {def: "0", kind: kindInt, immediate: true},
	"maxReceiverThreads":           {def: "16", kind: kindInt},
	"logWrapThreads":               {def: "8", kind: kindInt},
	"tscWorkerPool":                {def: "32", kind: kindInt},
	"tscTcpPort":                   {def: "1191", kind: kindInt},
	"nsdInlineWriteMax":            {def: "1K", kind: kindSize},
	"maxAllocRegionsPerNode":       {def: "4", kind: kindInt},
	"maxFileCleaners":              {def: "8", kind: kindInt},
	"maxBackgroundDeletionThreads": {def: "4", kind: kindInt},
	"maxInodeDeallocPrefetch":      {def: "8", kind: kindInt},
	"statCacheDirPct":              {def: "10", kind: kindInt},
	"seqDiscardThreshhold":         {def: "1M", kind: kindSize, immediate: true},
	"prefetchPct":                  {def: "20", kind: kindInt},
	"nsdMinWorkerThreads":          {def: "16", kind: kindInt},
	"nsdMaxWorkerThreads":          {def: "512", kind: kindInt},
	"nsdbufspace":                  {def: "30", kind: kindInt},
	"nsdThreadsPerDisk":            {def: "3", kind: kindInt},
	"dmapiFileHandleSize":          {def: "32", kind: kindInt},
	"cipherList":                   {def: "AUTHONLY", kind: kindText},
}

// fixed are the attributes mmcrcluster sets; mmlsconfig shows them,
// mmchconfig refuses them.
var fixed = []string{"clusterName", "clusterId", "minReleaseLevel", "ccrEnabled"}

// lookupAttr finds an attribute by name, case-insensitively as GPFS does,
// and returns its canonical spelling.
func lookupAttr(name string) (string, attr, bool) {
	if a, ok := attrs[name]; ok {
		return name, a, true
	}
	for n, a := range attrs {
		if strings.EqualFold(n, name) {
			return n, a, true
		}
	}
	return "", attr{}, false
}

// attrNames is the catalogue sorted case-insensitively, the order mmdiag
// --config prints.
func attrNames() []string {
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return strings.ToLower(names[i]) < strings.ToLower(names[j]) })
	return names
}

var (
	sizeRe = lazyre.New(`^(\d+)([KkMmGgTt]?)$`)
	portRe = lazyre.New(`^[A-Za-z][A-Za-z0-9_]*(/[1-9][0-9]{0,2}(/[0-9]{1,3})?)?$`)
)

// normalize checks value for the attribute and returns it as stored.
func (a attr) normalize(value string) (string, error) {
	switch a.kind {
	case kindInt:
		if _, err := strconv.ParseUint(value, 10, 63); err != nil {
			return "", fmt.Errorf("must be a whole number")
		}
	case kindSize:
		m := sizeRe.FindStringSubmatch(value)
		if m == nil {
			return "", fmt.Errorf("must be a number with an optional K, M, G or T suffix")
		}
		return m[1] + strings.ToUpper(m[2]), nil
	case kindEnum:
		for _, v := range a.values {
			if strings.EqualFold(v, value) {
				return v, nil
			}
		}
		return "", fmt.Errorf("must be one of %s", strings.Join(a.values, ", "))
	case kindYesNo:
		switch strings.ToLower(value) {
		case "yes", "no":
			return strings.ToLower(value), nil
		}
		return "", fmt.Errorf("must be yes or no")
	case kindPorts:
		f := strings.Fields(value)
		if len(f) == 0 {
			return "", fmt.Errorf("must name at least one device/port")
		}
		for _, p := range f {
			if !portRe.MatchString(p) {
				return "", fmt.Errorf("%q is not of the form device[/port[/fabnum]]", p)
			}
		}
		return strings.Join(f, " "), nil
	}
	return value, nil
}

// diagValue is how mmdiag --config shows a stored value: sizes in bytes,
// yes/no as 1/0.
func (a attr) diagValue(v string) string {
	switch a.kind {
	case kindSize:
		if b, ok := sizeBytes(v); ok {
			return strconv.FormatUint(b, 10)
		}
	case kindYesNo:
		if v == "yes" {
			return "1"
		}
		return "0"
	}
	return v
}

func sizeBytes(v string) (uint64, bool) {
	m := sizeRe.FindStringSubmatch(v)
	if m == nil {
		return 0, false
	}
	n, err := strconv.ParseUint(m[1], 10, 63)
	if err != nil {
		return 0, false
	}
	shift := map[string]uint{"": 0, "K": 10, "M": 20, "G": 30, "T": 40}[strings.ToUpper(m[2])]
	return n << shift, true
}
