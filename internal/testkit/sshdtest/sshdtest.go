package sshdtest

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/provadev/prova/lab/sshserve"
)

// MaxPorts is the most ports one sshd process listens on.
const MaxPorts = 16

// Options configure the sshd instances of a Cluster.
type Options struct {
	// Ports per instance, 1 (the default) to MaxPorts.
	Ports int
	// HostCA, when set, certifies each host key (principals 127.0.0.1 and
	// localhost) and the instance presents the certificate (HostCertificate).
	HostCA ssh.Signer
	// UserCAKeys are trusted to sign client certificates (TrustedUserCAKeys).
	UserCAKeys []ssh.PublicKey
	// AuthorizedKeys are accepted in addition to the cluster's client key.
	AuthorizedKeys []ssh.PublicKey
	// Extra lines for every sshd_config; they come first, so they override
	// the package's defaults (sshd keeps the first value of a keyword).
	// LogLevel must stay INFO or more verbose: readiness is read from the
	// log.
	Extra string
}

// Instance is one running sshd.
type Instance struct {
	Ports    []int
	HostKey  ssh.Signer // plain host key (the certificate, if any, is HostCert)
	HostCert *ssh.Certificate
	Dir      string // config, keys and log
	cmd      *exec.Cmd
	exited   chan struct{}
	stop     sync.Once
}

// Addr is the instance's first address ("127.0.0.1:port").
func (in *Instance) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(in.Ports[0])) }

// KnownHostsLines returns one known_hosts line per port.
func (in *Instance) KnownHostsLines() []string {
	var out []string
	for _, p := range in.Ports {
		out = append(out, sshserve.KnownHostsLine(net.JoinHostPort("127.0.0.1", strconv.Itoa(p)), in.HostKey.PublicKey()))
	}
	return out
}

// Log returns what sshd wrote to its log so far (for failure messages).
func (in *Instance) Log() string {
	b, _ := os.ReadFile(filepath.Join(in.Dir, "sshd.log"))
	return string(b)
}

// Cluster is a set of running sshd instances sharing one client key.
type Cluster struct {
	Instances     []*Instance
	ClientKeyFile string     // ed25519 private key, OpenSSH format, 0600
	ClientKey     ssh.Signer // the same key
	User          string     // the user the instances accept (the current user)
}

// Port returns the first port of instance i.
func (c *Cluster) Port(i int) int { return c.Instances[i].Ports[0] }

// Addr returns the first address of instance i.
func (c *Cluster) Addr(i int) string { return c.Instances[i].Addr() }

