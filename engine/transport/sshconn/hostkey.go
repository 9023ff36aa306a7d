package sshconn

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// UnknownHostKeyError: the host is not in known_hosts and checking is
// strict.
type UnknownHostKeyError struct {
	Host        string // target as shown to the user
	Address     string // host:port as looked up in known_hosts
	KeyType     string
	Fingerprint string // SHA256:...
	Files       []string
}

func (e *UnknownHostKeyError) Error() string {
	return fmt.Sprintf("host key verification failed for %s: %s is not in known_hosts (%s); the server offered %s key %s. "+
		"Check the fingerprint with the host's administrator, then rerun with --ssh-accept-new to record it",
		e.Host, knownhosts.Normalize(e.Address), strings.Join(e.Files, ", "), keyTypeName(e.KeyType), e.Fingerprint)
}

// HostKeyChangedError: known_hosts holds a different key for the host.
// The message is OpenSSH's warning.
type HostKeyChangedError struct {
	Host        string
	Address     string
	KeyType     string
	Fingerprint string
	Offending   []knownhosts.KnownKey
}

func (e *HostKeyChangedError) Error() string {
	var b strings.Builder
	b.WriteString("host key verification failed for " + e.Host + ":\n")
	b.WriteString("@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n")
	b.WriteString("@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n")
	b.WriteString("@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n")
	b.WriteString("IT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!\n")
	b.WriteString("Someone could be eavesdropping on you right now (man-in-the-middle attack)!\n")
	b.WriteString("It is also possible that a host key has just been changed.\n")
	fmt.Fprintf(&b, "The fingerprint for the %s key sent by the remote host is\n%s.\n", keyTypeName(e.KeyType), e.Fingerprint)
	b.WriteString("Please contact your system administrator.\n")
	for _, k := range e.Offending {
		fmt.Fprintf(&b, "Offending %s key in %s:%d\n", keyTypeName(k.Key.Type()), k.Filename, k.Line)
	}
	fmt.Fprintf(&b, "Host key for %s has changed and you have requested strict checking.\n", knownhosts.Normalize(e.Address))
	b.WriteString("Host key verification failed.")
	return b.String()
}

func keyTypeName(t string) string {
	switch {
	case strings.Contains(t, "ed25519"):
		return "ED25519"
	case strings.HasPrefix(t, "ecdsa"):
		return "ECDSA"
	case strings.Contains(t, "rsa"):
		return "RSA"
	}
	return strings.ToUpper(t)
}

// fakeAddr lets us query known_hosts without a connection.
type fakeAddr string

func (a fakeAddr) Network() string { return "tcp" }
func (a fakeAddr) String() string  { return string(a) }

