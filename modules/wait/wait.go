package wait

import (
	"fmt"
	"regexp"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// Wait is the "wait" module. The zero value is ready to use.
type Wait struct{}

// New returns the wait module.
func New() *Wait { return &Wait{} }

// ID returns "wait".
func (*Wait) ID() string { return "wait" }

// Defaults of the interval and max_wait arguments.
const (
	DefaultInterval = "2s"
	DefaultMaxWait  = "5m"
)

// Spec describes the module's arguments. Durations and the pattern are
// checked as they are decoded, so errors point at the attribute.
func (*Wait) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"command":  &hcldec.ValidateSpec{Wrapped: &hcldec.AttrSpec{Name: "command", Type: cty.String, Required: true}, Func: validateCommand},
		"interval": duration("interval", DefaultInterval),
		"max_wait": duration("max_wait", DefaultMaxWait),
		"match":    &hcldec.ValidateSpec{Wrapped: &hcldec.AttrSpec{Name: "match", Type: cty.String}, Func: validateMatch},
	}
}

// Outputs are the number of attempts and the time spent waiting.
func (*Wait) Outputs() cty.Type {
	return cty.Object(map[string]cty.Type{"attempts": cty.Number, "elapsed_s": cty.Number})
}

// Validate has nothing to check across arguments.
func (*Wait) Validate(cty.Value) hcl.Diagnostics { return nil }

// Doc documents the module.
func (*Wait) Doc() module.Doc {
	return module.Doc{
		Summary: "Runs a read-only command on each host until it succeeds (and its output matches), max_wait elapses, or the run is cancelled.",
		Args: map[string]string{
			"command":  "Read-only shell command to poll (required).",
			"interval": "Pause between attempts, a Go duration such as \"2s\" (default \"2s\").",
			"max_wait": "How long to keep trying before failing, default \"5m\". (The step meta-argument timeout bounds the whole step.)",
			"match":    "Regular expression (RE2) stdout must match; without it exit status 0 is enough.",
		},
		Outputs: map[string]string{
			"attempts":  "Number of times the command ran.",
			"elapsed_s": "Seconds spent waiting.",
		},
		Example: `step "wait" "gpfs_active" {
  hosts    = "nsd_servers"
  command  = "/usr/lpp/mmfs/bin/mmgetstate -Y"
  match    = ":active:"
  interval = "5s"
  max_wait = "10m"
}`,
	}
}

type args struct {
	Command  string  `cty:"command"`
	Interval string  `cty:"interval"`
	MaxWait  string  `cty:"max_wait"`
	Match    *string `cty:"match"`
}

// NewArgs implements module.Arguments: the struct the arguments decode into.
func (*Wait) NewArgs() any { return new(args) }

// parsed is args ready to use.
type parsed struct {
	command           string
	interval, maxWait time.Duration
	match             *regexp.Regexp
}

// parse checks the arguments module.Args returned.
func parse(a args, err error) (parsed, error) {
	if err != nil {
		return parsed{}, err
	}
	p := parsed{command: a.Command}
	if p.interval, err = positive(a.Interval); err != nil {
		return p, fmt.Errorf("wait: interval: %w", err)
	}
	if p.maxWait, err = positive(a.MaxWait); err != nil {
		return p, fmt.Errorf("wait: max_wait: %w", err)
	}
	if a.Match != nil {
		if p.match, err = regexp.Compile(*a.Match); err != nil {
			return p, fmt.Errorf("wait: match: %w", err)
		}
	}
	return p, nil
}

func positive(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, err
	}
	if d <= 0 {
		return 0, fmt.Errorf("duration %q is not positive", s)
	}
	return d, nil
}

func duration(name, def string) hcldec.Spec {
	return &hcldec.DefaultSpec{
		Primary: &hcldec.ValidateSpec{Wrapped: &hcldec.AttrSpec{Name: name, Type: cty.String}, Func: func(v cty.Value) hcl.Diagnostics {
			v, _ = v.UnmarkDeep()
			if !v.IsKnown() || v.IsNull() {
				return nil
			}
			if _, err := positive(v.AsString()); err != nil {
				return hcl.Diagnostics{{
					Severity: hcl.DiagError,
					Summary:  "Invalid duration",
					Detail:   fmt.Sprintf("%s must be a positive duration such as \"2s\", \"90s\" or \"5m\": %v.", name, err),
				}}
			}
			return nil
		}},
		Default: &hcldec.LiteralSpec{Value: cty.StringVal(def)},
	}
}

func validateMatch(v cty.Value) hcl.Diagnostics {
	v, _ = v.UnmarkDeep()
	if !v.IsKnown() || v.IsNull() {
		return nil
	}
	if _, err := regexp.Compile(v.AsString()); err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid regular expression", Detail: fmt.Sprintf("match: %v.", err)}}
	}
	return nil
}

func validateCommand(v cty.Value) hcl.Diagnostics {
	v, _ = v.UnmarkDeep()
	if v.IsKnown() && !v.IsNull() && v.AsString() == "" {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Empty command", Detail: "The command argument must not be empty."}}
	}
	return nil
}

var (
	_ module.Module    = (*Wait)(nil)
	_ module.Describer = (*Wait)(nil)
)
