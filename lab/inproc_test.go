package lab_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/provadev/prova/lab"
	"github.com/provadev/prova/lab/labtest"
)

// dateRE matches what changes between two runs of the same command: the
// date(1) prefix of mm command lines, GPFS log times, the daemon's
// process id (derived from its start time), and mpstat's date and time of
// day (two runs a second apart print different ones).
var dateRE = regexp.MustCompile(`about to kill process \d+|(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ 0-9]\d \d\d:\d\d:\d\d(\.\d+)? [A-Z]+ \d{4}|\d{4}-\d\d-\d\d[_T ]\d\d:\d\d:\d\d(\.\d+)?([+-]\d{4})?|\d\d/\d\d/\d{4}|\d\d:\d\d:\d\d( [AP]M)?`)

// logNameRE matches the start time in the name of a GPFS log file
// (mmfs.log.2026.12.01.20.07.21.gpfs01): two labs started a second apart
// name the same write differently.
var logNameRE = regexp.MustCompile(`\.\d{4}\.\d\d\.\d\d\.\d\d\.\d\d\.\d\d\.`)

// TestInProcessMatchesShell runs the same command sequence on two labs of
// the same scenario, one that runs plain calls of simulated tools in
// process and one that sends every command through /bin/sh in the node's
// namespace, and compares output, exit status and audit entries.
func TestInProcessMatchesShell(t *testing.T) {
	needRoot(t)
	cmds := []string{
		"ibstat",
		"ibdev2netdev",
		"ofed_info -s",
		"ibv_devinfo -d mlx5_9",
		"# prova-run:0123abcd\nexport PROVA_RUN=0123abcd\nPATH=$PATH:/usr/lpp/mmfs/bin mmlscluster",
		"mmlsconfig -Y",
		"mmfsadm test verbs status",
		`mmchconfig verbsRdma=enable,verbsPorts="mlx5_0/1 mlx5_1/1"`,
		"mmchconfig 'verbsRdmaSend=yes' -N gpfs02",
		"mmfsadm test verbs bogus",
		"mmshutdown -a",
		"mmfsadm test verbs conn",
		"mmstartup -a",
		"mmgetstate -a",
		"mmdiag --config -Y",
		"mmfsadm test verbs conn",
		"mmdiag --network",
		"true && mmchconfig verbsRdmaSend=no", // through sh: the server's memo must see the write
		"mmlsconfig -Y",
		"mpstat -P ALL",
		"nvidia-smi",   // not installed on these nodes: sh says so
		"no_such_tool", // neither
		"ibstat | grep State",
	}
	sc := "../examples/lab/gpfs-firewall.hcl"
	start := func(shellOnly bool) *lab.Lab {
		l, err := lab.Start(context.Background(), lab.Options{Dir: t.TempDir(), Nodes: 4, Scenario: sc, Binary: labtest.Binary(t), ShellOnly: shellOnly})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		return l
	}
	fast, slow := start(false), start(true)
	cf, cs := labtest.Client(t, fast, "gpfs04"), labtest.Client(t, slow, "gpfs04")
	norm := func(s string) string { return dateRE.ReplaceAllString(s, "DATE") }
	for _, cmd := range cmds {
		a, b := labtest.MustRun(t, cf, cmd), labtest.MustRun(t, cs, cmd)
		a.Stdout, a.Stderr, b.Stdout, b.Stderr = norm(a.Stdout), norm(a.Stderr), norm(b.Stdout), norm(b.Stderr)
		if a != b {
			t.Errorf("%q:\nin process %+v\nshell      %+v", cmd, a, b)
		}
	}
	// Every command but four (through sh, not installed, unknown, a pipe).
	if got, want := lab.InProcessRuns(fast), int64(len(cmds)-4); got != want {
		t.Errorf("in-process runs: %d, want %d", got, want)
	}
	if got := lab.InProcessRuns(slow); got != 0 {
		t.Errorf("ShellOnly lab ran %d commands in process", got)
	}
	af, err := lab.ReadAudit(fast.Dir(), "gpfs04")
	if err != nil {
		t.Fatal(err)
	}
	as, err := lab.ReadAudit(slow.Dir(), "gpfs04")
	if err != nil {
		t.Fatal(err)
	}
	if len(af) != len(cmds) || len(as) != len(cmds) {
		t.Fatalf("audit entries: in process %d, shell %d, want %d", len(af), len(as), len(cmds))
	}
	writes := func(w []string) string { return logNameRE.ReplaceAllString(strings.Join(w, ","), ".DATE.") }
	for i := range af {
		a, b := af[i], as[i]
		if strings.Join(a.SimTools, ",") != strings.Join(b.SimTools, ",") || writes(a.StateWrites) != writes(b.StateWrites) ||
			a.Command != b.Command || a.Exit != b.Exit || a.Changed != b.Changed || a.Mode != b.Mode || a.Fault != b.Fault {
			t.Errorf("audit %d %q:\nin process %+v\nshell      %+v", i, cmds[i], a, b)
		}
	}
}