func existing(files []string) []string {
	var out []string
	for _, f := range files {
		if _, err := os.Stat(f); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// hostKeyAlgorithms lists the algorithms of the keys known for addr first
// (as OpenSSH does), so a host with several keys presents the one we know.
// nil means the library default (certificates first).
func (p *Pool) hostKeyAlgorithms(t Target, addr string) []string {
	files := existing(t.KnownHostsFiles)
	if len(files) == 0 || t.StrictHostKeyChecking == StrictNo {
		return nil
	}
	e, err := p.known.entry(files)
	if err != nil {
		return nil
	}
	if e.idx != nil {
		// Plain files: the index answers without matching every line.
		return p.prefs.get(e.idx.keyTypes(addr))
	}
	var ke *knownhosts.KeyError
	if !errors.As(e.cb(addr, fakeAddr(addr), p.probeKey), &ke) || len(ke.Want) == 0 {
		return nil
	}
	plain := p.plainKeys(ke.Want)
	if len(plain) < len(ke.Want) {
		return nil // an authority is known for the host: certificates first
	}
	types := make([]string, 0, len(plain))
	for _, k := range plain {
		types = append(types, k.Key.Type())
	}
	return p.prefs.get(types)
}

// hostKeyPrefs hands out the host key algorithm preference for a list of
// known key types, made once per distinct list: the hosts of a cluster
// mostly know the same types, and each connection's config keeps its
// list for the connection's life. The lists are shared and clipped (an
// append copies); nobody writes to them.
type hostKeyPrefs struct {
	mu sync.Mutex
	m  map[string][]string
}

// get returns the preference for types: the algorithms of those keys
// first, in order (an RSA key's as its SHA-2 signatures), then the
// library's others in its order; nil for no types (the library default,
// certificates first).
func (h *hostKeyPrefs) get(types []string) []string {
	if len(types) == 0 {
		return nil
	}
	key := strings.Join(types, ",")
	h.mu.Lock()
	defer h.mu.Unlock()
	if pref, ok := h.m[key]; ok {
		return pref
	}
	var pref []string
	for _, t := range types {
		switch t {
		case ssh.KeyAlgoRSA:
			pref = append(pref, ssh.KeyAlgoRSASHA512, ssh.KeyAlgoRSASHA256)
		default:
			pref = append(pref, t)
		}
	}
	for _, a := range ssh.SupportedAlgorithms().HostKeys {
		if !slices.Contains(pref, a) {
			pref = append(pref, a)
		}
	}
	pref = slices.Clip(pref)
	if h.m == nil {
		h.m = map[string][]string{}
	}
	h.m[key] = pref
	return pref
}

// hostKeyCallback checks host keys of t against known_hosts with t's
// policy. addr is what the key is recorded under (host:port).
func (p *Pool) hostKeyCallback(t Target) ssh.HostKeyCallback {
	return func(addr string, remote net.Addr, key ssh.PublicKey) error {
		fp := ssh.FingerprintSHA256(key)
		if t.StrictHostKeyChecking == StrictNo {
			p.warn(t.display(), fmt.Sprintf("StrictHostKeyChecking=no: host key %s %s not verified", keyTypeName(key.Type()), fp))
			return nil
		}
		err := p.checkKnown(t, addr, remote, key)
		var unknown *UnknownHostKeyError
		if !errors.As(err, &unknown) || t.StrictHostKeyChecking != StrictAcceptNew {
			return err
		}
		return p.acceptNew(t, addr, remote, key)
	}
}

func (p *Pool) checkKnown(t Target, addr string, remote net.Addr, key ssh.PublicKey) error {
	files := existing(t.KnownHostsFiles)
	unknown := &UnknownHostKeyError{Host: t.display(), Address: addr, KeyType: key.Type(),
		Fingerprint: ssh.FingerprintSHA256(key), Files: t.KnownHostsFiles}
	if len(files) == 0 {
		return unknown
	}
	cb, err := p.known.callback(files)
	if err != nil {
		return fmt.Errorf("read known_hosts: %w", err)
	}
	err = cb(addr, remote, key)
	if cert, ok := key.(*ssh.Certificate); ok && err != nil {
		// no trusted authority for the certificate: judge the plain key,
		// as OpenSSH does.
		key = cert.Key
		unknown.KeyType, unknown.Fingerprint = key.Type(), ssh.FingerprintSHA256(key)
		err = cb(addr, remote, key)
	}
	var ke *knownhosts.KeyError
	var re *knownhosts.RevokedError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ke) && len(p.plainKeys(ke.Want)) > 0:
		return &HostKeyChangedError{Host: t.display(), Address: addr, KeyType: key.Type(),
			Fingerprint: ssh.FingerprintSHA256(key), Offending: p.plainKeys(ke.Want)}
	case errors.As(err, &ke):
		return unknown
	case errors.As(err, &re):
		return fmt.Errorf("host key for %s is marked @revoked in %s:%d", t.display(), re.Revoked.Filename, re.Revoked.Line)
	}
	return fmt.Errorf("host key of %s: %w", t.display(), err)
}

// acceptNew records key for addr in the first known_hosts file, once,
// under a lock held across the pool and (with flock) across processes.
func (p *Pool) acceptNew(t Target, addr string, remote net.Addr, key ssh.PublicKey) error {
	if len(t.KnownHostsFiles) == 0 {
		return fmt.Errorf("accept-new for %s: no known_hosts file configured", t.display())
	}
	file := t.KnownHostsFiles[0]
	p.khMu.Lock()
	defer p.khMu.Unlock()
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return fmt.Errorf("accept-new for %s: %w", t.display(), err)
	}
	f, err := os.OpenFile(file, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("accept-new for %s: %w", t.display(), err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("accept-new for %s: lock %s: %w", t.display(), file, err)
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	// Another connection may have recorded it meanwhile: check again.
	err = p.checkKnown(t, addr, remote, key)
	var unknown *UnknownHostKeyError
	if !errors.As(err, &unknown) {
		return err
	}
	if cert, ok := key.(*ssh.Certificate); ok {
		key = cert.Key
	}
	line := knownhosts.Line([]string{knownhosts.Normalize(addr)}, key) + "\n"
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, st.Size()-1); err == nil && last[0] != '\n' {
			line = "\n" + line
		}
	}
	if _, err := f.WriteString(line); err != nil {
		return fmt.Errorf("accept-new for %s: write %s: %w", t.display(), file, err)
	}
	p.warn(t.display(), fmt.Sprintf("permanently added %s (%s %s) to %s",
		knownhosts.Normalize(addr), keyTypeName(key.Type()), ssh.FingerprintSHA256(key), file))
	return nil
}

// plainKeys drops @cert-authority entries, which knownhosts reports among
// the keys it wanted although they are not host keys.
func (p *Pool) plainKeys(keys []knownhosts.KnownKey) []knownhosts.KnownKey {
	var out []knownhosts.KnownKey
	for _, k := range keys {
		if !p.known.isAuthority(k.Filename, k.Line) {
			out = append(out, k)
		}
	}
	return out
}
