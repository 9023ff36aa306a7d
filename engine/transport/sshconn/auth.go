package sshconn

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// keyEntry caches one identity file for the whole pool, so a passphrase is
// asked once however many hosts use the key.
type keyEntry struct {
	once    sync.Once
	signers []ssh.Signer // certificate first, then the plain key
	err     error
}

func (p *Pool) loadKey(file string) ([]ssh.Signer, error) {
	p.keyMu.Lock()
	e := p.keys[file]
	if e == nil {
		e = &keyEntry{}
		p.keys[file] = e
	}
	p.keyMu.Unlock()
	e.once.Do(func() { e.signers, e.err = p.readKey(file) })
	return e.signers, e.err
}

func (p *Pool) readKey(file string) ([]ssh.Signer, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	s, err := ssh.ParsePrivateKey(data)
	var missing *ssh.PassphraseMissingError
	if errors.As(err, &missing) {
		if p.opts.Passphrase == nil {
			return nil, fmt.Errorf("key %s is encrypted and no passphrase source is set (load it into ssh-agent or give a passphrase)", file)
		}
		pass, perr := p.opts.Passphrase(file)
		if perr != nil {
			return nil, fmt.Errorf("passphrase for %s: %w", file, perr)
		}
		s, err = ssh.ParsePrivateKeyWithPassphrase(data, pass)
		clear(pass)
		if err != nil {
			return nil, fmt.Errorf("key %s: wrong passphrase or unreadable key: %w", file, err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("key %s: %w", file, err)
	}
	if cert := readCert(file + "-cert.pub"); cert != nil {
		if cs, err := ssh.NewCertSigner(cert, s); err == nil {
			return []ssh.Signer{cs, s}, nil
		}
	}
	return []ssh.Signer{s}, nil
}

func readCert(path string) *ssh.Certificate {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	k, _, _, _, err := ssh.ParseAuthorizedKey(data)
	if err != nil {
		return nil
	}
	c, _ := k.(*ssh.Certificate)
	return c
}

func readPub(path string) ssh.PublicKey {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	k, _, _, _, err := ssh.ParseAuthorizedKey(data)
	if err != nil {
		return nil
	}
	return k
}

// auth holds what one dial authenticates with.
type auth struct {
	signers []ssh.Signer
	notes   []string // keys that could not be used, for the error message
	closer  func()
}

// authFor gathers signers for t: agent keys (all, or with IdentitiesOnly
// only those matching an identity file), then identity files with their
// certificates. A file whose public half (.pub) is already in the agent is
// not read, so its passphrase is not asked.
func (p *Pool) authFor(t Target) auth {
	var a auth
	a.closer = func() {}
	files := t.IdentityFiles
	explicit := len(files) > 0
	if !explicit {
		for _, n := range []string{"id_ed25519", "id_ecdsa", "id_rsa"} {
			files = append(files, filepath.Join(p.home, ".ssh", n))
		}
	}
	inAgent := map[string]bool{}
	if p.opts.Agent && !t.NoAgent {
		sock := p.opts.getenv("SSH_AUTH_SOCK")
		if t.IdentityAgent != "" {
			sock = t.IdentityAgent // IdentityAgent in ssh_config
		}
		if sock != "" {
			conn, err := net.Dial("unix", sock)
			if err != nil {
				a.notes = append(a.notes, fmt.Sprintf("ssh-agent at %s: %v", sock, err))
			} else {
				a.closer = func() { conn.Close() }
				signers, err := agent.NewClient(conn).Signers()
				if err != nil {
					a.notes = append(a.notes, fmt.Sprintf("ssh-agent: %v", err))
				}
				wanted := map[string]bool{}
				for _, f := range files {
					if k := readPub(f + ".pub"); k != nil {
						wanted[string(k.Marshal())] = true
					}
				}
				for _, s := range signers {
					blob := string(s.PublicKey().Marshal())
					if t.IdentitiesOnly && !wanted[blob] {
						continue
					}
					inAgent[blob] = true
					a.signers = append(a.signers, s)
				}
			}
		} else {
			a.notes = append(a.notes, "ssh-agent: SSH_AUTH_SOCK is not set")
		}
	}
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			if explicit {
				a.notes = append(a.notes, fmt.Sprintf("identity file %s: %v", f, err))
			}
			continue
		}
		// Only an agent's keys can make the file's unneeded: without
		// them its .pub is not read (a file read and a key parsed per
		// connection, for nothing).
		if len(inAgent) > 0 {
			if k := readPub(f + ".pub"); k != nil && inAgent[string(k.Marshal())] {
				continue
			}
		}
		ss, err := p.loadKey(f)
		if err != nil {
			a.notes = append(a.notes, err.Error())
			continue
		}
		a.signers = append(a.signers, ss...)
	}
	return a
}

// authError explains a failed authentication with what was tried.
func authError(t Target, err error, a auth) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "authenticate as %s on %s: %v", t.User, t.display(), err)
	if len(a.signers) == 0 {
		b.WriteString("; no usable key (none in ssh-agent, no readable identity file)")
	} else {
		fmt.Fprintf(&b, "; offered %d key(s)", len(a.signers))
	}
	if len(a.notes) > 0 {
		b.WriteString("; " + strings.Join(a.notes, "; "))
	}
	return errors.New(b.String())
}
