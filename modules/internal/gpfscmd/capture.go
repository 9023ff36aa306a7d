package gpfscmd

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/provadev/prova/engine/module"
)

// capture runs cmd on h as module.Capture does (same limit semantics, the
// same "[output truncated]" line, the same errors), keeping stdout in
// textCapture: at 1,000 nodes one GPFS output is a 1,000-row table or the
// log's RDMA lines, read by 50 hosts at once.
func capture(ctx context.Context, h module.Host, cmd string, limit int) (module.Output, error) {
	out, errb := &textCapture{limit: limit}, &textCapture{limit: module.DefaultCaptureLimit}
	rc, err := h.Run(ctx, cmd, nil, out, errb)
	o := module.Output{Stdout: out.String(), Stderr: errb.String(), RC: rc}
	if err != nil {
		if module.IsUnreachable(err) {
			return o, err // the transport's error names the host
		}
		return o, fmt.Errorf("run %q on %s: %w", cmd, h.Name(), err)
	}
	return o, nil
}

// textCapture keeps at most limit bytes of what is written to it, as the
// pieces the transport wrote, and makes one string of exactly their size
// at the end: a growing buffer holds up to twice the text while it reads and
// its string is a third copy; this holds the text, then the text and its
// string for a moment. Writes never fail, so a command printing more than
// limit is read to its end.
type textCapture struct {
	limit, n  int
	pieces    [][]byte
	truncated bool
}

func (c *textCapture) Write(p []byte) (int, error) {
	keep := p
	if room := c.limit - c.n; len(keep) > room {
		keep, c.truncated = keep[:max(room, 0)], true
	}
	if len(keep) > 0 {
		c.pieces = append(c.pieces, bytes.Clone(keep))
		c.n += len(keep)
	}
	return len(p), nil
}

// String is the text kept, with a "[output truncated]" line when some was
// dropped. It is to be called once, when the command has ended.
func (c *textCapture) String() string {
	const cut = "\n[output truncated]\n"
	var b strings.Builder
	b.Grow(c.n + len(cut))
	for _, p := range c.pieces {
		b.Write(p)
	}
	c.pieces = nil
	if c.truncated {
		b.WriteString(cut)
	}
	return b.String()
}
