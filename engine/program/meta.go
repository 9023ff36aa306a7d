package program

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Meta holds a step's engine meta-arguments that do not depend on the host,
// evaluated before the step runs.
type Meta struct {
	// HostsPattern is an Ansible-style pattern; HostsList a list of names.
	// Both empty means "all".
	HostsPattern string
	HostsList    []string
	RunOnce      bool
	// Serial is a batch size (0 = all hosts at once); SerialPercent a share
	// of the step's hosts (0 = unset).
	Serial        int
	SerialPercent float64
	Timeout       time.Duration
	// Retries is the number of attempts after the first; negative when
	// unset (a step with until then gets DefaultUntilRetries), so that
	// retries = 0 means no retry.
	Retries   int
	Delay     time.Duration
	OnFailure string // "abort" or "continue"
	// MaxFailPercentage is the share of a step's hosts allowed to fail
	// before the run aborts; negative when unset.
	MaxFailPercentage float64
	Become            bool
	BecomeUser        string
	Tags              []string
	Severity          string // "fail" or "warn"
	// Destructive is the step's destructive = true: the author consents to
	// a step its module marks as able to destroy data.
	Destructive bool
}

// DefaultDelay is the pause between retries when delay is not set.
const DefaultDelay = 5 * time.Second

// DefaultUntilRetries is the number of retries of a step with until and no
// retries setting.
const DefaultUntilRetries = 3

