package sshconn

import (
	"fmt"
	"os"
	"strings"
	"sync"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// knownCache keeps parsed known_hosts files, so that a run over hundreds
// of hosts reads each file once rather than twice per connection. An entry
// is reused while every file has the size and modification time it had
// when read; an accept-new append changes both, and the next lookup reads
// the files again.
type knownCache struct {
	mu      sync.Mutex
	entries map[string]knownEntry
}

type knownEntry struct {
	stamp string
	cb    ssh.HostKeyCallback
}

// callback returns the known_hosts callback for files (all existing).
func (c *knownCache) callback(files []string) (ssh.HostKeyCallback, error) {
	key := strings.Join(files, "\x00")
	var stamp strings.Builder
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&stamp, "%d:%d;", st.Size(), st.ModTime().UnixNano())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok && e.stamp == stamp.String() {
		return e.cb, nil
	}
	cb, err := knownhosts.New(files...)
	if err != nil {
		return nil, err
	}
	if c.entries == nil {
		c.entries = map[string]knownEntry{}
	}
	c.entries[key] = knownEntry{stamp: stamp.String(), cb: cb}
	return cb, nil
}
