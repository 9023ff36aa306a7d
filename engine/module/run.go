package module

import (
	"bytes"
	"context"
	"fmt"

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
// Output beyond limit bytes per stream is dropped (limit <= 0 means
// DefaultCaptureLimit) and marked as truncated.
func Capture(ctx context.Context, h Host, cmd string) (Output, error) {
	// Both buffers in one allocation: they escape to the host's Run.
	b := &[2]CapBuffer{{Limit: DefaultCaptureLimit}, {Limit: DefaultCaptureLimit}}
	rc, err := h.Run(ctx, cmd, nil, &b[0], &b[1])
	o := Output{Stdout: b[0].String(), Stderr: b[1].String(), RC: rc}
	if err != nil {
		if IsUnreachable(err) {
			return o, err // the transport's error names the host; the command is beside the point
		}
		return o, fmt.Errorf("run %q on %s: %w", cmd, h.Name(), err)
	}
	return o, nil
}

// DefaultCaptureLimit bounds how much of a stream a step keeps (1 MiB).
const DefaultCaptureLimit = 1 << 20

// CapBuffer keeps at most Limit bytes of what is written to it and says so
// in String when it dropped some; writes never fail, so a command's output
// beyond the limit is read to its end rather than blocking it.
type CapBuffer struct {
	Limit     int
	buf       bytes.Buffer
	truncated bool
}

// Write keeps what fits under Limit and drops the rest.
func (c *CapBuffer) Write(p []byte) (int, error) {
	room := c.Limit - c.buf.Len()
	if room <= 0 {
		c.truncated = true
		return len(p), nil
	}
	if len(p) > room {
		c.buf.Write(p[:room])
		c.truncated = true
		return len(p), nil
	}
	return c.buf.Write(p)
}

// String returns what was kept, with a "[output truncated]" line when
// something was dropped.
func (c *CapBuffer) String() string {
	if c.truncated {
		return c.buf.String() + "\n[output truncated]\n"
	}
	return c.buf.String()
}

// Decode converts wholly-known args into a Go struct with `cty:"name"` tags.
func Decode(args cty.Value, out any) error {
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
