package eval

import (
	"fmt"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/config"
)

// FlagText writes a variable's value as the text of --var NAME=TEXT, the
// way ResolveVariables reads it back: literally for primitive types, as an
// HCL expression for the others. A saved plan keeps its variables so.
func FlagText(v *config.Variable, val cty.Value) (string, error) {
	if !val.IsWhollyKnown() {
		return "", fmt.Errorf("var.%s is not known", v.Name)
	}
	if v.Type.IsPrimitiveType() {
		if val.IsNull() {
			return "", fmt.Errorf("var.%s is null", v.Name)
		}
		switch val.Type() {
		case cty.String:
			return val.AsString(), nil
		case cty.Number:
			return val.AsBigFloat().Text('f', -1), nil
		case cty.Bool:
			if val.True() {
				return "true", nil
			}
			return "false", nil
		}
	}
	return string(hclwrite.TokensForValue(val).Bytes()), nil
}
