package bench

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// Bench is the "bench" module. The zero value is ready to use.
type Bench struct{}

// New returns the bench module.
func New() *Bench { return &Bench{} }

// ID returns "bench".
func (*Bench) ID() string { return "bench" }

var (
	tools     = []string{"elbencho", "fio", "ib_write_lat", "ib_write_bw", "ib_read_lat", "ib_read_bw", "ib_send_lat", "ib_send_bw"}
	modes     = []string{"read", "write", "randread", "randwrite"}
	roles     = []string{"client", "server", "collect"}
	perftests = tools[2:]
)

func isPerftest(tool string) bool { return slices.Contains(perftests, tool) }

func attr(name string, ty cty.Type) *hcldec.AttrSpec { return &hcldec.AttrSpec{Name: name, Type: ty} }

func withDefault(s hcldec.Spec, v cty.Value) hcldec.Spec {
	return &hcldec.DefaultSpec{Primary: s, Default: &hcldec.LiteralSpec{Value: v}}
}

// Spec describes the module's arguments.
func (*Bench) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"tool":           oneOf(&hcldec.AttrSpec{Name: "tool", Type: cty.String, Required: true}, tools),
		"role":           withDefault(oneOf(attr("role", cty.String), roles), cty.StringVal("client")),
		"path":           attr("path", cty.String),
		"mode":           withDefault(oneOf(attr("mode", cty.String), modes), cty.StringVal("randread")),
		"block_size":     attr("block_size", cty.String),
		"threads":        withDefault(attr("threads", cty.Number), cty.NumberIntVal(1)),
		"iodepth":        withDefault(attr("iodepth", cty.Number), cty.NumberIntVal(1)),
		"runtime":        attr("runtime", cty.String),
		"size":           attr("size", cty.String),
		"direct":         withDefault(attr("direct", cty.Bool), cty.True),
		"server_address": attr("server_address", cty.String),
		"rdma_device":    attr("rdma_device", cty.String),
		"max_wait":       withDefault(attr("max_wait", cty.String), cty.StringVal("60s")),
		"extra_args":     attr("extra_args", cty.List(cty.String)),
		"cpu_capture":    withDefault(attr("cpu_capture", cty.Bool), cty.True),
	}
}

func oneOf(s *hcldec.AttrSpec, allowed []string) hcldec.Spec {
	return &hcldec.ValidateSpec{Wrapped: s, Func: func(v cty.Value) hcl.Diagnostics {
		v, _ = v.UnmarkDeep()
		if !v.IsKnown() || v.IsNull() || slices.Contains(allowed, v.AsString()) {
			return nil
		}
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid " + s.Name,
			Detail: fmt.Sprintf("%s = %q: must be one of %s.", s.Name, v.AsString(), strings.Join(allowed, ", "))}}
	}}
}

var cpuType = cty.Object(map[string]cty.Type{
	"soft_pct": cty.Number, "sys_pct": cty.Number, "usr_pct": cty.Number, "busy_cores": cty.Number, "samples": cty.Number,
})

var outputsType = cty.Object(map[string]cty.Type{
	"tool":        cty.String,
	"op":          cty.String,
	"iops":        cty.Number,
	"mib_s":       cty.Number,
	"gbps":        cty.Number,
	"lat_avg_us":  cty.Number,
	"lat_min_us":  cty.Number,
	"lat_max_us":  cty.Number,
	"lat_p50_us":  cty.Number,
	"lat_p99_us":  cty.Number,
	"lat_p999_us": cty.Number,
	"runtime_s":   cty.Number,
	"cpu":         cpuType,
	"server_pid":  cty.Number,
})

// Outputs are the normalised results; a statistic the tool did not report
// is null.
func (*Bench) Outputs() cty.Type { return outputsType }

// Validate checks what depends on several arguments: a path for elbencho
// and fio, a server address for a perftest client, durations and sizes.
func (*Bench) Validate(v cty.Value) hcl.Diagnostics {
	if v.IsNull() || !v.IsWhollyKnown() {
		return validateKnown(v)
	}
	var a args
	if err := module.Decode(v, &a); err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid arguments", Detail: err.Error()}}
	}
	if err := a.check(); err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid bench arguments", Detail: err.Error() + "."}}
	}
	return nil
}

// validateKnown checks the arguments that are known when others are not.
func validateKnown(v cty.Value) hcl.Diagnostics {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	var diags hcl.Diagnostics
	for _, n := range []string{"runtime", "max_wait"} {
		if s := v.GetAttr(n); s.IsKnown() && !s.IsNull() {
			if _, err := seconds(n, s.AsString()); err != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + n, Detail: err.Error() + "."})
			}
		}
	}
	return diags
}

var (
	_ module.Module    = (*Bench)(nil)
	_ module.Describer = (*Bench)(nil)
)
