package sshconn

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"net"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"

	"golang.org/x/crypto/ssh"
)

// Pool owns the SSH connections of one run: one connection per host,
// dialled lazily on first use and shared by every step, plus shared jump
// host connections. Close it at the end of the run.
type Pool struct {
	opts      Options
	home      string
	localUser string
	probeKey  ssh.PublicKey

	cfgOnce sync.Once
	cfg     *Config
	cfgErr  error

	mu     sync.Mutex
	conns  map[string]*Conn
	jumps  map[string]*jumpEntry
	warned map[string]bool
	closed bool

	keyMu sync.Mutex
	keys  map[string]*keyEntry
	khMu  sync.Mutex   // known_hosts appends
	known knownCache   // parsed known_hosts files
	prefs hostKeyPrefs // host key algorithm preferences, by known key types
}

// NewPool returns an empty pool; nothing is dialled or read yet.
func NewPool(opts Options) *Pool {
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	if opts.KillGrace <= 0 {
		opts.KillGrace = DefaultKillGrace
	}
	p := &Pool{opts: opts, conns: map[string]*Conn{}, jumps: map[string]*jumpEntry{},
		warned: map[string]bool{}, keys: map[string]*keyEntry{}}
	p.home = opts.Home
	if p.home == "" {
		p.home = opts.getenv("HOME")
	}
	if p.home == "" {
		p.home, _ = os.UserHomeDir()
	}
	p.localUser = opts.getenv("USER")
	if p.localUser == "" {
		if u, err := user.Current(); err == nil {
			p.localUser = u.Username
		}
	}
	// A key no host has, used to ask known_hosts which keys it holds for an
	// address (see hostKeyAlgorithms).
	pub := make(ed25519.PublicKey, ed25519.PublicKeySize)
	p.probeKey, _ = ssh.NewPublicKey(pub)
	return p
}

// config loads the ssh_config once.
func (p *Pool) config() (*Config, error) {
	p.cfgOnce.Do(func() {
		path := p.opts.SSHConfigFile
		switch path {
		case "none":
			return
		case "":
			path = filepath.Join(p.home, ".ssh", "config")
			if _, err := os.Stat(path); err != nil {
				return
			}
		}
		p.cfg, p.cfgErr = LoadConfigWith(path, ConfigOptions{Home: p.home, Lenient: p.opts.SSHConfigLenient})
		if p.cfg != nil {
			for _, w := range p.cfg.Warnings {
				p.warn("", w)
			}
		}
	})
	return p.cfg, p.cfgErr
}

// Resolve merges t with the pool's ssh_config and defaults, as the pool
// will when it dials t.
func (p *Pool) Resolve(t Target) (Target, error) {
	r, err := p.Explain(t)
	return r.Target, err
}

// Explain is Resolve with the source of every setting, for
// `prova inventory --ssh`. Warnings about ssh_config lines go to
// Options.Warn once per line, however many hosts the line applies to.
func (p *Pool) Explain(t Target) (Resolution, error) {
	cfg, err := p.config()
	if err != nil {
		return Resolution{Target: t}, err
	}
	r := Resolve(t, cfg, MatchEnv{Home: p.home, LocalUser: p.localUser})
	for _, w := range r.Warnings {
		p.warn("", w)
	}
	if p.opts.AcceptNew && r.Target.StrictHostKeyChecking == StrictYes {
		r.Target.StrictHostKeyChecking = StrictAcceptNew
		r.Source["stricthostkeychecking"] = "--ssh-accept-new"
	}
	return r, nil
}

func (p *Pool) warn(host, msg string) {
	if p.opts.Warn == nil {
		return
	}
	p.mu.Lock()
	key := host + "\x00" + msg
	dup := p.warned[key]
	p.warned[key] = true
	p.mu.Unlock()
	if !dup {
		p.opts.Warn(host, msg)
	}
}

// Host returns the connection for t, creating it (undialled) on first use.
// Targets with the same Name (or, without a name, the same address and
// port) share one connection.
func (p *Pool) Host(t Target) *Conn {
	key := t.Name
	if key == "" {
		key = hostPort(t.Address, t.Port)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if c := p.conns[key]; c != nil {
		return c
	}
	c := newConn(p, t)
	if p.closed {
		c.dialErr = errPoolClosed
	}
	p.conns[key] = c
	return c
}

var errPoolClosed = errors.New("sshconn: pool is closed")

// Close closes every connection, then the jump hosts.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	conns := make([]*Conn, 0, len(p.conns))
	for _, c := range p.conns {
		conns = append(conns, c)
	}
	jumps := make([]*jumpEntry, 0, len(p.jumps))
	for _, j := range p.jumps {
		jumps = append(jumps, j)
	}
	p.mu.Unlock()
	var errs []error
	for _, c := range conns {
		if err := c.close(); err != nil {
			errs = append(errs, err)
		}
	}
	for _, j := range jumps {
		<-j.ready
		if j.client != nil {
			j.client.Close()
		}
	}
	return errors.Join(errs...)
}

func hostPort(host string, port int) string {
	if port == 0 {
		port = DefaultPort
	}
	return net.JoinHostPort(host, strconv.Itoa(port))
}

func unreachablef(format string, a ...any) error {
	return unreachable(fmt.Errorf(format, a...))
}
