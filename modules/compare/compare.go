package compare

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/profile"
)

// Compare is the "compare" module. The zero value is ready to use.
type Compare struct{}

// New returns the compare module.
func New() *Compare { return &Compare{} }

// ID returns "compare".
func (*Compare) ID() string { return "compare" }

func dyn(name string) hcldec.Spec {
	return &hcldec.AttrSpec{Name: name, Type: cty.DynamicPseudoType}
}

func num(name string) hcldec.Spec { return &hcldec.AttrSpec{Name: name, Type: cty.Number} }

// Spec describes the module's arguments.
func (*Compare) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"rdma":                &hcldec.AttrSpec{Name: "rdma", Type: cty.DynamicPseudoType, Required: true},
		"tcp":                 &hcldec.AttrSpec{Name: "tcp", Type: cty.DynamicPseudoType, Required: true},
		"lat_rdma":            dyn("lat_rdma"),
		"lat_tcp":             dyn("lat_tcp"),
		"seq_rdma":            dyn("seq_rdma"),
		"seq_tcp":             dyn("seq_tcp"),
		"line_rate_gbps":      num("line_rate_gbps"),
		"link_layer":          &hcldec.AttrSpec{Name: "link_layer", Type: cty.String},
		"profile":             &hcldec.DefaultSpec{Primary: &hcldec.AttrSpec{Name: "profile", Type: cty.String}, Default: &hcldec.LiteralSpec{Value: cty.StringVal(profile.Default)}},
		"max_latency_ratio":   num("max_latency_ratio"),
		"min_soft_drop_pct":   num("min_soft_drop_pct"),
		"min_bandwidth_share": num("min_bandwidth_share"),
	}
}

var outputsType = cty.Object(map[string]cty.Type{
	"profile":         cty.String,
	"latency_ratio":   cty.Number,
	"lat_stat":        cty.String,
	"p99_rdma_us":     cty.Number,
	"p99_tcp_us":      cty.Number,
	"iops_rdma":       cty.Number,
	"iops_tcp":        cty.Number,
	"cpu_run":         cty.String,
	"kernel_rdma_pct": cty.Number,
	"kernel_tcp_pct":  cty.Number,
	"cpu_drop_pct":    cty.Number,
	"iops":            cty.String,
	"warnings":        cty.List(cty.String),
	"tcp_is_ipoib":    cty.Bool,
	"lat_rdma_us":     cty.Number,
	"lat_tcp_us":      cty.Number,
	"soft_rdma_pct":   cty.Number,
	"soft_tcp_pct":    cty.Number,
	"soft_drop_pct":   cty.Number,
	"busy_cores_rdma": cty.Number,
	"busy_cores_tcp":  cty.Number,
	"bw_rdma_mib_s":   cty.Number,
	"bw_tcp_mib_s":    cty.Number,
	"bw_share_rdma":   cty.Number,
	"bw_share_tcp":    cty.Number,
	"latency":         cty.String,
	"cpu":             cty.String,
	"bandwidth":       cty.String,
	"verdict":         cty.String,
	"table":           cty.String,
})

// Outputs are the measured numbers, each line's verdict, the overall
// verdict and the side-by-side table.
func (*Compare) Outputs() cty.Type { return outputsType }

// Validate checks the profile name and the overrides' ranges.
func (*Compare) Validate(args cty.Value) hcl.Diagnostics {
	var diags hcl.Diagnostics
	known := func(n string) (cty.Value, bool) {
		if args.IsNull() || !args.IsKnown() {
			return cty.NilVal, false
		}
		v, _ := args.GetAttr(n).UnmarkDeep()
		return v, v.IsKnown() && !v.IsNull()
	}
	if v, ok := known("profile"); ok {
		if _, err := profile.Lookup(v.AsString()); err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown profile", Detail: err.Error() + "."})
		}
	}
	for _, r := range []struct {
		name     string
		min, max float64
	}{{"max_latency_ratio", 0, 10}, {"min_soft_drop_pct", 0, 100}, {"min_bandwidth_share", 0, 1}, {"line_rate_gbps", 0, 1e6}} {
		if v, ok := known(r.name); ok {
			f, _ := v.AsBigFloat().Float64()
			if f <= r.min && r.name != "min_soft_drop_pct" || f < r.min || f > r.max {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + r.name,
					Detail: fmt.Sprintf("%s = %g: must be within (%g, %g].", r.name, f, r.min, r.max)})
			}
		}
	}
	return diags
}

var (
	_ module.Module    = (*Compare)(nil)
	_ module.Describer = (*Compare)(nil)
)
