package sshconn

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/provadev/prova/internal/testkit/sshtest"
)

func publicKey(t *testing.T, kind string) ssh.PublicKey {
	t.Helper()
	k, err := sshtest.GenerateKey(kind)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := ssh.NewPublicKey(k.Public())
	if err != nil {
		t.Fatal(err)
	}
	return pub
}

// libraryTypes is what the probe read before the index: the key types of
// the library's KeyError for addr, each once, in the order it lists them.
func libraryTypes(t *testing.T, files []string, addr string, probe ssh.PublicKey) []string {
	t.Helper()
	cb, err := knownhosts.New(files...)
	if err != nil {
		t.Fatal(err)
	}
	var ke *knownhosts.KeyError
	if !errors.As(cb(addr, fakeAddr(addr), probe), &ke) {
		t.Fatalf("the probe key is known for %s", addr)
	}
	var out []string
	for _, k := range ke.Want {
		if !slices.Contains(out, k.Key.Type()) {
			out = append(out, k.Key.Type())
		}
	}
	return out
}

// TestKnownIndexAgreesWithTheLibrary compares the index with the library's
// own matching, address by address, on plain files in every form a plain
// entry takes: a name (port 22), [host]:port, host:port, a comma list,
// IPv6 in both forms, a host with several keys and a key listed twice, a
// second file, comments and blank lines, and addresses no line names.
func TestKnownIndexAgreesWithTheLibrary(t *testing.T) {
	ed, ed2, ec, rsa := publicKey(t, sshtest.Ed25519), publicKey(t, sshtest.Ed25519), publicKey(t, sshtest.ECDSA), publicKey(t, sshtest.RSA)
	probe := publicKey(t, sshtest.Ed25519)
	dir := t.TempDir()
	line := func(k ssh.PublicKey, hosts ...string) string { return knownhosts.Line(hosts, k) + "\n" }
	a := "# managed by ssh-keyscan\n\n" +
		line(ed, "node1") +
		line(ec, "node1") +
		line(rsa, "[127.0.0.1]:2201") +
		line(ed, "node2,10.0.0.2") +
		line(ed2, "node2") +
		line(ec, "[::1]:2222") +
		line(rsa, "::1") +
		"node3:2200 " + strings.TrimSpace(string(ssh.MarshalAuthorizedKey(ed))) + " a comment\n"
	b := line(rsa, "node1") + line(ed, "[127.0.0.1]:2202")
	fa, fb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(fa, []byte(a), 0o600)
	os.WriteFile(fb, []byte(b), 0o600)
	files := []string{fa, fb}
	x := newKnownIndex(readAll(files))
	if x == nil {
		t.Fatal("no index for plain files")
	}
	for _, addr := range []string{"node1:22", "node1:2200", "127.0.0.1:2201", "127.0.0.1:2202", "127.0.0.1:22",
		"node2:22", "10.0.0.2:22", "[::1]:2222", "[::1]:22", "node3:2200", "node3:22", "node4:22"} {
		want := libraryTypes(t, files, addr, probe)
		if got := x.keyTypes(addr); !slices.Equal(got, want) {
			t.Errorf("%s: index %v, library %v", addr, got, want)
		}
	}
	if got := x.keyTypes("node1:22"); !slices.Equal(got, []string{ssh.KeyAlgoED25519, ssh.KeyAlgoECDSA256, ssh.KeyAlgoRSA}) {
		t.Errorf("node1: %v, want its three key types in file order", got)
	}
}

// TestKnownIndexOnlyForPlainFiles: a file with any entry the index cannot
// answer for with a map lookup has no index, and the probe asks the
// library.
func TestKnownIndexOnlyForPlainFiles(t *testing.T) {
	ed := publicKey(t, sshtest.Ed25519)
	key := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(ed)))
	plain := knownhosts.Line([]string{"node1"}, ed) + "\n"
	for name, extra := range map[string]string{
		"hashed":         knownhosts.Line([]string{knownhosts.HashHostname("node2")}, ed) + "\n",
		"wildcard":       "*.example.com " + key + "\n",
		"question mark":  "node? " + key + "\n",
		"negation":       "!node3,node* " + key + "\n",
		"cert-authority": "@cert-authority *.example.com " + key + "\n",
		"revoked":        "@revoked node4 " + key + "\n",
		"unparsable":     "node5 ssh-ed25519 not-base64\n",
		"empty pattern":  "node6,," + " " + key + "\n",
		"type mismatch":  "node7 ssh-rsa " + strings.Fields(key)[1] + "\n",
		"unknown marker": "@unknown node8 " + key + "\n",
	} {
		if x := newKnownIndex([][]byte{[]byte(plain + extra)}); x != nil {
			t.Errorf("%s: an index was made", name)
		}
	}
	if x := newKnownIndex([][]byte{[]byte(plain)}); x == nil {
		t.Error("plain: no index")
	}
}

