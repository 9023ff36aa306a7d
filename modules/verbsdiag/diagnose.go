package verbsdiag

import (
	"fmt"
	"sort"
	"strings"

	"github.com/provadev/prova/internal/hostlist"
	"github.com/provadev/prova/modules/internal/gpfscmd"
)

// Facts is everything one node's diagnosis weighs.
type Facts struct {
	Node          string
	Ports         *gpfscmd.PortsState
	OFEDInstalled bool
	OFEDVersion   string
	OFEDMessage   string
	VerbsRdma     string // configured for this node
	VerbsPorts    string // configured for this node
	Pagepool      string // configured for this node ("" when unset)
	Started       bool
	Status        string
	Expected      []string
	Missing       []string
	Log           gpfscmd.LogSummary
	// Versions is the ofed_versions argument (host -> version), nil when
	// not given; SameNode resolves its keys to node names.
	Versions map[string]string
	// PeerKey maps a peer's daemon name to its key in Versions.
	PeerKey func(peer string) (string, bool)
	// Witnesses are what mmdiag --network and the GPFS log say besides
	// verbs conn (see witness.go); nil when not gathered.
	Witnesses []Witness
	// counts caches the OFED version counts and hosts per version, so
	// that weighing N missing peers is O(N), not O(N²); Decide sets it.
	counts *versionCache
}

type versionCache struct {
	n     map[string]int
	hosts map[string][]string
}

// Verdict is the diagnosis.
type Verdict struct {
	Healthy     bool
	Cause       string
	Explanation string
	Evidence    []string
	// WitnessesAgree is false when mmdiag --network or the GPFS log
	// contradicts verbs conn about some peer; Witnesses says what each
	// source said.
	WitnessesAgree bool
	Witnesses      []string
}

// Decide weighs the facts in the documented order, then says which
// witnesses agree with verbs conn.
func Decide(f Facts) Verdict {
	v := decide(f)
	ws := append([]Witness{connWitness(f.Expected, f.Missing)}, f.Witnesses...)
	if len(ws) > 1 {
		agree, lines, summary := compare(f.Expected, ws...)
		v.WitnessesAgree, v.Witnesses = agree, lines
		v.Explanation += "; " + summary
		v.Evidence = append(v.Evidence, lines...)
	} else {
		v.WitnessesAgree = true
	}
	// Lines end trimmed: an empty value must not leave a trailing blank.
	for _, l := range [][]string{v.Evidence, v.Witnesses} {
		for i := range l {
			l[i] = strings.TrimSpace(l[i])
		}
	}
	return v
}

