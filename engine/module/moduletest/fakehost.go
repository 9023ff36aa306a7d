package moduletest

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"regexp"
	"sync"

	"github.com/provadev/prova/engine/module"
)

// Reply is what a scripted command prints and returns. A non-nil Err is
// returned from Run as is (the command could not be run).
type Reply struct {
	Stdout string
	Stderr string
	RC     int
	Err    error
}

// Handler computes the reply to a command from the command line and what
// was written to its stdin. It runs without the host's lock held, so it may
// call SetFile, RemoveFile and File to model state changes.
type Handler func(cmd string, stdin []byte) Reply

// File is one file in the fake host's file map.
type File struct {
	Data []byte
	Mode fs.FileMode
}

type handler struct {
	re *regexp.Regexp
	fn Handler
}

// FakeHost is a module.Host for tests. Commands are answered by the most
// recently registered handler whose pattern matches; an unmatched command
// returns rc 127 and "command not found". Every Run, Put and Get is recorded
// in order. It is safe for concurrent use.
type FakeHost struct {
	name string

	mu          sync.Mutex
	handlers    []handler
	hangs       []*regexp.Regexp
	hangCh      chan string
	commands    []string
	files       map[string]File
	unreachable bool
}

// NewFakeHost returns a reachable host with no handlers and no files.
func NewFakeHost(name string) *FakeHost {
	return &FakeHost{name: name, files: map[string]File{}, hangCh: make(chan string, 64)}
}

// Name returns the host name given to NewFakeHost.
func (h *FakeHost) Name() string { return h.name }

// Handle registers fn for commands matching the regular expression pattern.
// Later registrations take precedence. A bad pattern panics: it is a bug in
// the test.
func (h *FakeHost) Handle(pattern string, fn Handler) {
	re := regexp.MustCompile(pattern)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.handlers = append(h.handlers, handler{re: re, fn: fn})
}

// Reply registers a fixed reply for commands matching pattern.
func (h *FakeHost) Reply(pattern string, r Reply) {
	h.Handle(pattern, func(string, []byte) Reply { return r })
}

// Hang makes commands matching pattern block until their context ends; they
// then fail with the context's error. The returned channel receives each
// hanging command as it starts, so a test can cancel at the right moment.
func (h *FakeHost) Hang(pattern string) <-chan string {
	re := regexp.MustCompile(pattern)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.hangs = append(h.hangs, re)
	return h.hangCh
}

// Unreachable makes every later Run, Put and Get fail with a
// *module.UnreachableError, as a lost connection would.
func (h *FakeHost) Unreachable() { h.setUnreachable(true) }

// Reachable undoes Unreachable.
func (h *FakeHost) Reachable() { h.setUnreachable(false) }

func (h *FakeHost) setUnreachable(v bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.unreachable = v
}

// Commands returns the transcript: every command run, and "put PATH MODE" /
// "get PATH" for transfers, in order.
func (h *FakeHost) Commands() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.commands...)
}

// ResetCommands empties the transcript.
func (h *FakeHost) ResetCommands() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.commands = nil
}

// Files returns a copy of the file map.
func (h *FakeHost) Files() map[string]File {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make(map[string]File, len(h.files))
	for p, f := range maps.All(h.files) {
		out[p] = File{Data: append([]byte(nil), f.Data...), Mode: f.Mode}
	}
	return out
}

// File returns the file at path.
func (h *FakeHost) File(path string) (File, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f, ok := h.files[path]
	if !ok {
		return File{}, false
	}
	return File{Data: append([]byte(nil), f.Data...), Mode: f.Mode}, true
}

// modeBits are the parts of a FileMode the file map keeps: permissions and
// the setuid, setgid and sticky bits.
const modeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// Octal returns mode as the octal number chmod and stat -c %a use,
// special bits included (0o4755 for setuid rwxr-xr-x).
func Octal(mode fs.FileMode) uint32 {
	m := uint32(mode.Perm())
	for bit, o := range map[fs.FileMode]uint32{fs.ModeSetuid: 0o4000, fs.ModeSetgid: 0o2000, fs.ModeSticky: 0o1000} {
		if mode&bit != 0 {
			m |= o
		}
	}
	return m
}

// SetFile creates or replaces the file at path. Only permission and special
// bits of mode are kept.
func (h *FakeHost) SetFile(path string, data []byte, mode fs.FileMode) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.files[path] = File{Data: append([]byte(nil), data...), Mode: mode & modeBits}
}

// RemoveFile deletes the file at path, if any.
func (h *FakeHost) RemoveFile(path string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.files, path)
}

// begin records op and reports why it must not proceed, if it must not.
func (h *FakeHost) begin(ctx context.Context, op string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.commands = append(h.commands, op)
	if h.unreachable {
		return &module.UnreachableError{Err: fmt.Errorf("fake host %s: connection refused", h.name)}
	}
	return ctx.Err()
}

// Run answers cmd from the registered handlers.
func (h *FakeHost) Run(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	if err := h.begin(ctx, cmd); err != nil {
		return -1, err
	}
	if h.hanging(cmd) {
		select {
		case h.hangCh <- cmd:
		default:
		}
		<-ctx.Done()
		return -1, ctx.Err()
	}
	var in []byte
	if stdin != nil {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return -1, fmt.Errorf("fake host %s: read stdin: %w", h.name, err)
		}
		in = b
	}
	fn := h.lookup(cmd)
	r := Reply{RC: 127, Stderr: "sh: 1: " + cmd + ": command not found\n"}
	if fn != nil {
		r = fn(cmd, in)
	}
	if _, err := io.WriteString(stdout, r.Stdout); err != nil {
		return -1, err
	}
	if _, err := io.WriteString(stderr, r.Stderr); err != nil {
		return -1, err
	}
	return r.RC, r.Err
}

func (h *FakeHost) hanging(cmd string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, re := range h.hangs {
		if re.MatchString(cmd) {
			return true
		}
	}
	return false
}

func (h *FakeHost) lookup(cmd string) Handler {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := len(h.handlers) - 1; i >= 0; i-- {
		if h.handlers[i].re.MatchString(cmd) {
			return h.handlers[i].fn
		}
	}
	return nil
}

// Put stores what r holds as the file at path. It is recorded as
// "put PATH MODE", MODE in octal as chmod takes it.
func (h *FakeHost) Put(ctx context.Context, path string, r io.Reader, mode fs.FileMode) error {
	if err := h.begin(ctx, fmt.Sprintf("put %s %04o", path, Octal(mode))); err != nil {
		return err
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("put %s: %w", path, err)
	}
	h.SetFile(path, b, mode)
	return nil
}

// Get copies the file at path into w; a missing file wraps fs.ErrNotExist.
func (h *FakeHost) Get(ctx context.Context, path string, w io.Writer) error {
	if err := h.begin(ctx, "get "+path); err != nil {
		return err
	}
	f, ok := h.File(path)
	if !ok {
		return fmt.Errorf("get %s on %s: %w", path, h.name, fs.ErrNotExist)
	}
	_, err := w.Write(f.Data)
	return err
}

var _ module.Host = (*FakeHost)(nil)
