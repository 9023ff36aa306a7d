package shell

import (
	"context"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/provadev/prova/engine/module"
)

// localHost runs commands through the real /bin/sh, to prove that the
// commands the module builds mean what they should.
type localHost struct{}

func (localHost) Name() string { return "local" }

func (localHost) Run(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	c := exec.CommandContext(ctx, "/bin/sh", "-c", cmd)
	c.Stdin, c.Stdout, c.Stderr = stdin, stdout, stderr
	c.Env = []string{"PATH=/usr/bin:/bin"}
	err := c.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), nil
	}
	return 0, err
}

func (localHost) Put(context.Context, string, io.Reader, fs.FileMode) error { return fs.ErrInvalid }
func (localHost) Get(context.Context, string, io.Writer) error              { return fs.ErrInvalid }

func TestRealShell(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a dir with 'quotes' and $x")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	args := mustDecode(t, `
command = "printf '%s|%s|' \"$GREETING\" \"$(pwd)\"; cat; echo $EMPTY > made"
chdir   = "`+dir+`"
creates = "made"
env     = { GREETING = "it's \"$HOME\" `+"`id`"+`", EMPTY = "" }
stdin   = "from stdin"`)
	ctx := context.Background()
	plan, err := New().Plan(ctx, module.PlanRequest{Host: localHost{}, Args: args})
	if err != nil || plan.Action != module.Change {
		t.Fatalf("plan = %+v, %v", plan, err)
	}
	resp, err := New().Apply(ctx, module.ApplyRequest{Host: localHost{}, Args: args})
	if err != nil || resp.Failed {
		t.Fatalf("apply = %+v, %v", resp, err)
	}
	want := "it's \"$HOME\" `id`|" + dir + "|from stdin"
	if resp.Stdout != want {
		t.Fatalf("stdout = %q, want %q", resp.Stdout, want)
	}
	plan, err = New().Plan(ctx, module.PlanRequest{Host: localHost{}, Args: args})
	if err != nil || plan.Action != module.NoOp {
		t.Fatalf("plan after apply = %+v, %v: creates relative to chdir not honoured", plan, err)
	}
}
