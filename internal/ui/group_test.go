package ui

import (
	"io"
	"strings"
	"testing"

	"github.com/provadev/prova/engine/event"
)

// groupKeyString is the group key as the console made it before it was
// appended to a buffer of its own (a string per host-step): the reference
// that appendGroupKey must match, so that hosts group exactly as before.
func (c *Console) groupKeyString(en hostEntry) string {
	var b strings.Builder
	b.WriteString(string(en.status))
	for _, part := range [][]string{en.msg, en.checks, en.tail, {en.diags}} {
		b.WriteString("\x01")
		for _, l := range part {
			b.WriteString(c.generic(en.host, l, true))
			b.WriteString("\x02")
		}
	}
	return b.String()
}

func groupConsole() *Console {
	c := NewConsole(io.Discard, Options{Color: "never"})
	c.Observe(event.RunStarted{Mode: "apply", Hosts: []string{"n1", "n2", "n3", "n4", "gpfs01.x"}})
	return c
}

func groupEntries() []hostEntry {
	return []hostEntry{
		{host: "n1", status: event.OK},
		{host: "n2", status: event.Changed},
		{host: "n1", status: event.Failed, msg: []string{"n1 cannot reach n3, n4"}},
		{host: "n2", status: event.Failed, msg: []string{"n2 cannot reach n3, n4"}},
		{host: "n3", status: event.Failed, msg: []string{"n3 cannot reach n1,n2"}, checks: []string{"peers 2 < 4"}},
		{host: "n4", status: event.Warned, msg: []string{"", "a\x01b"}, tail: []string{"err n4", ""}, diags: "Error: x\n  on rb.hcl line 3"},
		{host: "gpfs01.x", status: event.Failed, checks: []string{"a"}},
		{host: "gpfs01.x", status: event.Failed, tail: []string{"a"}},
		{host: "gpfs01.x", status: event.Failed, diags: "a"},
		{host: "gpfs01.x", status: event.Failed, msg: []string{"a"}},
		{host: "n1", status: event.Skipped, msg: []string{"when is false"}},
	}
}

// The key in its buffer is the string key of before, byte for byte, for
// entries of every part, with host names to make generic.
func TestAppendGroupKeyIsTheStringKey(t *testing.T) {
	c := groupConsole()
	var b []byte
	seen := map[string]int{}
	for i, en := range groupEntries() {
		b = c.appendGroupKey(b[:0], en)
		if want := c.groupKeyString(en); string(b) != want {
			t.Errorf("entry %d: key %q, want %q", i, b, want)
		}
		seen[string(b)]++
	}
	// n1 and n2 share their generic message; the same text in
	// different parts does not make one group.
	if len(seen) != len(groupEntries())-1 {
		t.Errorf("%d distinct keys of %d entries: %v", len(seen), len(groupEntries()), seen)
	}
}

func FuzzAppendGroupKey(f *testing.F) {
	f.Add("n1", "n1 cannot reach n2, n3", "peers", "")
	f.Add("n3", "all of n1,n2,n4", "", "\x01\x02")
	f.Fuzz(func(t *testing.T, host, msg, check, diags string) {
		c := groupConsole()
		en := hostEntry{host: host, status: event.Failed, msg: strings.Split(msg, "\n"), checks: []string{check}, diags: diags}
		if got, want := string(c.appendGroupKey([]byte("old"), en)), "old"+c.groupKeyString(en); got != want {
			t.Errorf("key %q, want %q", got, want)
		}
	})
}

// A step's hosts are grouped by their keys: the same lines whatever the
// buffer held before.
func TestFlushGroupsWithAKeptBuffer(t *testing.T) {
	var out [2]strings.Builder
	for i := range out {
		c := NewConsole(&out[i], Options{Color: "never"})
		if i == 1 {
			c.keyBuf = []byte("ok\x01\x01\x01\x01\x02 left from before")
		}
		hosts := []string{"n1", "n2", "n3", "n4"}
		c.Observe(event.RunStarted{Mode: "apply", Hosts: hosts, Steps: []string{"shell.s"}})
		c.Observe(event.StepStarted{Step: "shell.s", Hosts: hosts})
		for j, h := range hosts {
			e := event.HostFinished{Step: "shell.s", Host: h, Status: event.OK}
			if j%2 == 1 {
				e.Status, e.Message = event.Failed, h+" cannot reach n1"
			}
			c.Observe(e)
		}
		c.Observe(event.StepFinished{Step: "shell.s"})
	}
	if out[0].String() != out[1].String() {
		t.Errorf("with a buffer left from before:\n%s\nwithout:\n%s", out[1].String(), out[0].String())
	}
	if !strings.Contains(out[0].String(), "n2, n4") && !strings.Contains(out[0].String(), "n[2,4]") {
		t.Errorf("n2 and n4 not one group:\n%s", out[0].String())
	}
}
