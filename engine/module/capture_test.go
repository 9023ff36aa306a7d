package module

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync"
	"testing"
)

// echoHost prints its command on stdout and "err:" and the command on
// stderr.
type echoHost struct{}

func (echoHost) Name() string { return "n1" }

func (echoHost) Run(_ context.Context, cmd string, _ io.Reader, stdout, stderr io.Writer) (int, error) {
	io.WriteString(stdout, cmd)
	io.WriteString(stderr, "err:"+cmd)
	return len(cmd), nil
}

func (echoHost) Put(context.Context, string, io.Reader, fs.FileMode) error { return nil }
func (echoHost) Get(context.Context, string, io.Writer) error              { return nil }

// Captures one after another and at once, whose buffers come from one
// pool, each keep exactly their own command's output and limit: a
// truncated one marks only itself.
func TestCaptureKeepsEachCommandsOwnOutput(t *testing.T) {
	ctx := context.Background()
	long := strings.Repeat("x", 40)
	o, err := CaptureLimit(ctx, echoHost{}, long, 10)
	if err != nil || o.Stdout != long[:10]+TruncatedLine || o.Stderr != "err:"+long || o.RC != 40 {
		t.Fatalf("limited capture: %+v, %v", o, err)
	}
	if o, err := Capture(ctx, echoHost{}, "ab"); err != nil || o.Stdout != "ab" || o.Stderr != "err:ab" || o.RC != 2 {
		t.Fatalf("next capture: %+v, %v", o, err)
	}
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 20 {
				cmd := fmt.Sprintf("cmd-%d-%d", i, j)
				if o, err := Capture(ctx, echoHost{}, cmd); err != nil || o.Stdout != cmd || o.Stderr != "err:"+cmd {
					t.Errorf("%s: %+v, %v", cmd, o, err)
				}
			}
		}()
	}
	wg.Wait()
}
