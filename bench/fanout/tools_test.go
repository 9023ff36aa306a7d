package benchfanout_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/provadev/prova/bench/fanout"
)

// TestToolsRunAgainstSSHD runs every tool once on three hosts of a real
// sshd lab: the harness must measure what it claims to measure. Ansible
// runs only where it is installed (it is optional, also under CI=true).
func TestToolsRunAgainstSSHD(t *testing.T) {
	lab := benchfanout.StartLab(t)
	bins, err := benchfanout.Build(t.Context(), t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	ctl, err := os.MkdirTemp("", "bf")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(ctl) })
	hosts, err := lab.Hosts(3)
	if err != nil {
		t.Fatal(err)
	}
	w, err := benchfanout.NewWorkload(lab, hosts, benchfanout.Steps, t.TempDir(), ctl)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range benchfanout.Tools(bins) {
		t.Run(tool.Name, func(t *testing.T) {
			if tool.Missing != "" {
				t.Skip(tool.Missing)
			}
			u, err := w.Run(t.Context(), tool)
			if err != nil {
				t.Fatal(err)
			}
			if u.Wall <= 0 || u.CPU() <= 0 || u.MaxRSS <= 0 {
				t.Errorf("usage %+v: no wall time, CPU or RSS", u)
			}
			if tool.Tree && u.TreePSS <= 0 {
				t.Errorf("usage %+v: tree PSS not sampled", u)
			}
		})
	}
	// prova's run record shows every host ran every step.
	recs, _ := filepath.Glob(filepath.Join(w.Dir, "records", "*", "*"))
	if len(recs) == 0 {
		t.Fatal("prova wrote no run record")
	}
	var all strings.Builder
	for _, r := range recs {
		if b, err := os.ReadFile(r); err == nil {
			all.Write(b)
		}
	}
	for _, h := range hosts {
		if !strings.Contains(all.String(), h.Name) {
			t.Errorf("run record does not mention %s", h.Name)
		}
	}
	// Every ControlPersist master is gone with its socket.
	if left, _ := filepath.Glob(filepath.Join(ctl, "*")); len(left) > 0 {
		t.Errorf("control sockets left: %v", left)
	}
}
