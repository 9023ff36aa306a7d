package support

import (
	"context"
	"encoding/json"
	"sort"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse"
)

// Options configure Collect.
type Options struct {
	Version  string          // prova's version, for the manifest
	Forks    int             // hosts probed at once (default 50)
	Probes   []Probe         // default Probes
	Parsers  *parse.Registry // the parsers Parser names
	Redact   func(string) string
	Now      func() time.Time // default time.Now
	Progress func(host string, done, total int)
}

// Collect runs the probes on every host, one host's probes one after the
// other on its connection, at most Forks hosts at once. A host that cannot
// be reached is listed in the manifest's Unreachable and the others go on.
// Every output is redacted before it is parsed and kept.
func Collect(ctx context.Context, hosts []module.Host, o Options) (*Bundle, error) {
	if o.Forks <= 0 {
		o.Forks = 50
	}
	if o.Probes == nil {
		o.Probes = Probes
	}
	if o.Redact == nil {
		o.Redact = func(s string) string { return s }
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	b := &Bundle{Manifest: Manifest{Format: FormatVersion, ProvaVersion: o.Version, Created: o.Now().UTC(), Probes: o.Probes}}
	out := make([]Host, len(hosts))
	var mu sync.Mutex
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(o.Forks)
	for i, h := range hosts {
		b.Manifest.Hosts = append(b.Manifest.Hosts, h.Name())
		g.Go(func() error {
			res, err := probeHost(ctx, h, o)
			out[i] = Host{Name: h.Name(), Results: res}
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				mu.Lock()
				if b.Manifest.Unreachable == nil {
					b.Manifest.Unreachable = map[string]string{}
				}
				b.Manifest.Unreachable[h.Name()] = o.Redact(err.Error())
				mu.Unlock()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	b.Hosts = out
	sort.Slice(b.Hosts, func(i, j int) bool { return b.Hosts[i].Name < b.Hosts[j].Name })
	sort.Strings(b.Manifest.Hosts)
	return b, nil
}

// probeHost runs every probe on h; it stops at the first probe the
// transport could not run (the host is unreachable).
func probeHost(ctx context.Context, h module.Host, o Options) ([]Result, error) {
	var res []Result
	for i, p := range o.Probes {
		start := time.Now()
		out, err := module.Capture(ctx, h, p.Command)
		r := Result{Probe: p.ID, Command: p.Command, Parser: p.Parser, RC: out.RC,
			DurationMS: float64(time.Since(start).Microseconds()) / 1000,
			Stdout:     o.Redact(out.Stdout), Stderr: o.Redact(out.Stderr)}
		if err != nil {
			if module.IsUnreachable(err) || ctx.Err() != nil {
				return res, err
			}
			r.Error = o.Redact(err.Error())
		} else {
			parseInto(&r, o.Parsers, o.Redact)
		}
		res = append(res, r)
		if o.Progress != nil {
			o.Progress(h.Name(), i+1, len(o.Probes))
		}
	}
	return res, nil
}

// parseInto runs the probe's parser on a successful command's (redacted)
// output and records what it read or the error it gave.
func parseInto(r *Result, reg *parse.Registry, red func(string) string) {
	r.Parsed, r.ParseError = nil, ""
	if r.Parser == "" || r.RC != 0 || r.Error != "" || reg == nil {
		return
	}
	p, ok := reg.Lookup(r.Parser)
	if !ok {
		r.ParseError = "prova has no parser " + r.Parser
		return
	}
	v, err := p.Parse([]byte(r.Stdout))
	if err != nil {
		r.ParseError = red(err.Error())
		return
	}
	j, err := json.Marshal(v)
	if err != nil {
		r.ParseError = "cannot encode the parsed value: " + err.Error()
		return
	}
	r.Parsed = j
}
