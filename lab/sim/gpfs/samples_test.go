package gpfs

import (
	"regexp"
	"strings"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
)

// sampleLines returns a sample's lines; with cmd, only the output of the
// prompt line "...# cmd" (up to the next prompt). Indentation a guide
// added is removed with dedent.
func sampleLines(t *testing.T, rel, cmd string, dedent int) []string {
	t.Helper()
	lines := strings.Split(strings.TrimRight(string(samples.Read(t, rel)), "\n"), "\n")
	if cmd != "" {
		start, end := -1, len(lines)
		for i, l := range lines {
			tl := strings.TrimSpace(l)
			prompt := strings.HasPrefix(tl, "[root@") || strings.HasPrefix(tl, "# ")
			if start < 0 && prompt && strings.HasSuffix(tl, cmd) {
				start = i + 1
			} else if start >= 0 && prompt {
				end = i
				break
			}
		}
		if start < 0 {
			t.Fatalf("%s: no prompt for %q", rel, cmd)
		}
		lines = lines[start:end]
	}
	for i, l := range lines {
		if len(l) >= dedent && strings.TrimSpace(l[:dedent]) == "" {
			lines[i] = l[dedent:]
		}
	}
	return lines
}

// table returns the header line, the dashed rule and the rows of a
// table in lines (the first line followed by a line of dashes).
func table(t *testing.T, lines []string) (header, rule string, rows []string) {
	t.Helper()
	for i := 0; i+1 < len(lines); i++ {
		if strings.HasPrefix(strings.TrimSpace(lines[i+1]), "----") && strings.TrimSpace(lines[i]) != "" {
			for _, r := range lines[i+2:] {
				if strings.TrimSpace(r) == "" {
					break
				}
				rows = append(rows, r)
			}
			return lines[i], lines[i+1], rows
		}
	}
	t.Fatalf("no table in %q", lines)
	return
}

func splitOut(s string) []string { return strings.Split(strings.TrimRight(s, "\n"), "\n") }

func TestMmlsclusterSample(t *testing.T) {
	want := sampleLines(t, "gpfs/mmlscluster-ccr-7-nodes.txt", "mmlscluster", 0)
	l := newFakeLab(t, "", 4)
	got := splitOut(l.must("gpfs01", "mmlscluster").out)
	// The information block: same keys at the same columns.
	key := regexp.MustCompile(`^(  [A-Za-z ]+:\s+)\S`)
	var wantKeys, gotKeys []string
	for _, x := range want {
		if m := key.FindStringSubmatch(x); m != nil {
			wantKeys = append(wantKeys, m[1])
		}
	}
	for _, x := range got {
		if m := key.FindStringSubmatch(x); m != nil {
			gotKeys = append(gotKeys, m[1])
		}
	}
	if strings.Join(gotKeys, "|") != strings.Join(wantKeys, "|") || got[0] != want[2] || got[1] != want[3] {
		t.Errorf("info block differs:\n got %q\nwant %q", gotKeys, wantKeys)
	}
	wh, wr, wrows := table(t, want)
	gh, gr, grows := table(t, got)
	if gh != wh || gr != wr {
		t.Errorf("header:\n%q\n%q\nwant\n%q\n%q", gh, gr, wh, wr)
	}
	// Rows of the same widths: node numbers, names and addresses line up.
	if grows[0] != "   1   gpfs01            10.10.0.2        gpfs01           quorum-manager" ||
		len(wrows[0]) != len("   1   gpfs01            10.25.80.15      gpfs01           quorum-manager") {
		t.Errorf("row 1 = %q (sample %q)", grows[0], wrows[0])
	}
	if len(grows) != 4 || grows[2] != "   3   gpfs03            10.10.0.4        gpfs03           " || len(wrows[2]) != len(grows[2]) {
		t.Errorf("non-quorum row = %q (sample %q)", grows[2], wrows[2])
	}
}