// Addrs returns every listening address of every instance.
func (c *Cluster) Addrs() []string {
	var out []string
	for _, in := range c.Instances {
		for _, p := range in.Ports {
			out = append(out, net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		}
	}
	return out
}

// KnownHostsFile writes a known_hosts file trusting every instance on every
// port and returns its path.
func (c *Cluster) KnownHostsFile(t testing.TB) string {
	t.Helper()
	var b strings.Builder
	for _, in := range c.Instances {
		for _, l := range in.KnownHostsLines() {
			b.WriteString(l + "\n")
		}
	}
	p := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// ClientConfig returns a client config for the cluster's user and key that
// checks host keys against the instances' keys.
func (c *Cluster) ClientConfig() *ssh.ClientConfig {
	keys := map[string]bool{}
	for _, in := range c.Instances {
		keys[string(in.HostKey.PublicKey().Marshal())] = true
	}
	return &ssh.ClientConfig{
		User: c.User,
		Auth: []ssh.AuthMethod{ssh.PublicKeys(c.ClientKey)},
		HostKeyCallback: func(_ string, _ net.Addr, k ssh.PublicKey) error {
			if keys[string(k.Marshal())] {
				return nil
			}
			return fmt.Errorf("sshdtest: unexpected host key %s", ssh.FingerprintSHA256(k))
		},
		Timeout: 10 * time.Second,
	}
}

// Stop kills instance i (SIGKILL) and waits for it; its ports then refuse
// connections. Established connections served by its children survive
// until they end, as with a real sshd.
func (c *Cluster) Stop(i int) { c.Instances[i].kill() }

func (in *Instance) kill() {
	in.stop.Do(func() {
		in.cmd.Process.Kill()
		<-in.exited
	})
}

// Start runs n sshd instances. It skips the test when sshd is missing
// (fails under CI=true).
func Start(t testing.TB, n int, opts Options) *Cluster {
	t.Helper()
	sshd := findSSHD(t)
	if opts.Ports <= 0 {
		opts.Ports = 1
	}
	if opts.Ports > MaxPorts {
		t.Fatalf("sshdtest: %d ports per instance, at most %d", opts.Ports, MaxPorts)
	}
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
		t.Fatalf("sshdtest: privilege separation directory: %v", err)
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{User: u.Username}
	c.ClientKeyFile = filepath.Join(t.TempDir(), "id_ed25519")
	if c.ClientKey, err = sshserve.NewKeyFile(c.ClientKeyFile, sshserve.Ed25519, "sshdtest", nil); err != nil {
		t.Fatal(err)
	}
	auth := append([]ssh.PublicKey{c.ClientKey.PublicKey()}, opts.AuthorizedKeys...)
	c.Instances = make([]*Instance, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		dir := t.TempDir()
		wg.Go(func() {
			c.Instances[i], errs[i] = startInstance(sshd, dir, opts, auth)
		})
	}
	wg.Wait()
	t.Cleanup(func() {
		for _, in := range c.Instances {
			if in != nil {
				in.kill()
			}
		}
	})
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func findSSHD(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("sshd")
	if err != nil {
		if _, e := os.Stat("/usr/sbin/sshd"); e == nil {
			return "/usr/sbin/sshd"
		}
		if os.Getenv("CI") == "true" {
			t.Fatal("sshdtest: sshd not installed (CI=true: install openssh-server)")
		}
		t.Skip("sshdtest: sshd not installed")
	}
	if !filepath.IsAbs(p) {
		p, _ = filepath.Abs(p)
	}
	return p
}

func startInstance(sshd, dir string, opts Options, auth []ssh.PublicKey) (*Instance, error) {
	in := &Instance{Dir: dir}
	hostKey := filepath.Join(dir, "ssh_host_ed25519_key")
	var err error
	if in.HostKey, err = sshserve.NewKeyFile(hostKey, sshserve.Ed25519, "sshdtest", nil); err != nil {
		return nil, err
	}
	var ak bytes.Buffer
	for _, a := range auth {
		ak.Write(ssh.MarshalAuthorizedKey(a))
	}
	if err := os.WriteFile(filepath.Join(dir, "authorized_keys"), ak.Bytes(), 0o600); err != nil {
		return nil, err
	}
	var extra strings.Builder
	if opts.HostCA != nil {
		cert := &ssh.Certificate{
			Key: in.HostKey.PublicKey(), CertType: ssh.HostCert, KeyId: "sshdtest",
			ValidPrincipals: []string{"127.0.0.1", "localhost"}, ValidBefore: ssh.CertTimeInfinity,
		}
		if err := cert.SignCert(rand.Reader, opts.HostCA); err != nil {
			return nil, fmt.Errorf("sshdtest: sign host key: %w", err)
		}
		in.HostCert = cert
		if err := os.WriteFile(hostKey+"-cert.pub", ssh.MarshalAuthorizedKey(cert), 0o644); err != nil {
			return nil, err
		}
		fmt.Fprintf(&extra, "HostCertificate %s\n", hostKey+"-cert.pub")
	}
	if len(opts.UserCAKeys) > 0 {
		var b bytes.Buffer
		for _, ca := range opts.UserCAKeys {
			b.Write(ssh.MarshalAuthorizedKey(ca))
		}
		p := filepath.Join(dir, "user_ca.pub")
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			return nil, err
		}
		fmt.Fprintf(&extra, "TrustedUserCAKeys %s\n", p)
	}
	if penalties(sshd) {
		// OpenSSH 9.8+ penalises sources whose connections fail auth; tests
		// refuse keys on purpose, all from 127.0.0.1.
		extra.WriteString("PerSourcePenalties no\n")
	}
	extra.WriteString(opts.Extra)
	var lastErr error
	for range 3 { // a chosen port may be taken by someone else meanwhile
		ports, err := freePorts(opts.Ports)
		if err != nil {
			return nil, err
		}
		in.Ports = ports
		if err := writeConfig(dir, hostKey, ports, extra.String()); err != nil {
			return nil, err
		}
		if lastErr = in.run(sshd); lastErr == nil {
			return in, nil
		}
	}
	return nil, lastErr
}