// TestHostKeyAlgorithmsFromTheIndex: the probe's preference for a host of
// a plain file is the one the library's answer gave (its key types first,
// RSA as its SHA-2 signatures), shared between hosts with the same types;
// for a file the index does not cover, the library's answer still decides.
func TestHostKeyAlgorithmsFromTheIndex(t *testing.T) {
	ed, rsa := publicKey(t, sshtest.Ed25519), publicKey(t, sshtest.RSA)
	dir := t.TempDir()
	file := filepath.Join(dir, "known_hosts")
	os.WriteFile(file, []byte(knownhosts.Line([]string{"[10.0.0.1]:2201"}, rsa)+"\n"+
		knownhosts.Line([]string{"[10.0.0.2]:2201"}, rsa)+"\n"+
		knownhosts.Line([]string{"[10.0.0.3]:2201"}, ed)+"\n"), 0o600)
	p := NewPool(Options{})
	tg := Target{KnownHostsFiles: []string{file}, StrictHostKeyChecking: StrictYes}
	one := p.hostKeyAlgorithms(tg, "10.0.0.1:2201")
	if len(one) < 3 || one[0] != ssh.KeyAlgoRSASHA512 || one[1] != ssh.KeyAlgoRSASHA256 || slices.Contains(one[2:], ssh.KeyAlgoRSASHA512) {
		t.Fatalf("RSA host: %v, want rsa-sha2-512, rsa-sha2-256, then the others once", one)
	}
	two := p.hostKeyAlgorithms(tg, "10.0.0.2:2201")
	if &one[0] != &two[0] || cap(one) != len(one) {
		t.Error("two hosts with the same key types do not share one clipped list")
	}
	if three := p.hostKeyAlgorithms(tg, "10.0.0.3:2201"); len(three) == 0 || three[0] != ssh.KeyAlgoED25519 {
		t.Errorf("ed25519 host: %v", three)
	}
	if none := p.hostKeyAlgorithms(tg, "10.0.0.9:2201"); none != nil {
		t.Errorf("unknown host: %v, want nil (the library's default)", none)
	}
	// A hashed line: no index; the library's answer gives the same list.
	os.WriteFile(file, []byte(knownhosts.Line([]string{knownhosts.HashHostname("[10.0.0.1]:2201")}, rsa)+"\n"), 0o600)
	if e, _ := p.known.entry([]string{file}); e.idx != nil {
		t.Fatal("an index for a hashed file")
	}
	if hashed := p.hostKeyAlgorithms(tg, "10.0.0.1:2201"); !slices.Equal(hashed, one) {
		t.Errorf("hashed RSA host: %v, want %v", hashed, one)
	}
}

// BenchmarkHostKeyProbe is the host key algorithm probe of a run over N
// hosts whose known_hosts has one plain line each: every host probed
// once, as each connection does. index: the file as it is (the index
// answers); library: the same file and one hashed line, so the library's
// matching of every line answers, as before the index.
func BenchmarkHostKeyProbe(b *testing.B) {
	k, _ := sshtest.GenerateKey(sshtest.Ed25519)
	pub, _ := ssh.NewPublicKey(k.Public())
	for _, n := range []int{200, 1000, 2000} {
		var sb strings.Builder
		addrs := make([]string, n)
		for i := range addrs {
			addrs[i] = fmt.Sprintf("10.%d.%d.%d:22", i/65536, i/256%256, i%256)
			sb.WriteString(knownhosts.Line([]string{addrs[i]}, pub) + "\n")
		}
		for _, mode := range []string{"index", "library"} {
			text := sb.String()
			if mode == "library" {
				text += knownhosts.Line([]string{knownhosts.HashHostname("elsewhere")}, pub) + "\n"
			}
			file := filepath.Join(b.TempDir(), "known_hosts")
			os.WriteFile(file, []byte(text), 0o600)
			tg := Target{KnownHostsFiles: []string{file}, StrictHostKeyChecking: StrictYes}
			b.Run(fmt.Sprintf("hosts=%d/%s", n, mode), func(b *testing.B) {
				for b.Loop() {
					p := NewPool(Options{})
					for _, a := range addrs {
						if p.hostKeyAlgorithms(tg, a) == nil {
							b.Fatalf("%s: no preference", a)
						}
					}
				}
			})
		}
	}
}
