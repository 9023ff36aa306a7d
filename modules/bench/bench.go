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

var (
	blockTools = []string{"elbencho", "fio"}
	perftests  = []string{"ib_write_lat", "ib_write_bw", "ib_read_lat", "ib_read_bw", "ib_send_lat", "ib_send_bw"}
	modes      = []string{"read", "write", "randread", "randwrite"}
)

func isPerftest(tool string) bool { return slices.Contains(perftests, tool) }

func attr(name string, ty cty.Type) *hcldec.AttrSpec { return &hcldec.AttrSpec{Name: name, Type: ty} }

func required(name string, ty cty.Type) *hcldec.AttrSpec {
	return &hcldec.AttrSpec{Name: name, Type: ty, Required: true}
}

func withDefault(s hcldec.Spec, v cty.Value) hcldec.Spec {
	return &hcldec.DefaultSpec{Primary: s, Default: &hcldec.LiteralSpec{Value: v}}
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

// The arguments every module of the package may take, with the value an
// absent one has. Each module's Spec declares its own subset; decode fills
// the rest so that one args struct serves them all.
var argTypes = map[string]cty.Type{
	"tool": cty.String, "role": cty.String, "path": cty.String, "mode": cty.String, "block_size": cty.String,
	"threads": cty.Number, "iodepth": cty.Number, "runtime": cty.String, "size": cty.String, "direct": cty.Bool,
	"server_address": cty.String, "rdma_device": cty.String, "max_wait": cty.String,
	"extra_args": cty.List(cty.String), "cpu_capture": cty.Bool, "repeat": cty.Number, "numa_node": cty.Number,
}

var argDefaults = map[string]cty.Value{
	"role": cty.StringVal("client"), "mode": cty.StringVal("randread"), "threads": cty.NumberIntVal(1),
	"iodepth": cty.NumberIntVal(1), "direct": cty.True, "max_wait": cty.StringVal("60s"), "cpu_capture": cty.True,
	"repeat": cty.NumberIntVal(1),
}

// decode reads a module's arguments into args, role set by the module.
func decodeArgs(v cty.Value, role string) (args, error) {
	attrs := map[string]cty.Value{}
	if !v.IsNull() && v.Type().IsObjectType() {
		for n := range v.Type().AttributeTypes() {
			attrs[n] = v.GetAttr(n)
		}
	}
	for n, ty := range argTypes {
		if _, ok := attrs[n]; ok {
			continue
		}
		if d, ok := argDefaults[n]; ok {
			attrs[n] = d
		} else {
			attrs[n] = cty.NullVal(ty)
		}
	}
	if role != "" {
		attrs["role"] = cty.StringVal(role)
	}
	var a args
	err := module.Decode(cty.ObjectVal(attrs), &a)
	return a, err
}

// validate checks what depends on several arguments.
func validate(v cty.Value, role string) hcl.Diagnostics {
	if v.IsNull() || !v.IsWhollyKnown() {
		return validateKnown(v)
	}
	a, err := decodeArgs(v, role)
	if err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid arguments", Detail: err.Error()}}
	}
	if err := a.check(); err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid benchmark arguments", Detail: err.Error() + "."}}
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
		if !v.Type().HasAttribute(n) {
			continue
		}
		if s := v.GetAttr(n); s.IsKnown() && !s.IsNull() {
			if _, err := seconds(n, s.AsString()); err != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + n, Detail: err.Error() + "."})
			}
		}
	}
	return diags
}

var cpuType = cty.Object(map[string]cty.Type{
	"soft_pct": cty.Number, "sys_pct": cty.Number, "irq_pct": cty.Number, "usr_pct": cty.Number, "iowait_pct": cty.Number,
	"kernel_pct": cty.Number, "busy_cores": cty.Number, "hottest_core_pct": cty.Number, "cpus": cty.Number, "samples": cty.Number,
})

var outputsType = cty.Object(map[string]cty.Type{
	"tool":        cty.String,
	"op":          cty.String,
	"block_size":  cty.Number,
	"in_flight":   cty.Number,
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
	"runs":        cty.Number,
	"spread_pct":  cty.Number,
	"server_pid":  cty.Number,
})
