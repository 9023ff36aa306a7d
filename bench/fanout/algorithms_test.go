package benchfanout_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/provadev/prova/bench/fanout"
	"github.com/provadev/prova/internal/testkit/sshdtest"
)

// kexLine matches what sshd logs at DEBUG1 of each connection's key
// exchange: the kex and host key algorithms, and each direction's cipher
// and MAC.
var kexLine = regexp.MustCompile(`kex: (algorithm|host key algorithm|client->server cipher|server->client cipher): .*`)

// TestFloorAndProvaNegotiateTheSameAlgorithms: the floor and prova do the
// same cryptographic work per connection (key exchange, host key, cipher,
// MAC), read from sshd's own log, so that their CPU compares like with
// like.
func TestFloorAndProvaNegotiateTheSameAlgorithms(t *testing.T) {
	c := sshdtest.Start(t, 1, sshdtest.Options{Extra: "LogLevel DEBUG1"})
	in := c.Instances[0]
	e := benchfanout.Endpoint{Addr: "127.0.0.1", Port: in.Ports[0]}
	lab := &benchfanout.Lab{Endpoints: []benchfanout.Endpoint{e}, KeyFile: c.ClientKeyFile, User: c.User,
		KnownHosts: filepath.Join(t.TempDir(), "known_hosts")}
	line := knownhosts.Line([]string{knownhosts.Normalize(e.HostPort())}, in.HostKey.PublicKey()) + "\n"
	if err := os.WriteFile(lab.KnownHosts, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	bins, err := benchfanout.Build(t.Context(), t.TempDir(), os.Getenv("BENCHFANOUT_PROVA"))
	if err != nil {
		t.Fatal(err)
	}
	hosts, err := lab.Hosts(1)
	if err != nil {
		t.Fatal(err)
	}
	ctl, err := os.MkdirTemp("", "bf")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(ctl) })
	w, err := benchfanout.NewWorkload(lab, hosts, 1, t.TempDir(), ctl)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tool := range benchfanout.Tools(bins) {
		if tool.Name != benchfanout.Floor && tool.Name != benchfanout.Prova {
			continue
		}
		before := len(in.Log())
		if _, err := w.Run(t.Context(), tool); err != nil {
			t.Fatal(err)
		}
		kex := kexLine.FindAllString(in.Log()[before:], -1)
		if len(kex) != 4 {
			t.Fatalf("%s: sshd logged %d kex lines, want 4 (one connection): %q", tool.Name, len(kex), kex)
		}
		got[tool.Name] = strings.Join(kex, "\n")
		t.Logf("%s:\n%s", tool.Name, got[tool.Name])
	}
	if got[benchfanout.Floor] != got[benchfanout.Prova] {
		t.Errorf("the floor negotiates\n%s\nprova\n%s", got[benchfanout.Floor], got[benchfanout.Prova])
	}
}
