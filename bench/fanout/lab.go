package benchfanout

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/provadev/prova/internal/testkit/sshdtest"
)

// Instances is how many sshd processes a Lab starts: one sshd has at most
// sshdtest.MaxPorts listening sockets, and every inventory host gets an
// endpoint (address and port) of its own, so that tools which share
// connections by address and port (OpenSSH ControlPath %C, Ansible) open
// one connection per inventory host, as on a real cluster.
const Instances = 13

// MaxHosts is the number of distinct endpoints of a Lab.
const MaxHosts = Instances * sshdtest.MaxPorts

// Endpoint is one address and port an sshd listens on.
type Endpoint struct {
	Addr string
	Port int
}

// HostPort returns "addr:port".
func (e Endpoint) HostPort() string { return net.JoinHostPort(e.Addr, strconv.Itoa(e.Port)) }

// Lab is a set of running sshd instances with a client key and a
// known_hosts file covering every endpoint.
type Lab struct {
	// Endpoints are ordered so that consecutive ones belong to different
	// sshd instances: the first N spread the load evenly.
	Endpoints  []Endpoint
	KeyFile    string // ed25519 client key, OpenSSH format
	KnownHosts string
	User       string
}

// StartLab starts Instances sshd processes of sshdtest.MaxPorts ports each
// on 127.0.0.1. Like sshdtest.Start it skips
// the benchmark when sshd is missing (and fails under CI=true).
func StartLab(tb testing.TB) *Lab {
	tb.Helper()
	c := sshdtest.Start(tb, Instances, sshdtest.Options{Ports: sshdtest.MaxPorts})
	l := &Lab{KeyFile: c.ClientKeyFile, User: c.User}
	var kh strings.Builder
	for p := range sshdtest.MaxPorts {
		for _, in := range c.Instances {
			e := Endpoint{Addr: "127.0.0.1", Port: in.Ports[p]}
			l.Endpoints = append(l.Endpoints, e)
			kh.WriteString(knownhosts.Line([]string{knownhosts.Normalize(e.HostPort())}, in.HostKey.PublicKey()) + "\n")
		}
	}
	l.KnownHosts = filepath.Join(tb.TempDir(), "known_hosts")
	if err := os.WriteFile(l.KnownHosts, []byte(kh.String()), 0o600); err != nil {
		tb.Fatal(err)
	}
	return l
}

// Hosts returns n inventory hosts named h001..., one endpoint each.
func (l *Lab) Hosts(n int) ([]Host, error) {
	if n > len(l.Endpoints) {
		return nil, fmt.Errorf("benchfanout: %d hosts, the lab has %d endpoints", n, len(l.Endpoints))
	}
	hs := make([]Host, n)
	for i := range hs {
		hs[i] = Host{Name: fmt.Sprintf("h%03d", i+1), Endpoint: l.Endpoints[i]}
	}
	return hs, nil
}

// Host is one inventory host of a workload.
type Host struct {
	Name string
	Endpoint
}
