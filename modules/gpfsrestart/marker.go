package gpfsrestart

import (
	"context"
	"fmt"
	"strings"

	"github.com/provadev/prova/engine/module"
)

// DefaultMarker is the file on the node running the restarts that names
// the nodes of the wave in flight: written before mmshutdown, removed once
// they are active and mounted again. A run killed in between leaves it, and
// the next run starts those nodes before anything else.
const DefaultMarker = "/var/mmfs/tmp/prova-restart.inflight"

// inflight is a marker's content: one "node=NAME" line per node (the
// file's modification time says when).
type inflight struct {
	Nodes []string
}

func markerText(nodes []string) string {
	var b strings.Builder
	for _, n := range nodes {
		fmt.Fprintf(&b, "node=%s\n", n)
	}
	return b.String()
}

func parseMarker(s string) inflight {
	var m inflight
	for _, l := range strings.Split(s, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(l), "=")
		switch {
		case !ok:
		case k == "node" && v != "":
			m.Nodes = append(m.Nodes, v)
		}
	}
	return m
}

// readMarker returns the nodes a previous run left in flight (none when
// the file does not exist).
func readMarker(ctx context.Context, h module.Host, path string) (inflight, error) {
	out, err := module.Capture(ctx, h, "cat "+module.Quote(path)+" 2>/dev/null || true")
	if err != nil {
		return inflight{}, err
	}
	return parseMarker(out.Stdout), nil
}

// writeMarker records the wave about to go down.
func writeMarker(ctx context.Context, h module.Host, path string, nodes []string) error {
	q := module.Quote(path)
	cmd := "mkdir -p \"$(dirname " + q + ")\" && printf '%s' " + module.Quote(markerText(nodes)) + " > " + q + ".new && mv -f " + q + ".new " + q
	out, err := module.Capture(ctx, h, cmd)
	if err != nil {
		return err
	}
	if out.RC != 0 {
		return fmt.Errorf("cannot write the restart marker %s on %s (exit %d): %s; nothing was restarted", path, h.Name(), out.RC, strings.TrimSpace(out.Stderr))
	}
	return nil
}

// clearMarker removes the marker once the wave is back.
func clearMarker(ctx context.Context, h module.Host, path string) error {
	out, err := module.Capture(ctx, h, "rm -f "+module.Quote(path))
	if err != nil {
		return err
	}
	if out.RC != 0 {
		return fmt.Errorf("cannot remove the restart marker %s on %s (exit %d): %s", path, h.Name(), out.RC, strings.TrimSpace(out.Stderr))
	}
	return nil
}
