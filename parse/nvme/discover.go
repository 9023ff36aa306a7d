package nvme

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

const toolDiscover = "nvme discover"

// Discovery is a discovery log page as printed by "nvme discover".
type Discovery struct {
	Device     string            `json:"device,omitempty"` // discovery controller (JSON output only)
	NumRecords int               `json:"num_records"`      // as announced by the header
	Genctr     uint64            `json:"genctr"`
	Records    []DiscoveryRecord `json:"records"`
}

// Truncated reports whether fewer records were printed than announced.
func (d *Discovery) Truncated() bool { return len(d.Records) < d.NumRecords }

// Subsystems returns the records of NVM subsystems (not discovery
// controllers or referrals).
func (d *Discovery) Subsystems() []DiscoveryRecord {
	var out []DiscoveryRecord
	for _, r := range d.Records {
		if r.Subtype == "nvme subsystem" {
			out = append(out, r)
		}
	}
	return out
}

// DiscoveryRecord is one discovery log entry. Numeric fields of the 2016
// format (trtype: 1) are translated to today's names (rdma).
type DiscoveryRecord struct {
	Trtype  string            `json:"trtype"`
	Adrfam  string            `json:"adrfam"`
	Subtype string            `json:"subtype"`
	Treq    string            `json:"treq"`
	Portid  int               `json:"portid"`
	Trsvcid string            `json:"trsvcid"`
	Subnqn  string            `json:"subnqn"`
	Traddr  string            `json:"traddr"`
	Extra   map[string]string `json:"extra,omitempty"` // eflags, sectype, rdma_* ...
}

var (
	discHeaderRe = lazyre.New(`^Discovery Log Number of Records (\d+), Generation counter (\d+)$`)
	discEntryRe  = lazyre.New(`^=+\s*Discovery Log Entry (\d+)\s*=+$`)
	discFieldRe  = lazyre.New(`^([a-z][a-z0-9_]*):\s*(.*)$`)
)

// ParseDiscover reads "nvme discover" output, text or -o json.
func ParseDiscover(data []byte) (*Discovery, error) {
	if err := parse.Complete("nvme discover", data); err != nil {
		return nil, err
	}
	lines := text.Lines(data)
	start := -1
	for i, l := range lines {
		if discHeaderRe.MatchString(strings.TrimSpace(l)) {
			start = i
			break
		}
	}
	if start < 0 {
		raw, ok, err := findJSON(toolDiscover, data)
		if ok {
			return parseDiscoverJSON(raw)
		}
		if err != nil {
			return nil, err
		}
		return nil, missing(toolDiscover, data, "discovery log header")
	}
	m := discHeaderRe.FindStringSubmatch(strings.TrimSpace(lines[start]))
	d := &Discovery{}
	d.NumRecords, _ = strconv.Atoi(m[1])
	d.Genctr, _ = strconv.ParseUint(m[2], 10, 64)
	errAt := func(i int, format string, a ...any) error {
		return &parse.Error{Tool: toolDiscover, Line: i + 1, Text: lines[i], Reason: fmt.Sprintf(format, a...)}
	}
	var cur *DiscoveryRecord
	curLine := 0
	finish := func() error {
		if cur == nil {
			return nil
		}
		if cur.Trtype == "" || cur.Subnqn == "" {
			return errAt(curLine, "discovery log entry without trtype or subnqn")
		}
		d.Records = append(d.Records, *cur)
		cur = nil
		return nil
	}
	for i := start + 1; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if t == "" {
			continue
		}
		if m := discEntryRe.FindStringSubmatch(t); m != nil {
			if err := finish(); err != nil {
				return nil, err
			}
			if n, _ := strconv.Atoi(m[1]); n != len(d.Records) {
				return nil, errAt(i, "entry %s out of order, expected %d", m[1], len(d.Records))
			}
			cur, curLine = &DiscoveryRecord{}, i
			continue
		}
		m := discFieldRe.FindStringSubmatch(t)
		if m == nil {
			break // end of the discovery log
		}
		if cur == nil {
			return nil, errAt(i, "field before the first discovery log entry")
		}
		if err := cur.set(m[1], strings.TrimSpace(m[2])); err != nil {
			return nil, errAt(i, "%v", err)
		}
	}
	if err := finish(); err != nil {
		return nil, err
	}
	if len(d.Records) > d.NumRecords {
		return nil, &parse.Error{Tool: toolDiscover, Line: start + 1, Text: lines[start],
			Reason: fmt.Sprintf("%d entries printed but the header announces %d", len(d.Records), d.NumRecords)}
	}
	return d, nil
}

func (r *DiscoveryRecord) set(key, val string) error {
	switch key {
	case "trtype":
		r.Trtype = numName(val, trtypeNames)
	case "adrfam":
		r.Adrfam = numName(val, adrfamNames)
	case "subtype", "nqntype":
		r.Subtype = numName(val, subtypeNames)
	case "treq":
		r.Treq = numName(val, treqNames)
	case "portid":
		n, err := strconv.Atoi(val)
		if err != nil {
			return fmt.Errorf("portid %q is not a number", val)
		}
		r.Portid = n
	case "trsvcid":
		r.Trsvcid = val
	case "subnqn":
		r.Subnqn = val
	case "traddr":
		r.Traddr = val
	default:
		if r.Extra == nil {
			r.Extra = map[string]string{}
		}
		r.Extra[key] = val
	}
	return nil
}

// Codes of the NVMe-oF discovery log page, used by the 2016 text format.
var (
	trtypeNames  = map[int]string{1: "rdma", 2: "fc", 3: "tcp", 254: "loop"}
	adrfamNames  = map[int]string{0: "pci", 1: "ipv4", 2: "ipv6", 3: "infiniband", 4: "fibre-channel", 254: "loop"}
	subtypeNames = map[int]string{1: "discovery subsystem referral", 2: "nvme subsystem", 3: "current discovery subsystem"}
	treqNames    = map[int]string{0: "not specified", 1: "required", 2: "not required"}
)

// numName translates a numeric code to its name; other text is kept.
func numName(val string, names map[int]string) string {
	n, err := strconv.Atoi(val)
	if err != nil {
		return val
	}
	if s, ok := names[n]; ok {
		return s
	}
	return val
}
