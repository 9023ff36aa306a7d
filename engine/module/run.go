package module

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/gocty"
)

// Output is the captured result of one command.
type Output struct {
	Stdout string
	Stderr string
	RC     int
}

// Capture runs cmd on h and returns what it printed and its exit status.
// Output beyond DefaultCaptureLimit bytes per stream is dropped and marked
// as truncated.
func Capture(ctx context.Context, h Host, cmd string) (Output, error) {
	return CaptureLimit(ctx, h, cmd, DefaultCaptureLimit)
}

// CaptureLimit is Capture keeping up to limit bytes of stdout (stderr
// keeps DefaultCaptureLimit), for the few commands whose evidence is
// larger than the default (the GPFS log of a large cluster's start).
func CaptureLimit(ctx context.Context, h Host, cmd string, limit int) (Output, error) {
	// Both buffers escape to the host's Run; they are taken from a pool
	// and put back empty once their text is made (Run writes nothing
	// after it returns: see Host).
	b := capBuffers.Get().(*[2]CapBuffer)
	b[0], b[1] = CapBuffer{Limit: limit}, CapBuffer{Limit: DefaultCaptureLimit}
	rc, err := h.Run(ctx, cmd, nil, &b[0], &b[1])
	o := Output{Stdout: b[0].String(), Stderr: b[1].String(), RC: rc}
	b[0], b[1] = CapBuffer{}, CapBuffer{} // keep nothing of the output
	capBuffers.Put(b)
	if err != nil {
		if IsUnreachable(err) {
			return o, err // the transport's error names the host; the command is beside the point
		}
		return o, fmt.Errorf("run %q on %s: %w", cmd, h.Name(), err)
	}
	return o, nil
}

// capBuffers holds the buffer pairs of Capture: a command's pair was its
// one allocation, whatever it printed.
var capBuffers = sync.Pool{New: func() any { return new([2]CapBuffer) }}

// DefaultCaptureLimit bounds how much of a stream a step keeps (1 MiB).
const DefaultCaptureLimit = 1 << 20

// TruncatedLine ends the text of a CapBuffer (and so of a captured
// stream) that dropped output.
const TruncatedLine = "\n[output truncated]\n"

// CapBuffer keeps at most Limit bytes of what is written to it and says so
// in String when it dropped some; writes never fail, so a command's output
// beyond the limit is read to its end rather than blocking it.
//
// It keeps the pieces as written and String makes one string of exactly
// their size: a growing buffer would hold up to twice the text while it
// reads, and its string a third copy (at 1,000 nodes a GPFS output is a
// 1,000-row table, read by 50 hosts at once).
type CapBuffer struct {
	Limit     int
	n         int      // bytes kept
	pieces    [][]byte // kept since the last String
	s         string   // what String made, with the truncated line if marked
	truncated bool     // output was dropped
	marked    bool     // s ends with the truncated line
}

// Write keeps what fits under Limit and drops the rest.
func (c *CapBuffer) Write(p []byte) (int, error) {
	keep := p
	if room := c.Limit - c.n; len(keep) > room {
		keep, c.truncated = keep[:max(room, 0)], true
	}
	if len(keep) > 0 {
		c.pieces = append(c.pieces, bytes.Clone(keep)) // the transport reuses p
		c.n += len(keep)
	}
	return len(p), nil
}

// String returns what was kept, with a "[output truncated]" line when
// something was dropped.
func (c *CapBuffer) String() string {
	if len(c.pieces) == 0 && c.truncated == c.marked {
		return c.s
	}
	// Nothing is kept once output was dropped, so a marked s gets no
	// pieces after it.
	var b strings.Builder
	b.Grow(c.n + len(TruncatedLine))
	b.WriteString(c.s)
	for _, p := range c.pieces {
		b.Write(p)
	}
	if c.truncated {
		b.WriteString(TruncatedLine)
	}
	c.s, c.pieces, c.marked = b.String(), nil, c.truncated
	return c.s
}

// Decode converts wholly-known args into a Go struct with `cty:"name"` tags.
// Arguments holding a marked value (a cty mark: a sensitive one, say) are
// an error naming them, never their value: a Go struct cannot keep the
// mark, and gocty panics on one.
func Decode(args cty.Value, out any) error {
	if args.ContainsMarked() {
		return markedArgs(args)
	}
	if err := gocty.FromCtyValue(args, out); err != nil {
		return fmt.Errorf("decode arguments: %w", err)
	}
	return nil
}

// Encode converts a Go value into a cty value of type ty (outputs).
func Encode(v any, ty cty.Type) (cty.Value, error) {
	val, err := gocty.ToCtyValue(v, ty)
	if err != nil {
		return cty.NilVal, fmt.Errorf("encode outputs: %w", err)
	}
	return val, nil
}
