package sshconn

import (
	"bytes"
	"net"
	"os"
	"slices"
	"strings"

	"golang.org/x/crypto/ssh"
)

// knownIndex answers, for known_hosts files of plain lines only, which key
// types are known for an address, in the files' order: what the host key
// algorithm probe asks before every connection (hostKeyAlgorithms). The
// library's callback answers it too, but by matching every line's
// patterns against the address, once per connection: hosts x lines for a
// run, both of them in the thousands on a large cluster. The index is
// made once per read of the files (knownCache) and looked up by address.
//
// It is made only when every entry is plain: no hashed host (|1|...), no
// pattern with a wildcard or a negation, no @cert-authority or @revoked
// marker, no line x/crypto/ssh's parser rejects (it refuses what the
// library's reader skips: a key of another type than the line names, an
// unknown marker is a marker). Then a pattern names one
// host (and port) and the library's match is string equality, which a
// map does. For any other file the probe asks the library, as before. The
// host key check itself is always the library's.
type knownIndex struct {
	types map[knownAddr][]string // key types by host and port, each once, in file order
}

type knownAddr struct{ host, port string }

// newKnownIndex indexes the contents of the files, in order; nil when any
// entry is not plain.
func newKnownIndex(contents [][]byte) *knownIndex {
	x := &knownIndex{types: map[knownAddr][]string{}}
	for _, data := range contents {
		for line := range bytes.Lines(data) {
			line = bytes.TrimSpace(line)
			if len(line) == 0 || line[0] == '#' {
				continue
			}
			marker, hosts, key, _, rest, err := ssh.ParseKnownHosts(line)
			if err != nil || marker != "" || len(bytes.TrimSpace(rest)) != 0 {
				return nil
			}
			for _, h := range hosts {
				a, ok := plainPattern(h)
				if !ok {
					return nil
				}
				if typ := key.Type(); !slices.Contains(x.types[a], typ) {
					x.types[a] = append(x.types[a], typ)
				}
			}
		}
	}
	return x
}

// plainPattern reads a host pattern that names one host: "host" (port 22),
// "host:port" or "[host]:port", as the library reads them; false for a
// hashed host, a wildcard or a negation.
func plainPattern(p string) (knownAddr, bool) {
	if p == "" || p[0] == '|' || p[0] == '!' || strings.ContainsAny(p, "*?") {
		return knownAddr{}, false
	}
	if p[0] == '[' {
		h, port, err := net.SplitHostPort(p)
		if err != nil {
			return knownAddr{}, false
		}
		return knownAddr{h, port}, true
	}
	if h, port, err := net.SplitHostPort(p); err == nil {
		return knownAddr{h, port}, true
	}
	return knownAddr{p, "22"}, true
}

// keyTypes returns the key types known for addr ("host:port"), nil when
// none or addr does not split.
func (x *knownIndex) keyTypes(addr string) []string {
	h, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil
	}
	return x.types[knownAddr{h, port}]
}

// readAll reads files in order for newKnownIndex; nil when one cannot be
// read (the probe then asks the library, which reports it).
func readAll(files []string) [][]byte {
	out := make([][]byte, len(files))
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil
		}
		out[i] = b
	}
	return out
}