func TestMmgetstateSamples(t *testing.T) {
	l := newFakeLab(t, "", 4)
	av := sampleLines(t, "gpfs/mmgetstate-av-active-9-nodes.txt", "mmgetstate -av", 0)
	got := splitOut(l.must("gpfs01", "mmgetstate -av").out)
	wh, wr, wrows := table(t, av)
	gh, gr, grows := table(t, got)
	if got[0] != "" || gh != wh || gr != wr || grows[0] != wrows[0] || grows[1] != wrows[1] || len(grows) != 4 {
		t.Errorf("mmgetstate -av:\n%s\nsample:\n%s", strings.Join(got, "\n"), strings.Join(av, "\n"))
	}
	y := sampleLines(t, "gpfs/mmgetstate-Y-active.txt", "", 0)
	got = splitOut(l.must("gpfs02", "mmgetstate -Y").out)
	if len(got) != 2 || got[0] != y[0] || strings.Count(got[1], ":") != strings.Count(y[1], ":") ||
		got[1] != "mmgetstate::0:1:::gpfs02:2:active:2:4:4:quorum node:(undefined):" {
		t.Errorf("mmgetstate -Y = %q, sample %q", got, y)
	}
	// -N: the old three-column layout has the same header words and fields.
	n := sampleLines(t, "gpfs/mmgetstate-N-single-node-cherub-fixture.txt", "", 0)
	got = splitOut(l.must("gpfs01", "mmgetstate -N gpfs03").out)
	wh, _, wrows = table(t, n)
	gh, _, grows = table(t, got)
	if strings.Join(strings.Fields(gh), " ") != strings.Join(strings.Fields(wh), " ") || len(grows) != 1 ||
		len(strings.Fields(grows[0])) != len(strings.Fields(wrows[0])) || strings.Fields(grows[0])[1] != "gpfs03" {
		t.Errorf("mmgetstate -N = %q, sample %q", got, n)
	}
}

// The 4.2.3 startup sequence: all down, mmstartup -a, all active, with the
// same words in every row; mmfs.log shows the ready lines.
func TestStartupSequenceSample(t *testing.T) {
	const rel = "gpfs/mmstartup-a-then-mmfslog-then-mmgetstate-active-4.2.3.txt"
	l := newFakeLab(t, "cluster {\n  servers = 3\n}\n", 3)
	l.must("gpfs01", "mmshutdown -a")
	for _, phase := range []string{"down", "active"} {
		want := sampleLines(t, rel, "mmgetstate -a", 0)
		if phase == "active" {
			all := sampleLines(t, rel, "", 0)
			want = all[len(all)-6:]
		}
		_, _, wrows := table(t, want)
		_, _, grows := table(t, splitOut(l.must("gpfs01", "mmgetstate -a").out))
		if len(grows) != len(wrows) {
			t.Fatalf("%s: %d rows, want %d", phase, len(grows), len(wrows))
		}
		for i := range grows {
			if strings.Join(strings.Fields(grows[i]), " ") != strings.Join(strings.Fields(wrows[i]), " ") {
				t.Errorf("%s row %q, sample %q", phase, grows[i], wrows[i])
			}
		}
		if phase == "down" {
			start := l.must("gpfs01", "mmstartup -a")
			startLine := regexp.MustCompile(`^\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \S+ \d{4}: mmstartup: Starting GPFS \.\.\.$`)
			if w := sampleLines(t, rel, "mmstartup -a", 0)[0]; !startLine.MatchString(w) || !startLine.MatchString(strings.TrimSpace(start.out)) {
				t.Errorf("mmstartup = %q, sample %q", start.out, w)
			}
			l.now = l.now.Add(DefaultSettle)
		}
	}
	ready := regexp.MustCompile(`^\d{4}-\d\d-\d\d_\d\d:\d\d:\d\d\.\d{3}[+-]\d{4}: (\[N\] mmfsd ready|mmcommon mmfsup invoked\. Parameters: \S+ \S+ all)$`)
	matched := 0
	for _, line := range append(sampleLines(t, rel, "tail -f /var/mmfs/gen/mmfslog", 0), splitOut(l.log("gpfs02"))...) {
		if ready.MatchString(line) {
			matched++
		}
	}
	if matched != 2+2 { // sample: one run; lab: the restart's run (the initial start is mmfs.log.previous)
		t.Errorf("%d mmfsd ready / mmfsup lines matched", matched)
	}
}