func decide(f Facts) Verdict {
	f.counts = &versionCache{}
	ev := f.evidence()
	v := Verdict{Evidence: ev}
	lead := fmt.Sprintf("%s has no RDMA connection to %s (TCP fallback)", f.Node, strings.Join(f.Missing, ", "))
	if len(f.Missing) == 0 {
		lead = fmt.Sprintf("%s reaches all %d expected peers over RDMA", f.Node, len(f.Expected))
	}
	sep := ": "
	if len(f.Missing) == 0 {
		sep = ", but "
	}
	set := func(cause, why string) Verdict {
		v.Cause = cause
		v.Explanation = lead + sep + why
		return v
	}
	if kind, why := f.portIssue(); kind != "" {
		if kind == gpfscmd.PortMissing {
			return set(CausePortMissing, why)
		}
		return set(CausePortDown, why)
	}
	if len(f.Missing) == 0 && f.Started {
		v.Healthy, v.Cause, v.Explanation = true, CauseNone, lead+"; VERBS RDMA started and every verbsPorts entry is Active/LinkUp"
		return v
	}
	if !f.OFEDInstalled {
		return set(CauseOFEDMissing, "OFED is not installed on this node ("+f.OFEDMessage+")")
	}
	if major, others, odd := f.ofedOdd(f.OFEDVersion); odd {
		return set(CauseOFEDMismatch, fmt.Sprintf("OFED %s on this node differs from %s on %s", f.OFEDVersion, major, strings.Join(others, ", ")))
	}
	if f.Log.LibraryNotFound {
		return set(CauseLibraryNotLoaded, "the RDMA library could not be loaded (GPFS log: "+firstMatch(f.Log.Errors, "not found", "could not load")+")")
	}
	if f.Log.PagepoolNotRegistered {
		pp := "the pagepool"
		if strings.TrimSpace(f.Pagepool) != "" {
			pp += " (" + f.Pagepool + ")"
		}
		return set(CausePagepoolNotRegistered, pp+" is too large to register with the HCA, so VERBS RDMA shut down: lower pagepool or raise the HCA's MTT limit, then restart the daemon (GPFS log: "+f.Log.PagepoolLines[0]+")")
	}
	if !f.Started {
		return set(CauseVerbsNotStarted, fmt.Sprintf("VERBS RDMA is not started (status %q, verbsRdma %s for this node)", f.Status, orUnset(f.VerbsRdma)))
	}
	var odd []string
	for _, p := range f.Missing {
		if k, ok := f.PeerKey(p); ok {
			if _, _, isOdd := f.ofedOdd(f.Versions[k]); isOdd {
				odd = append(odd, fmt.Sprintf("%s (OFED %s)", p, orUnset(f.Versions[k])))
			}
		}
	}
	if len(odd) == len(f.Missing) {
		return set(CausePeerSide, "the problem is on the peer side: "+strings.Join(odd, ", ")+" differs from the cluster's OFED")
	}
	if len(f.Missing) >= len(f.Expected) {
		why := "RDMA connection setup to every peer failed or timed out although ports, OFED and VERBS RDMA are fine on this node: check the firewall (connection-setup traffic) and the lossless network (PFC/ECN)"
		if l := f.peerLines(); len(l) > 0 {
			why += "; GPFS log: " + l[0]
		}
		return set(CauseConnectFailed, why)
	}
	why := fmt.Sprintf("this node reaches %d other peer(s) over RDMA, so the problem is on the side of %s: see their diagnosis", len(f.Expected)-len(f.Missing), strings.Join(f.Missing, ", "))
	return set(CausePeerSide, why)
}

// portIssue returns the problem with the first unusable verbsPorts entry,
// in the order configured, and names the others too. An enabled verbsRdma
// without verbsPorts counts as missing.
func (f Facts) portIssue() (kind, why string) {
	ports := strings.Fields(f.VerbsPorts)
	if len(ports) == 0 {
		if isEnabled(f.VerbsRdma) {
			return gpfscmd.PortMissing, "verbsRdma is enabled but verbsPorts is not set for this node"
		}
		return "", ""
	}
	var whys []string
	for _, p := range ports {
		k, w := f.Ports.PortIssue(p)
		if k == "" {
			continue
		}
		if kind == "" {
			kind = k
		}
		whys = append(whys, w)
	}
	if kind == "" {
		return "", ""
	}
	why = "verbsPorts entry " + whys[0]
	if len(whys) > 1 {
		why += "; also " + strings.Join(whys[1:], "; ")
	}
	return kind, why
}

// ofedOdd says whether version is not the strict majority among the known
// versions ("" = not installed is not counted); major is the most common
// other version and others the hosts that have it.
func (f Facts) ofedOdd(version string) (major string, others []string, odd bool) {
	if f.Versions == nil {
		return "", nil, false
	}
	count := f.versionCount()
	best := 0
	for v, n := range count {
		if v != version && (n > best || n == best && v < major) {
			major, best = v, n
		}
	}
	switch {
	case best == 0: // no other version known
		return "", nil, false
	case version != "" && count[version] > best:
		return "", nil, false
	}
	return major, f.hostsWith(major), true
}

// versionCount counts the hosts per known OFED version, once per Facts.
func (f Facts) versionCount() map[string]int {
	if f.counts != nil && f.counts.n != nil {
		return f.counts.n
	}
	count := map[string]int{}
	for _, v := range f.Versions {
		if v != "" {
			count[v]++
		}
	}
	if f.counts != nil {
		f.counts.n = count
	}
	return count
}

