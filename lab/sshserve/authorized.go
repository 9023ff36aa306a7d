package sshserve

import (
	"fmt"
	"sync"

	"golang.org/x/crypto/ssh"
)

// AuthorizedKeys is the set of public keys a server accepts, safe for
// concurrent use; keys may be added while the server runs. The zero value
// accepts nothing.
type AuthorizedKeys struct {
	mu   sync.Mutex
	keys map[string]bool
}

// Add accepts clients that authenticate with key.
func (a *AuthorizedKeys) Add(key ssh.PublicKey) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.keys == nil {
		a.keys = map[string]bool{}
	}
	a.keys[string(key.Marshal())] = true
}

// Check is an ssh.ServerConfig PublicKeyCallback: it accepts the keys
// added and refuses every other.
func (a *AuthorizedKeys) Check(c ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.keys[string(key.Marshal())] {
		return &ssh.Permissions{}, nil
	}
	return nil, fmt.Errorf("unknown public key for %q", c.User())
}

// Config returns a server configuration that presents hostKey and accepts
// only public-key authentication with the keys of a. version, when not
// empty, is the identification string sent to clients ("SSH-2.0-...").
func Config(hostKey ssh.Signer, a *AuthorizedKeys, version string) *ssh.ServerConfig {
	cfg := &ssh.ServerConfig{PublicKeyCallback: a.Check, ServerVersion: version}
	cfg.AddHostKey(hostKey)
	return cfg
}
