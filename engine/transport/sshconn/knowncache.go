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
	// authorities holds, per file, the line numbers of its
	// @cert-authority entries, under the same rule.
	authorities map[string]authorityLines
}

type authorityLines struct {
	stamp string
	lines map[int]bool
}

// isAuthority reports whether line (from 1) of a known_hosts file is a
// @cert-authority entry; an unreadable file has none.
func (c *knownCache) isAuthority(file string, line int) bool {
	st, err := os.Stat(file)
	if err != nil {
		return false
	}
	stamp := fmt.Sprintf("%d:%d", st.Size(), st.ModTime().UnixNano())
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.authorities[file]
	if !ok || e.stamp != stamp {
		e = authorityLines{stamp: stamp, lines: map[int]bool{}}
		data, _ := os.ReadFile(file)
		for i, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "@cert-authority") {
				e.lines[i+1] = true
			}
		}
		if c.authorities == nil {
			c.authorities = map[string]authorityLines{}
		}
		c.authorities[file] = e
	}
	return e.lines[line]
}

type knownEntry struct {
	stamp string
	cb    ssh.HostKeyCallback
	idx   *knownIndex // nil unless every entry is plain (knownIndex)
}

// callback returns the known_hosts callback for files (all existing).
func (c *knownCache) callback(files []string) (ssh.HostKeyCallback, error) {
	e, err := c.entry(files)
	return e.cb, err
}

// entry returns files' callback and index of plain entries (nil when the
// files have other entries), reading the files again when one has
// changed.
func (c *knownCache) entry(files []string) (knownEntry, error) {
	key := strings.Join(files, "\x00")
	var stamp strings.Builder
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			return knownEntry{}, err
		}
		fmt.Fprintf(&stamp, "%d:%d;", st.Size(), st.ModTime().UnixNano())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok && e.stamp == stamp.String() {
		return e, nil
	}
	cb, err := knownhosts.New(files...)
	if err != nil {
		return knownEntry{}, err
	}
	e := knownEntry{stamp: stamp.String(), cb: cb}
	if contents := readAll(files); contents != nil {
		e.idx = newKnownIndex(contents)
	}
	if c.entries == nil {
		c.entries = map[string]knownEntry{}
	}
	c.entries[key] = e
	return e, nil
}