// hostsWith returns the sorted hosts that have version, once per version.
func (f Facts) hostsWith(version string) []string {
	if f.counts != nil {
		if h, ok := f.counts.hosts[version]; ok {
			return h
		}
	}
	var out []string
	for h, v := range f.Versions {
		if v == version {
			out = append(out, h)
		}
	}
	sort.Strings(out)
	if f.counts != nil {
		if f.counts.hosts == nil {
			f.counts.hosts = map[string][]string{}
		}
		f.counts.hosts[version] = out
	}
	return out
}

// peerLines are the log lines about failed or closed RDMA connections.
func (f Facts) peerLines() []string { return f.Log.PeerLines }

func (f Facts) evidence() []string {
	var ev []string
	for _, p := range strings.Fields(f.VerbsPorts) {
		ev = append(ev, fmt.Sprintf("ibstat: %s %s", p, f.Ports.PortState(p)))
	}
	ev = append(ev, "mmlsconfig: verbsRdma "+orUnset(f.VerbsRdma)+", verbsPorts "+orUnset(f.VerbsPorts))
	if f.OFEDInstalled {
		ev = append(ev, "ofed_info -s: "+f.OFEDVersion)
	} else {
		ev = append(ev, "ofed_info -s: not installed ("+f.OFEDMessage+")")
	}
	if f.Versions != nil {
		ev = append(ev, "OFED versions: "+f.versionSummary())
	}
	ev = append(ev, fmt.Sprintf("mmfsadm test verbs status: %s", orUnset(f.Status)))
	ev = append(ev, fmt.Sprintf("mmfsadm test verbs conn: %d of %d expected peers connected; missing: %s",
		len(f.Expected)-len(f.Missing), len(f.Expected), orUnset(strings.Join(f.Missing, ", "))))
	if f.Log.LibraryNotFound {
		ev = append(ev, "GPFS log: RDMA library not found")
	}
	lines := f.peerLines()
	for i, l := range lines {
		if i == 5 {
			ev = append(ev, fmt.Sprintf("GPFS log: ... %d more", len(lines)-5))
			break
		}
		ev = append(ev, "GPFS log: "+l)
	}
	return ev
}

// versionSummary says which hosts have which OFED version, most common
// version first, hosts folded (23.10-1.1.9.0 on 999 hosts gpfs[01-03,05-1000];
// 5.8-3.0.7.0 on 1 host gpfs04): one line whose length grows with the
// distinct versions and the ranges, not with the cluster.
func (f Facts) versionSummary() string {
	byVersion := map[string][]string{}
	for h, v := range f.Versions {
		byVersion[orUnset(v)] = append(byVersion[orUnset(v)], h)
	}
	versions := make([]string, 0, len(byVersion))
	for v := range byVersion {
		versions = append(versions, v)
	}
	sort.Slice(versions, func(i, j int) bool {
		a, b := versions[i], versions[j]
		if len(byVersion[a]) != len(byVersion[b]) {
			return len(byVersion[a]) > len(byVersion[b])
		}
		return a < b
	})
	parts := make([]string, 0, len(versions))
	for _, v := range versions {
		hs := byVersion[v]
		sort.Strings(hs)
		noun := "hosts"
		if len(hs) == 1 {
			noun = "host"
		}
		parts = append(parts, fmt.Sprintf("%s on %d %s %s", v, len(hs), noun, hostlist.Fold(hs)))
	}
	return strings.Join(parts, "; ")
}

func isEnabled(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "enable", "yes", "1", "true":
		return true
	}
	return false
}

func orUnset(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(unset)"
	}
	return s
}

func firstMatch(lines []string, words ...string) string {
	for _, l := range lines {
		for _, w := range words {
			if strings.Contains(l, w) {
				return l
			}
		}
	}
	if len(lines) > 0 {
		return lines[0]
	}
	return "no line"
}
