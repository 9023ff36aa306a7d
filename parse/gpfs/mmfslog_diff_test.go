package gpfs

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
)

// sameAsOld fails t when the streaming parser and the one it replaced
// (mmfslog_old_test.go) read data differently: the same entries, starts
// and flags, or the same error.
func sameAsOld(t *testing.T, name string, data []byte) {
	t.Helper()
	want, werr := oldParseMmfsLog(data)
	got, gerr := ParseMmfsLog(data)
	if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
		t.Fatalf("%s: error %v, the old parser's %v", name, gerr, werr)
	}
	if werr != nil {
		return
	}
	wj, _ := json.Marshal(want)
	gj, _ := json.Marshal(got)
	if string(wj) != string(gj) {
		t.Fatalf("%s: the parsers differ\nnew %s\nold %s", name, gj, wj)
	}
	// The streaming form hands over the same entries and starts.
	var n int
	var starts []int
	err := ScanMmfsLog(string(data), func(e *LogEntry, start bool) {
		if start {
			starts = append(starts, n)
		}
		if ej, _ := json.Marshal(e); n >= len(want.Entries) || string(ej) != mustJSON(want.Entries[n]) {
			t.Fatalf("%s: ScanMmfsLog entry %d = %s", name, n, ej)
		}
		n++
	})
	if err != nil || n != len(want.Entries) || fmt.Sprint(starts) != fmt.Sprint(nilIfEmpty(want.Starts)) {
		t.Fatalf("%s: ScanMmfsLog: %v, %d entries, starts %v; want %d, %v", name, err, n, starts, len(want.Entries), want.Starts)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func nilIfEmpty(s []int) []int {
	if len(s) == 0 {
		return nil
	}
	return s
}

// TestMmfsLogSameAsOldOnSamples: every real GPFS sample (logs and the
// other tools' outputs alike), each command output of it, and the texts the
// other tests use read the same with both parsers.
func TestMmfsLogSameAsOldOnSamples(t *testing.T) {
	for _, rel := range samples.Glob(t, "gpfs/*.txt") {
		sameAsOld(t, rel, samples.Read(t, rel))
		for k, s := range segments(t, rel) {
			sameAsOld(t, fmt.Sprintf("%s output %d (%s)", rel, k, s.cmd), s.out)
		}
	}
	for i, s := range []string{verbsLog, "", "\n", "\n\n", "a\r\nb\r\n", "x\r", "{\"a\":1}", "[1,2",
		"2024-03-01_10:00:00.000+0000: [I] ok\r\n2024-03-01_10:00:00.000+0000: [I] ok\r\n",
		"2024-03-01_10:00:00 no colon space\n", "Mon Feb 31 10:00:00 2024: [I] no such day\n",
		"Mon Jun 25 22:23:36.298 2018: Close connection to 192.168.10.109 c5n109. Attempting reconnect.\n",
		"[root@gpfs01 ~]# cat /var/adm/ras/mmfs.log.latest\n", "cut short"} {
		sameAsOld(t, fmt.Sprintf("text %d", i), []byte(s))
	}
}

// labLikeLog is a daemon start as the lab writes it at scale (two ports,
// every peer connecting and connected over RDMA and TCP), a restart, closes
// with errors and a second run: the shape the 1,000-node verify reads.
func labLikeLog(peers int) string {
	var b strings.Builder
	ms := 0
	stamp := func() string {
		ms += 3
		return fmt.Sprintf("2026-12-01_10:%02d:%02d.%03d+0000", ms/60000%60, ms/1000%60, ms%1000)
	}
	for run := 0; run < 2; run++ {
		fmt.Fprintf(&b, "%s: runmmfs starting\nRemoving old /var/adm/ras/mmfs.log.* files:\n", stamp())
		fmt.Fprintf(&b, "%s: [I] mmfsd initializing. {Version: 5.1.9.0   Built: Oct 25 2023 12:21:35} ...\n", stamp())
		fmt.Fprintf(&b, "%s: [I] VERBS RDMA starting with verbsRdmaCm=no verbsRdmaSend=no verbsRdmaUseMultiCqThreads=yes verbsRdmaUseCompVectors=yes\n", stamp())
		fmt.Fprintf(&b, "%s: [I] VERBS RDMA started.\n", stamp())
		for p := 2; p <= peers; p++ {
			ip, name := fmt.Sprintf("10.0.%d.%d", p/250, p%250), fmt.Sprintf("gpfs%04d", p)
			fmt.Fprintf(&b, "%s: [N] Connecting to %s %s <c0n%d>:[0]\n", stamp(), ip, name, p-1)
			fmt.Fprintf(&b, "%s: [I] Connected to %s %s <c0n%d>:[0]\n", stamp(), ip, name, p-1)
			for port := 0; port < 2; port++ {
				fmt.Fprintf(&b, "%s: [I] VERBS RDMA connecting to %s (%s) on mlx5_%d port 1 fabnum 0 index %d cookie %d\n", stamp(), ip, name, port, p, p+port)
				fmt.Fprintf(&b, "%s: [I] VERBS RDMA connected to %s (%s) on mlx5_%d port 1 fabnum 0 sl 0 index %d cookie %d\n", stamp(), ip, name, port, p, p+port)
			}
			if p%97 == 0 {
				fmt.Fprintf(&b, "%s: [E] VERBS RDMA closed connection to %s (%s) on mlx5_0 port 1 fabnum 0 index %d cookie %d error 233\n", stamp(), ip, name, p, p)
			}
		}
		fmt.Fprintf(&b, "%s: [N] mmfsd ready\n", stamp())
		if run == 0 {
			fmt.Fprintf(&b, "%s: [N] mmfsd is shutting down.\n", stamp())
		}
	}
	return b.String()
}

func TestMmfsLogSameAsOldOnLabLikeLog(t *testing.T) {
	sameAsOld(t, "lab-like log, 300 peers", []byte(labLikeLog(300)))
}

// FuzzMmfsLogSameAsOld: on any text both parsers agree.
func FuzzMmfsLogSameAsOld(f *testing.F) {
	for _, rel := range samples.Glob(f, "gpfs/*.txt") {
		f.Add(samples.Read(f, rel))
	}
	f.Add([]byte(verbsLog))
	f.Add([]byte(labLikeLog(5)))
	f.Fuzz(func(t *testing.T, data []byte) { sameAsOld(t, "fuzz input", data) })
}

func BenchmarkParseMmfsLog1000(b *testing.B) {
	data := []byte(labLikeLog(1000))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseMmfsLog(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScanMmfsLog1000(b *testing.B) {
	data := labLikeLog(1000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := ScanMmfsLog(data, func(*LogEntry, bool) {}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOldParseMmfsLog1000(b *testing.B) {
	data := []byte(labLikeLog(1000))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := oldParseMmfsLog(data); err != nil {
			b.Fatal(err)
		}
	}
}

// sameAsRegexps fails t when the written-out matchers disagree with the
// regexps they replace on s.
func sameAsRegexps(t *testing.T, s string) {
	t.Helper()
	ip, name, dev, port, ok := matchVerbsPeer(s)
	m := old_verbsPeer.FindStringSubmatch(s)
	if ok != (m != nil) || (ok && (m[1] != ip || m[2] != name || m[3] != dev || m[4] != port)) {
		t.Fatalf("matchVerbsPeer(%q) = %q %q %q %q %v, the regexp %q", s, ip, name, dev, port, ok, m)
	}
	var got []string
	eachVerbsNum(s, func(k, n string) { got = append(got, k+"="+n) })
	var want []string
	for _, n := range old_verbsNum.FindAllStringSubmatch(s, -1) {
		want = append(want, n[1]+"="+n[2])
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("eachVerbsNum(%q) = %v, the regexp %v", s, got, want)
	}
}

func TestVerbsMatchersSameAsRegexps(t *testing.T) {
	for _, s := range []string{
		"connected to 10.0.0.2 (gpfs02) on mlx5_0 port 1 fabnum 0 sl 0 index 0 cookie 1",
		"closed connection to 10.25.80.150 (n150) on mlx5_0 port 1 fabnum 0 index 22 cookie 588 error 73",
		"disconnected from 10.0.0.3 (gpfs03) on mlx5_0 port 1", "to  (x)", "to a (b", "proto x (y) on z port",
		"from a (b) on c port 12x index -3 error 4_ cookie 5-", "errorindex 1 xerror 2 error 3error 4", "to a\t(b)",
		"to a (b) on  port 1", "to a (b) on c\tport 1", "to a (b)) on c port 1 to d (e)", "",
	} {
		sameAsRegexps(t, s)
	}
	for _, rel := range samples.Glob(t, "gpfs/*.txt") {
		for _, line := range strings.Split(string(samples.Read(t, rel)), "\n") {
			sameAsRegexps(t, line)
		}
	}
}

func FuzzVerbsMatchersSameAsRegexps(f *testing.F) {
	f.Add("closed connection to 10.25.80.150 (n150) on mlx5_0 port 1 fabnum 0 index 22 cookie 588 error 73")
	f.Add("from a (b) on c port 12x index -3 error 4_ cookie 5-")
	f.Fuzz(func(t *testing.T, s string) { sameAsRegexps(t, s) })
}

// sameConnsAsOld fails t when ParseVerbsConn (and ParseVerbsConnText)
// read data otherwise than the parser they replaced (verbs_conn_old_test.go).
func sameConnsAsOld(t *testing.T, name string, data []byte) {
	t.Helper()
	want, werr := oldParseVerbsConn(data)
	for _, parse := range []func() (*VerbsConns, error){
		func() (*VerbsConns, error) { return ParseVerbsConn(data) },
		func() (*VerbsConns, error) { return ParseVerbsConnText(string(data)) },
	} {
		got, gerr := parse()
		if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
			t.Fatalf("%s: error %v, the old parser's %v", name, gerr, werr)
		}
		if werr == nil && mustJSON(got) != mustJSON(want) {
			t.Fatalf("%s: the parsers differ\nnew %s\nold %s", name, mustJSON(got), mustJSON(want))
		}
	}
}

// The lab-shaped table of a 1,000-node cluster (docs/gpfs-verbs-conn.md),
// its header-less form, and every real GPFS sample, each output of them.
func TestVerbsConnSameAsOld(t *testing.T) {
	var b strings.Builder
	b.WriteString("RDMA Connections between nodes:\n  destination     hostname   state      device   port  qps\n")
	for p := 2; p <= 1000; p++ {
		state := "connected"
		if p%97 == 0 {
			state = "disconnected"
		}
		fmt.Fprintf(&b, "  10.0.%d.%d  gpfs%04d  %s  mlx5_%d  1  2\n", p/250, p%250, p, state, p%2)
	}
	lab := b.String()
	for i, s := range []string{lab, lab[:len(lab)-7], strings.ReplaceAll(lab, "\n", "\r\n"), "", "\n", "VERBS RDMA status: disabled\n",
		"10.0.0.2 gpfs02 connected mlx5_0/1 2\n10.0.0.3 - connected\n", "10.0.0.2 connected mlx5_0 1 2\n", "bogus header line\n",
		"destination state\n10.0.0.2 connected\n10.0.0.x connected\n", "node state port\ngpfs02 up x\n"} {
		sameConnsAsOld(t, fmt.Sprintf("text %d", i), []byte(s))
	}
	for _, rel := range samples.Glob(t, "gpfs/*.txt") {
		sameConnsAsOld(t, rel, samples.Read(t, rel))
		for k, s := range segments(t, rel) {
			sameConnsAsOld(t, fmt.Sprintf("%s output %d", rel, k), s.out)
		}
	}
}

func FuzzVerbsConnSameAsOld(f *testing.F) {
	f.Add([]byte("  destination  hostname  state  device  port  qps\n  10.0.0.2  gpfs02  connected  mlx5_0  1  2\n"))
	f.Add([]byte("10.0.0.2 gpfs02 connected mlx5_0/1 2\n10.0.0.3 - connected"))
	f.Fuzz(func(t *testing.T, data []byte) { sameConnsAsOld(t, "fuzz input", data) })
}