// EvalMeta evaluates the host-independent meta-arguments. With partial,
// unknown values are accepted and left at their defaults (validate);
// otherwise they are errors, since these must be known before a step runs.
func EvalMeta(s *Step, ctx *hcl.EvalContext, partial bool) (Meta, hcl.Diagnostics) {
	m := Meta{OnFailure: "abort", MaxFailPercentage: -1, Severity: "fail", Delay: DefaultDelay, Retries: -1}
	var diags hcl.Diagnostics
	get := func(e hcl.Expression, what string) (cty.Value, bool) {
		if e == nil {
			return cty.NilVal, false
		}
		v, d := e.Value(ctx)
		diags = append(diags, d...)
		if d.HasErrors() {
			return cty.NilVal, false
		}
		if !v.IsWhollyKnown() {
			if !partial {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Value not known before the step runs",
					Detail:   fmt.Sprintf("%s must be known when the step starts; it cannot depend on results of other steps.", what),
					Subject:  e.Range().Ptr(),
				})
			}
			return cty.NilVal, false
		}
		if v.IsNull() {
			return cty.NilVal, false
		}
		return v, true
	}
	bad := func(e hcl.Expression, summary, detail string) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: e.Range().Ptr()})
	}

	if v, ok := get(s.Hosts, "hosts"); ok {
		switch {
		case v.Type() == cty.String:
			m.HostsPattern = v.AsString()
		case v.Type().IsListType() || v.Type().IsTupleType() || v.Type().IsSetType():
			lv, err := convert.Convert(v, cty.List(cty.String))
			if err != nil {
				bad(s.Hosts, "Invalid hosts", "hosts must be a host pattern string or a list of host names.")
				break
			}
			for _, e := range lv.AsValueSlice() {
				m.HostsList = append(m.HostsList, e.AsString())
			}
			if len(m.HostsList) == 0 {
				m.HostsList = []string{}
			}
		default:
			bad(s.Hosts, "Invalid hosts", "hosts must be a host pattern string or a list of host names.")
		}
	}
	if v, ok := get(s.RunOnce, "run_once"); ok {
		m.RunOnce = boolOf(v, s.RunOnce, "run_once", &diags)
	}
	if v, ok := get(s.Serial, "serial"); ok {
		if v.Type() == cty.String && strings.HasSuffix(v.AsString(), "%") {
			f, err := strconv.ParseFloat(strings.TrimSuffix(v.AsString(), "%"), 64)
			if err != nil || f <= 0 || f > 100 {
				bad(s.Serial, "Invalid serial", `serial must be a positive number of hosts or a percentage like "25%".`)
			} else {
				m.SerialPercent = f
			}
		} else if n, ok := intOf(v); ok && n > 0 {
			m.Serial = n
		} else {
			bad(s.Serial, "Invalid serial", `serial must be a positive number of hosts or a percentage like "25%".`)
		}
	}
	if v, ok := get(s.Timeout, "timeout"); ok {
		m.Timeout = durationOf(v, s.Timeout, "timeout", &diags)
	}
	if v, ok := get(s.Retries, "retries"); ok {
		if n, ok := intOf(v); ok && n >= 0 {
			m.Retries = n
		} else {
			bad(s.Retries, "Invalid retries", "retries must be a whole number, 0 or more.")
		}
	}
	if v, ok := get(s.Delay, "delay"); ok {
		m.Delay = durationOf(v, s.Delay, "delay", &diags)
	}
	if v, ok := get(s.OnFailure, "on_failure"); ok {
		str := stringOf(v)
		if str != "abort" && str != "continue" {
			bad(s.OnFailure, "Invalid on_failure", `on_failure must be "abort" or "continue".`)
		} else {
			m.OnFailure = str
		}
	}
	if v, ok := get(s.MaxFailPercentage, "max_fail_percentage"); ok {
		f, err := convert.Convert(v, cty.Number)
		if err != nil {
			bad(s.MaxFailPercentage, "Invalid max_fail_percentage", "max_fail_percentage must be a number from 0 to 100.")
		} else if x, _ := f.AsBigFloat().Float64(); x < 0 || x > 100 {
			bad(s.MaxFailPercentage, "Invalid max_fail_percentage", "max_fail_percentage must be a number from 0 to 100.")
		} else {
			m.MaxFailPercentage = x
		}
	}
	if v, ok := get(s.Become, "become"); ok {
		if v.Type() == cty.String {
			m.Become, m.BecomeUser = true, v.AsString()
		} else {
			m.Become = boolOf(v, s.Become, "become", &diags)
		}
	}
	if v, ok := get(s.Tags, "tags"); ok {
		lv, err := convert.Convert(v, cty.List(cty.String))
		if err != nil {
			bad(s.Tags, "Invalid tags", "tags must be a list of strings.")
		} else {
			for _, e := range lv.AsValueSlice() {
				m.Tags = append(m.Tags, e.AsString())
			}
		}
	}
	if v, ok := get(s.Severity, "severity"); ok {
		str := stringOf(v)
		if str != "fail" && str != "warn" {
			bad(s.Severity, "Invalid severity", `severity must be "fail" or "warn".`)
		} else {
			m.Severity = str
		}
	}
	if v, ok := get(s.Destructive, "destructive"); ok {
		m.Destructive = boolOf(v, s.Destructive, "destructive", &diags)
	}
	return m, diags
}

func boolOf(v cty.Value, e hcl.Expression, what string, diags *hcl.Diagnostics) bool {
	b, err := convert.Convert(v, cty.Bool)
	if err != nil {
		*diags = append(*diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + what, Detail: what + " must be true or false.", Subject: e.Range().Ptr()})
		return false
	}
	return b.True()
}

func intOf(v cty.Value) (int, bool) {
	n, err := convert.Convert(v, cty.Number)
	if err != nil {
		return 0, false
	}
	bf := n.AsBigFloat()
	if !bf.IsInt() {
		return 0, false
	}
	i, _ := bf.Int64()
	return int(i), true
}

func stringOf(v cty.Value) string {
	s, err := convert.Convert(v, cty.String)
	if err != nil {
		return ""
	}
	return s.AsString()
}

func durationOf(v cty.Value, e hcl.Expression, what string, diags *hcl.Diagnostics) time.Duration {
	if v.Type() == cty.Number {
		f, _ := v.AsBigFloat().Float64()
		return time.Duration(f * float64(time.Second))
	}
	d, err := time.ParseDuration(stringOf(v))
	if err != nil || d < 0 {
		*diags = append(*diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid " + what,
			Detail:   what + ` must be a duration like "90s", "5m" or "1h30m", or a number of seconds.`,
			Subject:  e.Range().Ptr(),
		})
		return 0
	}
	return d
}
