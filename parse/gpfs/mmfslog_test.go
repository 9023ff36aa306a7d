package gpfs

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/internal/testkit/samples"
)

func TestMmfsLogTCPSample(t *testing.T) {
	l, err := ParseMmfsLog(only(t, "gpfs/mmfs-log-latest-tail-tcp-connects.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != 20 || l.HasStart() {
		t.Fatalf("%d entries, starts %v", len(l.Entries), l.Starts)
	}
	e := l.Entries[0]
	want := time.Date(2025, 9, 12, 15, 1, 3, 590e6, time.FixedZone("", 2*3600))
	if e.Time == nil || !e.Time.Equal(want) || e.Severity != "N" || e.Event != EventTCPConnecting ||
		e.Peer == nil || e.Peer.IP != "10.25.80.144" || e.Peer.Name != "n144" || e.Peer.Conn != "c0n7" {
		t.Errorf("entry 1 = %+v peer %+v", e, e.Peer)
	}
	if e := l.Entries[2]; e.Event != EventTCPConnected || e.Peer.IP != "10.25.80.111" || e.Peer.Conn != "c0n42" {
		t.Errorf("entry 3 = %+v", e)
	}
	if got := VerbsPeers(l.SinceLastStart()); len(got) != 0 {
		t.Errorf("TCP-only log has RDMA peers: %+v", got)
	}
}

func TestMmfsLogVerbsClosedSample(t *testing.T) {
	l, err := ParseMmfsLog(only(t, "gpfs/mmfs-log-verbs-rdma-closed-connection-errors.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != 10 {
		t.Fatalf("%d entries", len(l.Entries))
	}
	e := l.Entries[7]
	p := e.Peer
	if e.Severity != "E" || e.Event != EventVerbsClosed || p == nil || p.IP != "10.25.80.150" || p.Name != "n150" ||
		p.Device != "mlx5_0" || intp(p.Port) != 1 || intp(p.Fabnum) != 0 || intp(p.Index) != 22 || intp(p.Cookie) != 588 || intp(p.Error) != 73 {
		t.Errorf("entry 8 = %+v peer %+v", e, p)
	}
	peers := VerbsPeers(l.Entries)
	if len(peers) != 6 {
		t.Fatalf("peers = %+v", peers)
	}
	// n150 closed three times, last with error 233.
	for _, p := range peers {
		if p.IP == "10.25.80.150" && (p.Closed != 3 || intp(p.LastError) != 233 || p.UpNow() || p.Name != "n150") {
			t.Errorf("n150 = %+v", p)
		}
	}
}

func TestMmfsLogStartupSample(t *testing.T) {
	l, err := ParseMmfsLog(segmentOf(t, "gpfs/mmstartup-a-then-mmfslog-then-mmgetstate-active-4.2.3.txt", "tail -f", 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != 18 {
		t.Fatalf("%d entries", len(l.Entries))
	}
	var ready, tcp int
	for _, e := range l.Entries {
		switch e.Event {
		case EventDaemonReady:
			ready++
		case EventTCPConnected, EventTCPConnecting:
			tcp++
		}
	}
	if ready != 1 || tcp != 3 {
		t.Errorf("ready %d, tcp %d", ready, tcp)
	}
	// A line without severity keeps its whole message.
	if e := l.Entries[14]; e.Severity != "" || e.Message != "mmcommon mmfsup invoked. Parameters: 192.168.50.241 192.168.50.241 all" {
		t.Errorf("entry 15 = %+v", e)
	}
}

const verbsLog = `2024-03-01_10:00:00.000+0000: runmmfs starting
Removing old /var/adm/ras/mmfs.log.* files:
2024-03-01_10:00:02.000+0000: [I] mmfsd initializing. {Version: 5.1.9.0   Built: Nov 1 2023 10:00:00} ...
2024-03-01_10:00:03.000+0000: [I] VERBS RDMA starting with verbsRdmaCm=no verbsRdmaSend=no
2024-03-01_10:00:03.100+0000: [I] VERBS RDMA started.
2024-03-01_10:00:05.000+0000: [I] VERBS RDMA connecting to 10.0.0.2 (gpfs02) on mlx5_0 port 1 fabnum 0 index 0 cookie 1
2024-03-01_10:00:05.010+0000: [I] VERBS RDMA connected to 10.0.0.2 (gpfs02) on mlx5_0 port 1 fabnum 0 sl 0 index 0 cookie 1
2024-03-01_10:00:06.000+0000: [N] mmfsd ready
2024-03-01_11:00:00.000+0000: [N] mmfsd is shutting down.
2024-03-01_11:00:05.000+0000: [I] mmfsd initializing. {Version: 5.1.9.0   Built: Nov 1 2023 10:00:00} ...
2024-03-01_11:00:06.000+0000: [E] VERBS RDMA library libibverbs.so not found
2024-03-01_11:00:06.100+0000: [E] VERBS RDMA: failed to open device mlx5_9
2024-03-01_11:00:07.000+0000: [I] VERBS RDMA connected to 10.0.0.3 (gpfs03) on mlx5_0 port 1 fabnum 0 sl 0 index 1 cookie 2
2024-03-01_11:00:08.000+0000: [I] VERBS RDMA disconnected from 10.0.0.3 (gpfs03) on mlx5_0 port 1
2024-03-01_11:00:09.000+0000: [I] Close connection to 10.0.0.4 gpfs04 <c0n3> (Connection reset by peer)
Sat Mar  2 09:00:00.123 2024: [I] VERBS RDMA started.
`

func TestMmfsLogVerbsEventsAndRuns(t *testing.T) {
	l, err := ParseMmfsLog([]byte(verbsLog))
	if err != nil {
		t.Fatal(err)
	}
	events := []string{EventDaemonStart, "", EventDaemonStart, EventVerbsStarting, EventVerbsStarted, EventVerbsConnecting,
		EventVerbsConnected, EventDaemonReady, EventDaemonShutdown, EventDaemonStart, EventVerbsLibraryNotFound,
		EventVerbsError, EventVerbsConnected, EventVerbsDisconnected, EventTCPClosed, EventVerbsStarted}
	if len(l.Entries) != len(events) {
		t.Fatalf("%d entries, want %d", len(l.Entries), len(events))
	}
	for i, want := range events {
		if l.Entries[i].Event != want {
			t.Errorf("entry %d (%q) event %q, want %q", i, l.Entries[i].Message, l.Entries[i].Event, want)
		}
	}
	// runmmfs starting + mmfsd initializing are one run; the restart
	// without a runmmfs line is a second.
	if len(l.Starts) != 2 || l.Starts[0] != 0 || l.Starts[1] != 9 {
		t.Fatalf("starts = %v", l.Starts)
	}
	since := l.SinceLastStart()
	if len(since) != 7 || since[0].Line != 10 {
		t.Fatalf("since last start: %d entries from line %d", len(since), since[0].Line)
	}
	if l.Entries[10].Library != "libibverbs.so" {
		t.Errorf("library = %q", l.Entries[10].Library)
	}
	if l.Entries[1].Time != nil {
		t.Errorf("untimed line got a time")
	}
	if ts := l.Entries[15].Time; ts == nil || ts.Year() != 2024 || ts.Day() != 2 || ts.Nanosecond() != 123e6 {
		t.Errorf("old-style timestamp = %v", ts)
	}
	peers := VerbsPeers(since)
	if len(peers) != 1 || peers[0].Name != "gpfs03" || peers[0].Connected != 1 || peers[0].Closed != 1 || peers[0].UpNow() {
		t.Errorf("peers since last start = %+v", peers)
	}
	all := VerbsPeers(l.Entries)
	if len(all) != 2 || !all[0].UpNow() || all[0].IP != "10.0.0.2" {
		t.Errorf("all peers = %+v", all)
	}
}

func TestMmfsLogErrors(t *testing.T) {
	_, err := ParseMmfsLog([]byte("2024-03-01_10:00:00.000+0000: [I] ok\n2024-13-01_10:00:00.000+0000: [I] bad month\n"))
	wantParseError(t, err, "mmfs.log", 2)
	_, err = ParseMmfsLog([]byte("2024-03-01_10:00:00 no colon space\n"))
	wantParseError(t, err, "mmfs.log", 1)
	_, err = ParseMmfsLog([]byte("Mon Feb 31 10:00:00 2024: [I] no such day\n"))
	wantParseError(t, err, "mmfs.log", 1)
}

func TestVerbsPortNotFoundIsNotALibraryProblem(t *testing.T) {
	log := "2024-03-01_11:00:06.000+0000: [E] VERBS RDMA port mlx5_0/2 not found\n" +
		"2024-03-01_11:00:07.000+0000: [E] VERBS RDMA library libibverbs.so not found\n"
	l, err := ParseMmfsLog([]byte(log))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != 2 || l.Entries[0].Event == EventVerbsLibraryNotFound || l.Entries[1].Event != EventVerbsLibraryNotFound {
		t.Fatalf("entries: %+v", l.Entries)
	}
}

// IBM quotes the two pagepool messages without a timestamp; the parser
// must classify them so and with the usual prefixes.
func TestMmfsLogPagepoolNotRegisteredSample(t *testing.T) {
	body := only(t, "gpfs/mmfs-log-verbs-rdma-shutdown-pagepool-not-registered-docs-5.2.3.txt")
	for _, tc := range []struct{ name, prefix string }{
		{"as documented", ""},
		{"iso", "2025-09-12_15:00:59.020+0200: [E] "},
		{"old stamp", "Mon Jun 25 22:23:36.298 2018: [E] "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			for _, line := range strings.Split(strings.TrimSpace(string(body)), "\n") {
				b.WriteString(tc.prefix + line + "\n")
			}
			l, err := ParseMmfsLog([]byte(b.String()))
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Entries) != 2 {
				t.Fatalf("%d entries", len(l.Entries))
			}
			for _, e := range l.Entries {
				if e.Event != EventVerbsPagepoolNotRegistered {
					t.Errorf("line %d %q: event %q", e.Line, e.Message, e.Event)
				}
				if tc.prefix != "" && (e.Time == nil || e.Severity != "E") {
					t.Errorf("line %d: time %v severity %q", e.Line, e.Time, e.Severity)
				}
			}
		})
	}
}

// The timestamp styles GPFS has written: ISO 8601 (default since 5.x), and
// the older date(1)-like form that clusters with mmfsLogTimeStampISO8601=no
// still write, with milliseconds, with a zone, or neither, and lines of old
// releases without a [severity]. No public log in the older form was found:
// these lines are constructed from the documented layouts.
func TestMmfsLogTimestampStyles(t *testing.T) {
	utc2 := time.FixedZone("", 2*3600)
	for _, tc := range []struct {
		line string
		want time.Time
		sev  string
	}{
		{"2025-09-12_15:01:03.590+0200: [I] VERBS RDMA started.", time.Date(2025, 9, 12, 15, 1, 3, 590e6, utc2), "I"},
		{"Mon Jun 25 22:23:36.298 2018: [I] VERBS RDMA started.", time.Date(2018, 6, 25, 22, 23, 36, 298e6, time.UTC), "I"},
		{"Mon Jun  4 22:23:36.298 2018: [I] VERBS RDMA started.", time.Date(2018, 6, 4, 22, 23, 36, 298e6, time.UTC), "I"},
		{"Thu Mar 15 14:00:12 2012: VERBS RDMA started.", time.Date(2012, 3, 15, 14, 0, 12, 0, time.UTC), ""},
		{"Thu Mar 15 14:00:12.123456 2012: VERBS RDMA started.", time.Date(2012, 3, 15, 14, 0, 12, 123456e3, time.UTC), ""},
	} {
		l, err := ParseMmfsLog([]byte(tc.line + "\n"))
		if err != nil {
			t.Errorf("%q: %v", tc.line, err)
			continue
		}
		e := l.Entries[0]
		if e.Time == nil || !e.Time.Equal(tc.want) || e.Severity != tc.sev || e.Event != EventVerbsStarted || e.Message != "VERBS RDMA started." {
			t.Errorf("%q: %+v (time %v)", tc.line, e, e.Time)
		}
	}
	// Starts-like-a-timestamp but is not one: an error, never an untimed line.
	for _, bad := range []string{"2025-13-12_15:01:03.590+0200: [I] x", "Mon Jun 31 22:23:36.298 2018: [I] x"} {
		if _, err := ParseMmfsLog([]byte(bad + "\n")); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// The older log form IBM still documents: "Mon Jun 25 22:23:36.298 2018: "
// stamps with and without milliseconds, no severity tag, no connection
// tag, a full stop after the node name.
func TestMmfsLogOlderFormSample(t *testing.T) {
	l, err := ParseMmfsLog(only(t, "gpfs/mmfs-log-old-timestamps-no-severity-network-failure-docs-5.2.1.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != 9 {
		t.Fatalf("%d entries", len(l.Entries))
	}
	for _, e := range l.Entries {
		if e.Time == nil || e.Severity != "" {
			t.Errorf("line %d: time %v severity %q", e.Line, e.Time, e.Severity)
		}
	}
	e := l.Entries[0]
	if !e.Time.Equal(time.Date(2018, 6, 25, 22, 23, 36, 298e6, time.UTC)) || e.Event != EventTCPClosed ||
		e.Peer == nil || e.Peer.IP != "192.168.10.109" || e.Peer.Name != "c5n109" || e.Peer.Conn != "" ||
		e.Message != "Close connection to 192.168.10.109 c5n109. Attempting reconnect." {
		t.Errorf("entry 1 = %+v peer %+v", e, e.Peer)
	}
	if e := l.Entries[1]; e.Event != EventTCPConnecting || e.Peer.Name != "c5n109" {
		t.Errorf("entry 2 = %+v", e)
	}
	if e := l.Entries[5]; !e.Time.Equal(time.Date(2018, 6, 25, 16, 11, 16, 0, time.UTC)) || e.Event != EventTCPClosed || e.Peer.Name != "k155n01" {
		t.Errorf("entry 6 = %+v", e)
	}
	if e := l.Entries[6]; e.Event != "" || e.Peer != nil {
		t.Errorf("entry 7 = %+v", e)
	}
}

// A CNFS node's log: a date(1)-stamped script line with a zone name, then
// NFS-Ganesha's lines in its own format, kept as untimed lines.
func TestMmfsLogCNFSGaneshaSample(t *testing.T) {
	l, err := ParseMmfsLog(only(t, "gpfs/mmfs-log-cnfs-ganesha-lines-date-tz-2015-issue17.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != 6 {
		t.Fatalf("%d entries", len(l.Entries))
	}
	e := l.Entries[0]
	if e.Time == nil || e.Time.Year() != 2015 || e.Time.Month() != 6 || e.Time.Day() != 3 || e.Time.Hour() != 19 ||
		e.Message != "mmnfsup: Starting Ganesha services" {
		t.Errorf("entry 1 = %+v", e)
	}
	for _, e := range l.Entries[1:] {
		if e.Time != nil || !strings.HasPrefix(e.Message, "03/06/2015 19:35:10 : epoch 556f3ace") {
			t.Errorf("line %d = %+v", e.Line, e)
		}
	}
}

// A message the daemon logs twice in one second, with other lines between,
// is two entries; a stretch of the log that comes round again is the log
// read twice and refused at the line where it starts again.
func TestMmfsLogRepeatedMessageIsNotASecondCopy(t *testing.T) {
	const twice = "Mon Jun 25 22:23:36 2018: Close connection to 10.0.0.2 gpfs02 (Connection reset by peer)\n" +
		"Mon Jun 25 22:23:36 2018: Reconnecting to 10.0.0.2 gpfs02\n" +
		"Mon Jun 25 22:23:36 2018: Close connection to 10.0.0.2 gpfs02 (Connection reset by peer)\n" +
		"Mon Jun 25 22:23:37 2018: Reconnected to 10.0.0.2 gpfs02\n"
	l, err := ParseMmfsLog([]byte(twice))
	if err != nil {
		t.Fatalf("a message logged twice in one second: %v", err)
	}
	if len(l.Entries) != 4 {
		t.Fatalf("entries: %d, want 4", len(l.Entries))
	}
	stretch := "2024-03-01_10:00:00.000+0000: [I] one\n2024-03-01_10:00:01.000+0000: [I] two\n2024-03-01_10:00:02.000+0000: [I] three\n"
	_, err = ParseMmfsLog([]byte(stretch + stretch))
	wantParseError(t, err, "mmfs.log", 4)
}

// What reading mmfs.log.latest from its first line rests on: GPFS opens a
// file per daemon start and points mmfs.log.latest (and .previous) at the
// newest ones, so the file a reader opens begins with the current run.
// Real listing of /var/adm/ras; the lab names its files the same way.
func TestMmfsLogOneFilePerRun(t *testing.T) {
	links := map[string]string{}
	for _, line := range strings.Split(string(samples.Read(t, "gpfs/ls-latr-var-adm-ras-mmfs-log-links-4.x.txt")), "\n") {
		if f := strings.Fields(line); len(f) == 11 && f[9] == "->" {
			links[f[8]] = f[10]
		}
	}
	run := regexp.MustCompile(`^mmfs\.log\.\d{4}\.\d\d\.\d\d\.\d\d\.\d\d\.\d\d\.gpfs01$`)
	if !run.MatchString(links["mmfs.log.latest"]) || !run.MatchString(links["mmfs.log.previous"]) || links["mmfs.log.latest"] <= links["mmfs.log.previous"] {
		t.Errorf("links %v", links)
	}
}
