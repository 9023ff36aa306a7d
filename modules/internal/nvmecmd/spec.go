package nvmecmd

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
)

// DefaultPort is the NVMe-oF port (IANA 4420).
const DefaultPort = 4420

// TransportSpec is a string attribute that must be one of Transports.
func TransportSpec(name string, required bool) hcldec.Spec {
	return &hcldec.ValidateSpec{
		Wrapped: &hcldec.AttrSpec{Name: name, Type: cty.String, Required: required},
		Func: func(v cty.Value) hcl.Diagnostics {
			v, _ = v.UnmarkDeep()
			if !v.IsKnown() || v.IsNull() || ValidTransport(v.AsString()) {
				return nil
			}
			return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid transport",
				Detail: fmt.Sprintf("%s = %q: must be one of %s.", name, v.AsString(), strings.Join(transports, ", "))}}
		},
	}
}

// String is a string attribute that must not be empty when set.
func String(name string, required bool) hcldec.Spec {
	return &hcldec.ValidateSpec{
		Wrapped: &hcldec.AttrSpec{Name: name, Type: cty.String, Required: required},
		Func: func(v cty.Value) hcl.Diagnostics {
			v, _ = v.UnmarkDeep()
			if v.IsKnown() && !v.IsNull() && strings.TrimSpace(v.AsString()) == "" {
				return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Empty " + name,
					Detail: fmt.Sprintf("The %s argument must not be empty.", name)}}
			}
			return nil
		},
	}
}

// Number is an optional whole-number attribute within [min, max].
func Number(name string, min, max int) hcldec.Spec {
	return &hcldec.ValidateSpec{
		Wrapped: &hcldec.AttrSpec{Name: name, Type: cty.Number},
		Func: func(v cty.Value) hcl.Diagnostics {
			v, _ = v.UnmarkDeep()
			if !v.IsKnown() || v.IsNull() {
				return nil
			}
			bf := v.AsBigFloat()
			n, acc := bf.Int64()
			if !bf.IsInt() || acc != 0 || n < int64(min) || n > int64(max) {
				return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid " + name,
					Detail: fmt.Sprintf("%s = %s: must be a whole number from %d to %d.", name, bf.Text('g', 10), min, max)}}
			}
			return nil
		},
	}
}

// Port is the port attribute, DefaultPort when unset.
func Port() hcldec.Spec {
	return &hcldec.DefaultSpec{Primary: Number("port", 1, 65535),
		Default: &hcldec.LiteralSpec{Value: cty.NumberIntVal(DefaultPort)}}
}
