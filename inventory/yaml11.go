package inventory

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/internal/lazyre"
)

// Ansible reads YAML with PyYAML, which resolves plain scalars by the YAML
// 1.1 rules, not yaml.v3's YAML 1.2 ones: yes/no/on/off are booleans, 010
// is octal 8, 1e3 (a float without a dot) and 0o17 are strings, 12:30 is
// the base-60 integer 750. These are PyYAML's resolver patterns
// (yaml/resolver.py).
var (
	yaml11Bool  = lazyre.New(`^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`)
	yaml11Int   = lazyre.New(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`)
	yaml11Float = lazyre.New(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*)$`)
)

// yaml11Scalar is a plain YAML scalar as PyYAML constructs it. Infinity
// and NaN (.inf, .nan), which ansible-inventory cannot print as JSON,
// stay strings, as do timestamps (Ansible prints a date as its text).
func yaml11Scalar(s string) cty.Value {
	switch {
	case s == "" || s == "~" || s == "null" || s == "Null" || s == "NULL":
		return cty.NullVal(cty.DynamicPseudoType)
	case yaml11Bool.MatchString(s):
		switch s[0] {
		case 'y', 'Y', 't', 'T':
			return cty.True
		case 'o', 'O':
			if strings.EqualFold(s, "on") {
				return cty.True
			}
		}
		return cty.False
	case yaml11Int.MatchString(s) && len(s) <= 4096:
		if v, ok := yaml11IntVal(s); ok {
			return v
		}
	case yaml11Float.MatchString(s) && len(s) <= 4096:
		if v, ok := yaml11FloatVal(s); ok {
			return v
		}
	}
	return cty.StringVal(s)
}

// yaml11IntVal is PyYAML's construct_yaml_int.
func yaml11IntVal(s string) (cty.Value, bool) {
	v := strings.ReplaceAll(s, "_", "")
	neg := false
	if v[0] == '-' || v[0] == '+' {
		neg, v = v[0] == '-', v[1:]
	}
	n := new(big.Int)
	ok := true
	switch {
	case v == "0":
	case strings.HasPrefix(v, "0b"):
		_, ok = n.SetString(v[2:], 2)
	case strings.HasPrefix(v, "0x"):
		_, ok = n.SetString(v[2:], 16)
	case v[0] == '0':
		_, ok = n.SetString(v[1:], 8)
	case strings.Contains(v, ":"):
		for _, d := range strings.Split(v, ":") {
			x, err := strconv.ParseInt(d, 10, 64)
			if err != nil {
				return cty.NilVal, false
			}
			n.Mul(n, big.NewInt(60)).Add(n, big.NewInt(x))
		}
	default:
		_, ok = n.SetString(v, 10)
	}
	if !ok {
		return cty.NilVal, false
	}
	if neg {
		n.Neg(n)
	}
	return cty.NumberVal(new(big.Float).SetInt(n)), true
}

// yaml11FloatVal is PyYAML's construct_yaml_float.
func yaml11FloatVal(s string) (cty.Value, bool) {
	v := strings.ToLower(strings.ReplaceAll(s, "_", ""))
	sign := 1.0
	if v[0] == '-' || v[0] == '+' {
		if v[0] == '-' {
			sign = -1
		}
		v = v[1:]
	}
	var f float64
	if strings.Contains(v, ":") {
		for _, d := range strings.Split(v, ":") {
			x, err := strconv.ParseFloat(d, 64)
			if err != nil {
				return cty.NilVal, false
			}
			f = f*60 + x
		}
	} else {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return cty.NilVal, false
		}
		f = x
	}
	f *= sign
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return cty.NilVal, false
	}
	return pyFloatVal(f), true
}

// jsonScalar is a JSON literal as Python's json.loads makes it: a number
// with a fraction or an exponent is a float, any other an exact integer.
func jsonScalar(s string) cty.Value {
	switch s {
	case "true":
		return cty.True
	case "false":
		return cty.False
	case "null":
		return cty.NullVal(cty.DynamicPseudoType)
	}
	if strings.ContainsAny(s, ".eE") {
		if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) {
			return pyFloatVal(f)
		}
	} else if n, ok := new(big.Int).SetString(s, 10); ok && len(s) <= 4096 {
		return cty.NumberVal(new(big.Float).SetInt(n))
	}
	return cty.StringVal(s)
}
