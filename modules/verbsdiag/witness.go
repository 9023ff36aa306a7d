package verbsdiag

import (
	"fmt"
	"strings"

	"github.com/provadev/prova/modules/internal/gpfscmd"
	"github.com/provadev/prova/parse/gpfs"
)

// Witness names of the three independent sources that say whether a peer
// talks RDMA.
const (
	WitnessVerbsConn = "verbs conn"       // mmfsadm test verbs conn (format assumed)
	WitnessNetwork   = "mmdiag --network" // TCP and RDMA connection tables (real samples)
	WitnessLog       = "GPFS log"         // VERBS RDMA connect/close lines since the daemon started
)

// Witness is what one source says about the expected peers: those it shows
// connected over RDMA and those it shows without RDMA. A peer it says
// nothing about is in neither. Opinion is false when the source could not
// speak at all (daemon down, no RDMA table, log without a start).
type Witness struct {
	Name    string
	Opinion bool
	RDMA    map[string]bool
	NoRDMA  map[string]bool
	Why     string // when Opinion is false
	// Note qualifies an opinion: the GPFS log read in part (a run longer
	// than what is read) judges only the peers it logged after the skip.
	Note string
}

// networkWitness reads mmdiag --network: an expected peer with a connected
// TCP row and no row in the RDMA table is fallback evidence. Without an
// RDMA table (VERBS RDMA not started, or a release that does not print it)
// it speaks only when VERBS RDMA is not started: then every TCP peer talks
// TCP.
func networkWitness(d *gpfs.NetworkDiag, down string, started bool, expected []string, resolve func(string) string) Witness {
	w := Witness{Name: WitnessNetwork, RDMA: map[string]bool{}, NoRDMA: map[string]bool{}}
	if d == nil {
		w.Why = "not available (" + down + ")"
		return w
	}
	want := set(expected)
	hasRDMA := d.RDMATable
	for _, row := range d.RDMA {
		if p := resolve(row["hostname"]); want[p] {
			w.RDMA[p] = true
		}
	}
	if !hasRDMA && started {
		w.Why = "prints no RDMA table although VERBS RDMA is started"
		return w
	}
	w.Opinion = true
	for _, c := range d.TCP {
		if !strings.EqualFold(c.Status, "connected") {
			continue
		}
		p := resolve(c.Hostname)
		if !want[p] {
			p = resolve(c.Destination)
		}
		if want[p] && !w.RDMA[p] {
			w.NoRDMA[p] = true
		}
	}
	return w
}

// logWitness reads the VERBS RDMA lines since the daemon last started: a
// peer whose latest line is "connected to" has RDMA; one whose latest line
// is a failure or a close does not.
func logWitness(l gpfscmd.LogSummary, expected []string, resolve func(string) string) Witness {
	w := Witness{Name: WitnessLog, RDMA: map[string]bool{}, NoRDMA: map[string]bool{}}
	if !l.StartFound {
		w.Why = "the log read does not show the daemon's start"
		return w
	}
	w.Opinion = true
	if l.Skipped != "" {
		w.Note = l.Skipped + "; only peers logged after them are judged"
	}
	want := set(expected)
	for _, p := range l.Peers {
		name := resolve(p.Name)
		if !want[name] {
			name = resolve(p.IP)
		}
		if !want[name] {
			continue
		}
		if p.UpNow() {
			w.RDMA[name] = true
		} else if p.LastEvent == gpfs.EventVerbsClosed || p.LastEvent == gpfs.EventVerbsDisconnected {
			w.NoRDMA[name] = true
		}
	}
	return w
}

// connWitness is verbs conn's own picture: every expected peer is either
// connected or missing.
func connWitness(expected, missing []string) Witness {
	w := Witness{Name: WitnessVerbsConn, Opinion: true, RDMA: map[string]bool{}, NoRDMA: set(missing)}
	for _, p := range expected {
		if !w.NoRDMA[p] {
			w.RDMA[p] = true
		}
	}
	return w
}

// compare says which witnesses agree with verbs conn about the peers they
// speak of, and where they disagree. Work is O(witnesses × peers).
func compare(expected []string, ws ...Witness) (agree bool, lines []string, summary string) {
	conn := ws[0]
	agree = true
	var agreeing []string
	for _, w := range ws {
		if !w.Opinion {
			lines = append(lines, fmt.Sprintf("%s: no opinion: %s", w.Name, w.Why))
			continue
		}
		var against []string
		for _, p := range expected {
			switch {
			case conn.NoRDMA[p] && w.RDMA[p]:
				against = append(against, fmt.Sprintf("shows an RDMA connection to %s", p))
			case conn.RDMA[p] && w.NoRDMA[p]:
				against = append(against, fmt.Sprintf("shows %s without RDMA", p))
			}
		}
		line := fmt.Sprintf("%s: %d peer(s) over RDMA, %d without (%s)", w.Name, len(w.RDMA), len(w.NoRDMA), joinFew(keys(w.NoRDMA, expected), 5))
		if w.Note != "" {
			line += " (" + w.Note + ")"
		}
		lines = append(lines, line)
		if len(against) > 0 {
			agree = false
			lines = append(lines, fmt.Sprintf("%s disagrees with verbs conn: %s", w.Name, joinFew(against, 5)))
			continue
		}
		agreeing = append(agreeing, w.Name)
	}
	switch {
	case !agree:
		summary = "witnesses disagree (" + strings.Join(disagreeing(lines), "; ") + ")"
	case len(agreeing) > 1:
		summary = "witnesses agree: " + strings.Join(agreeing, ", ")
	default:
		summary = "only verbs conn could witness"
	}
	return agree, lines, summary
}

func disagreeing(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.Contains(l, " disagrees with verbs conn: ") {
			out = append(out, l)
		}
	}
	return out
}

func set(s []string) map[string]bool {
	m := make(map[string]bool, len(s))
	for _, v := range s {
		m[v] = true
	}
	return m
}

// keys returns the members of m in the order of order.
func keys(m map[string]bool, order []string) []string {
	var out []string
	for _, p := range order {
		if m[p] {
			out = append(out, p)
		}
	}
	return out
}

func joinFew(s []string, n int) string {
	if len(s) == 0 {
		return "none"
	}
	if len(s) > n {
		return strings.Join(s[:n], ", ") + fmt.Sprintf(" and %d more", len(s)-n)
	}
	return strings.Join(s, ", ")
}
