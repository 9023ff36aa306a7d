package sshconn

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"golang.org/x/crypto/ssh"
)

// jumpEntry is a shared connection to a jump host (a chain prefix).
type jumpEntry struct {
	ready  chan struct{} // closed when client/err are set
	client *ssh.Client
	err    error
}

// parseJump splits "user@host:port,host2" into hop targets.
func parseJump(spec string) ([]Target, error) {
	var hops []Target
	for _, h := range strings.Split(spec, ",") {
		h = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(h), "ssh://"))
		if h == "" {
			return nil, fmt.Errorf("ProxyJump %q: empty hop", spec)
		}
		var t Target
		if i := strings.LastIndexByte(h, '@'); i >= 0 {
			t.User, h = h[:i], h[i+1:]
		}
		host, port, err := net.SplitHostPort(h)
		if err != nil { // no port
			host, port = strings.Trim(h, "[]"), ""
		}
		if port != "" {
			n, err := strconv.Atoi(port)
			if err != nil || n <= 0 || n > 65535 {
				return nil, fmt.Errorf("ProxyJump %q: bad port %q", spec, port)
			}
			t.Port = n
		}
		t.Address = host
		hops = append(hops, t)
	}
	return hops, nil
}

// dial connects to t, through its jump hosts if any. The endWatch is the
// client's own connection (to t, not to a jump host).
func (p *Pool) dial(ctx context.Context, t Target) (*ssh.Client, *endWatch, error) {
	var via *ssh.Client
	if t.ProxyJump != "" {
		hops, err := parseJump(t.ProxyJump)
		if err != nil {
			return nil, nil, unreachablef("%s: %w", t.display(), err)
		}
		chain := ""
		for _, hop := range hops {
			// each hop is itself resolved through ssh_config; a hop's own
			// ProxyJump is ignored (the chain is explicit).
			r, err := p.resolveHop(hop, t)
			if err != nil {
				return nil, nil, unreachable(err)
			}
			chain += ">" + r.User + "@" + hostPort(r.Address, r.Port)
			if via, err = p.jump(ctx, chain, r, via); err != nil {
				return nil, nil, unreachablef("jump host %s for %s: %w", r.display(), t.display(), err)
			}
		}
	}
	return p.dialVia(ctx, t, via)
}

// resolveHop resolves a jump host through ssh_config. What ssh_config
// does not say about the hop (identity files, known_hosts files, checking
// policy, timeouts) is taken from the target it leads to, so inventory
// settings apply to the whole path. A hop's own ProxyJump is ignored: the
// chain is explicit.
func (p *Pool) resolveHop(hop, t Target) (Target, error) {
	e, err := p.Explain(hop)
	if err != nil {
		return e.Target, err
	}
	r := e.Target
	from := func(field string) bool { return e.Source[field] == "default" }
	if from("identityfile") {
		r.IdentityFiles, r.IdentitiesOnly = t.IdentityFiles, t.IdentitiesOnly
	}
	if from("userknownhostsfile") {
		r.KnownHostsFiles = t.KnownHostsFiles
	}
	if from("stricthostkeychecking") {
		r.StrictHostKeyChecking = t.StrictHostKeyChecking
	}
	if from("connecttimeout") {
		r.ConnectTimeout = t.ConnectTimeout
	}
	r.ProxyJump = ""
	return r, nil
}

// jump returns the shared connection for a chain prefix, dialling it once.
func (p *Pool) jump(ctx context.Context, chain string, hop Target, via *ssh.Client) (*ssh.Client, error) {
	p.mu.Lock()
	j := p.jumps[chain]
	owner := j == nil
	if owner {
		j = &jumpEntry{ready: make(chan struct{})}
		p.jumps[chain] = j
	}
	p.mu.Unlock()
	if owner {
		j.client, _, j.err = p.dialVia(ctx, hop, via)
		if j.err != nil && ctx.Err() != nil {
			p.mu.Lock()
			delete(p.jumps, chain) // cancelled, not failed: let another caller retry
			p.mu.Unlock()
		}
		close(j.ready)
	}
	select {
	case <-j.ready:
		return j.client, j.err
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// dialVia opens the TCP connection (directly or through via) and runs the
// SSH handshake, all within t.ConnectTimeout. The client runs over the
// returned endWatch.
func (p *Pool) dialVia(ctx context.Context, t Target, via *ssh.Client) (*ssh.Client, *endWatch, error) {
	addr := hostPort(t.Address, t.Port)
	ctx, cancel := context.WithTimeout(ctx, t.ConnectTimeout)
	defer cancel()
	var (
		nc  net.Conn
		err error
	)
	switch {
	case t.ProxyCommand != "" && via != nil:
		return nil, nil, unreachablef("%s: a ProxyCommand on a jump host after the first is not supported", t.display())
	case t.ProxyCommand != "":
		nc, err = dialProxyCommand(ctx, t, p.opts.Env)
	case via == nil:
		var d net.Dialer
		nc, err = d.DialContext(ctx, "tcp", addr)
	default:
		nc, err = via.DialContext(ctx, "tcp", addr)
	}
	if err != nil {
		return nil, nil, unreachablef("connect to %s: %w", t.display(), err)
	}
	ew := watchEnd(nc)
	nc = ew
	a := p.authFor(t)
	defer a.closer()
	var hostKeyErr error
	check := p.hostKeyCallback(t)
	cfg := &ssh.ClientConfig{
		User: t.User,
		Auth: []ssh.AuthMethod{ssh.PublicKeys(a.signers...)},
		HostKeyCallback: func(h string, r net.Addr, k ssh.PublicKey) error {
			hostKeyErr = check(h, r, k)
			return hostKeyErr
		},
		HostKeyAlgorithms: p.hostKeyAlgorithms(t, addr),
	}
	type result struct {
		c   *ssh.Client
		err error
	}
	done := make(chan result, 1)
	go func() {
		sc, chans, reqs, err := ssh.NewClientConn(nc, addr, cfg)
		if err != nil {
			done <- result{err: err}
			return
		}
		done <- result{c: ssh.NewClient(sc, chans, reqs)}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		nc.Close()
		<-done
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, nil, unreachablef("connect to %s: SSH handshake timed out after %s", t.display(), t.ConnectTimeout)
		}
		return nil, nil, context.Cause(ctx)
	}
	if r.err != nil {
		nc.Close()
		switch {
		case hostKeyErr != nil:
			return nil, nil, unreachable(hostKeyErr)
		case strings.Contains(r.err.Error(), "unable to authenticate"):
			return nil, nil, unreachable(authError(t, r.err, a))
		}
		return nil, nil, unreachablef("connect to %s: %w", t.display(), r.err)
	}
	return r.c, ew, nil
}
