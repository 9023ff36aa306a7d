package become

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"sync/atomic"

	"github.com/provadev/prova/engine/module"
)

// Options choose the user and how sudo authenticates.
type Options struct {
	User string // default "root"
	// Password returns the sudo password; nil means passwordless sudo (-n).
	Password func() ([]byte, error)
}

// Wrap returns h with every command run as opts.User through sudo.
func Wrap(h module.Host, opts Options) module.Host {
	if opts.User == "" {
		opts.User = "root"
	}
	return &host{inner: h, opts: opts}
}

type host struct {
	inner module.Host
	opts  Options
}

var _ module.Host = (*host)(nil)

func (h *host) Name() string { return h.inner.Name() }

// Command returns the command line Run sends for cmd without a password
// (for plans and logs).
func Command(user, cmd string) string {
	return "sudo -n -u " + module.Quote(user) + " -- sh -c " + module.Quote(cmd)
}

func (h *host) Run(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	if h.opts.Password == nil {
		return h.inner.Run(ctx, Command(h.opts.User, cmd), stdin, stdout, stderr)
	}
	var b [8]byte
	rand.Read(b[:])
	nonce := hex.EncodeToString(b[:])
	prompt := "[prova-sudo-" + nonce + "]"
	marker := "PROVA-BECOME-" + nonce
	line := "sudo -S -p " + module.Quote(prompt) + " -u " + module.Quote(h.opts.User) +
		" -- sh -c " + module.Quote("echo "+marker+" >&2; "+cmd)

	pr, pw := io.Pipe()
	f := &filter{w: stderr, prompt: []byte(prompt), marker: []byte(marker + "\n"),
		prompted: make(chan struct{}, 2), started: make(chan struct{})}
	finished := make(chan struct{})
	var feedErr atomic.Pointer[error]
	// not waited for: it may be blocked reading the caller's stdin.
	go h.feed(pw, stdin, f, finished, &feedErr)
	rc, err := h.inner.Run(ctx, line, pr, stdout, f)
	close(finished)
	pr.Close()
	f.flush()
	if ferr := feedErr.Load(); err == nil && ferr != nil {
		return rc, fmt.Errorf("become %s on %s: %w", h.opts.User, h.Name(), *ferr)
	}
	return rc, err
}

// feed writes sudo's stdin: the password when prompted, then the caller's
// stdin once the command runs.
// A password error is stored in perr before stdin closes (so before sudo
// fails and Run returns).
func (h *host) feed(pw *io.PipeWriter, stdin io.Reader, f *filter, finished <-chan struct{}, perr *atomic.Pointer[error]) {
	defer pw.Close()
	asked := false
	for {
		select {
		case <-finished:
			return
		case <-f.prompted:
			if asked { // wrong password: let sudo fail
				return
			}
			asked = true
			pass, err := h.opts.Password()
			if err != nil {
				err = fmt.Errorf("sudo password: %w", err)
				perr.Store(&err)
				return // stdin closes: sudo fails
			}
			_, err = pw.Write(append(pass, '\n'))
			clear(pass)
			if err != nil {
				return // sudo is gone; Run reports it
			}
		case <-f.started:
			if stdin != nil {
				io.Copy(pw, stdin)
			}
			return
		}
	}
}

// filter holds back stderr until the marker, signalling prompts, and
// removes prompts and marker from what it passes on.
type filter struct {
	w        io.Writer
	prompt   []byte
	marker   []byte
	buf      bytes.Buffer
	seen     int
	on       bool
	prompted chan struct{}
	started  chan struct{}
}

func (f *filter) Write(p []byte) (int, error) {
	if f.on {
		return f.write(p)
	}
	f.buf.Write(p)
	if n := bytes.Count(f.buf.Bytes(), f.prompt); n > f.seen {
		for ; f.seen < n; f.seen++ {
			select {
			case f.prompted <- struct{}{}:
			default:
			}
		}
	}
	if i := bytes.Index(f.buf.Bytes(), f.marker); i >= 0 {
		f.on = true
		close(f.started)
		before := bytes.ReplaceAll(f.buf.Bytes()[:i], f.prompt, nil)
		after := f.buf.Bytes()[i+len(f.marker):]
		f.write(before)
		f.write(after)
		f.buf.Reset()
	}
	return len(p), nil
}

func (f *filter) write(p []byte) (int, error) {
	if f.w == nil || len(p) == 0 {
		return len(p), nil
	}
	return f.w.Write(p)
}

// flush passes on what sudo printed when the command never started.
func (f *filter) flush() {
	if !f.on && f.buf.Len() > 0 {
		f.write(bytes.ReplaceAll(f.buf.Bytes(), f.prompt, nil))
		f.buf.Reset()
	}
}

// Put streams r into a temporary file next to p, as the become user, then
// sets mode and renames it over p.
func (h *host) Put(ctx context.Context, p string, r io.Reader, mode fs.FileMode) error {
	dir := module.Quote(path.Dir(p))
	script := fmt.Sprintf(`umask 077; t=$(mktemp %s/.prova.XXXXXX) || exit 1; `+
		`if cat > "$t" && chmod %o "$t" && mv -f "$t" %s; then exit 0; fi; rm -f "$t"; exit 1`,
		dir, mode.Perm(), module.Quote(p))
	var errb bytes.Buffer
	rc, err := h.Run(ctx, script, r, nil, &errb)
	if err != nil {
		return err
	}
	if rc != 0 {
		return fmt.Errorf("put %s as %s on %s: exit %d: %s", p, h.opts.User, h.Name(), rc, strings.TrimSpace(errb.String()))
	}
	return nil
}

// Get copies p into w, read as the become user.
func (h *host) Get(ctx context.Context, p string, w io.Writer) error {
	var errb bytes.Buffer
	rc, err := h.Run(ctx, "cat "+module.Quote(p), nil, w, &errb)
	if err != nil {
		return err
	}
	if rc != 0 {
		return fmt.Errorf("get %s as %s on %s: exit %d: %s", p, h.opts.User, h.Name(), rc, strings.TrimSpace(errb.String()))
	}
	return nil
}
