package lab_test

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/lab"
	"github.com/provadev/prova/lab/labtest"
)

// A running lab whose directory is removed stops by itself, since `lab
// down` can no longer reach it.
func TestServeStopsWhenItsDirectoryIsGone(t *testing.T) {
	dir := t.TempDir()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		done <- lab.Serve(ctx, lab.Options{Dir: dir, Nodes: 1, Binary: labtest.Binary(t)}, pw)
		pw.Close()
	}()
	line, _ := bufio.NewReader(pr).ReadString('\n')
	if strings.TrimSpace(line) != "ready" {
		t.Fatalf("serve said %q", line)
	}
	go io.Copy(io.Discard, pr)
	if err := os.Remove(filepath.Join(dir, lab.PIDFile)); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "gone") {
			t.Errorf("serve ended with %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the lab kept running without its directory")
	}
}
