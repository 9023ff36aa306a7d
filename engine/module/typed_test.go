package module

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
)

type typedArgs struct {
	Command string  `cty:"command"`
	Chdir   *string `cty:"chdir"`
}

// typedMod is a module with an argument struct.
type typedMod struct{}

func (typedMod) ID() string { return "typed" }
func (typedMod) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"command": &hcldec.AttrSpec{Name: "command", Type: cty.String, Required: true},
		"chdir":   &hcldec.AttrSpec{Name: "chdir", Type: cty.String},
	}
}
func (typedMod) Outputs() cty.Type                  { return cty.EmptyObject }
func (typedMod) Validate(cty.Value) hcl.Diagnostics { return nil }
func (typedMod) Reads(cty.Value) string             { return "reads" }
func (typedMod) NewArgs() any                       { return new(typedArgs) }
func (typedMod) Apply(context.Context, ApplyRequest) (ApplyResponse, error) {
	return ApplyResponse{}, nil
}

// untypedMod has no argument struct.
type untypedMod struct{ typedMod }

func (untypedMod) NewArgs() {}

func typedVal(cmd string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"command": cty.StringVal(cmd), "chdir": cty.NullVal(cty.String)})
}

func TestArgsReadsWhatTheEngineDecoded(t *testing.T) {
	typed, err := DecodeTyped(typedMod{}, typedVal("true"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := typed.(*typedArgs); !ok {
		t.Fatalf("DecodeTyped gave %T, want *typedArgs", typed)
	}
	// Typed wins over Args: the engine decoded it from them once for the step.
	req := ApplyRequest{Args: typedVal("other"), Typed: typed}
	a, err := Args[typedArgs](req)
	if err != nil || a.Command != "true" {
		t.Fatalf("Args = %+v, %v; want the decoded struct", a, err)
	}
	// The module gets a copy: setting a field leaves the shared one alone.
	a.Command = "changed"
	if typed.(*typedArgs).Command != "true" {
		t.Error("Args handed out the engine's struct itself, not a copy")
	}
}

func TestArgsDecodesWithoutTyped(t *testing.T) {
	for _, req := range []PlanRequest{{Args: typedVal("ls")}, {Args: typedVal("ls"), Typed: (*typedArgs)(nil)}} {
		a, err := Args[typedArgs](req)
		if err != nil || a.Command != "ls" || a.Chdir != nil {
			t.Errorf("Args(%T) = %+v, %v", req.Typed, a, err)
		}
	}
	c := ClusterRequest{Args: typedVal("ls")}
	if a, err := Args[typedArgs](c); err != nil || a.Command != "ls" {
		t.Errorf("Args(cluster) = %+v, %v", a, err)
	}
	if _, err := Args[typedArgs](ApplyRequest{Args: cty.ObjectVal(map[string]cty.Value{"command": cty.ListValEmpty(cty.String)})}); err == nil {
		t.Error("Args decoded a list into a string")
	}
}

func TestArgsRefusesAStructOfAnotherType(t *testing.T) {
	type other struct {
		Command string `cty:"command"`
	}
	_, err := Args[other](ApplyRequest{Args: typedVal("ls"), Typed: &typedArgs{Command: "ls"}})
	if err == nil || !strings.Contains(err.Error(), "*module.typedArgs") {
		t.Errorf("err = %v, want one naming both types", err)
	}
}

func TestDecodeTyped(t *testing.T) {
	if typed, err := DecodeTyped(untypedMod{}, typedVal("ls")); typed != nil || err != nil {
		t.Errorf("DecodeTyped of a module without Arguments = %v, %v; want nil, nil", typed, err)
	}
	bad := cty.ObjectVal(map[string]cty.Value{"command": cty.ListValEmpty(cty.String), "chdir": cty.NullVal(cty.String)})
	if _, err := DecodeTyped(typedMod{}, bad); err == nil {
		t.Error("DecodeTyped decoded a list into a string")
	}
}

type markArgs struct {
	Command string            `cty:"command"`
	Env     map[string]string `cty:"env"`
	Targets []string          `cty:"targets"`
	Opts    *struct {
		Key string `cty:"key"`
	} `cty:"opts"`
}

// markMod is a module whose argument struct has nested values.
type markMod struct{ typedMod }

func (markMod) NewArgs() any { return new(markArgs) }

// TestDecodeTypedNamesMarkedArguments checks that arguments holding a
// marked value are an error naming each marked argument, never its value,
// rather than gocty's panic.
func TestDecodeTypedNamesMarkedArguments(t *testing.T) {
	const secret = "s3cret-value"
	args := func(command, token, target, key cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{
			"command": command,
			"env":     cty.MapVal(map[string]cty.Value{"PATH": cty.StringVal("/bin"), "TOKEN": token}),
			"targets": cty.ListVal([]cty.Value{cty.StringVal("a"), target}),
			"opts":    cty.ObjectVal(map[string]cty.Value{"key": key}),
		})
	}
	s := cty.StringVal(secret)
	m := s.Mark("sensitive")
	for _, c := range []struct {
		name string
		args cty.Value
		want string
	}{
		{"attribute", args(m, s, s, s), "in command:"},
		{"map element", args(s, m, s, s), `in env["TOKEN"]:`},
		{"list element", args(s, s, m, s), "in targets[1]:"},
		{"nested attribute", args(s, s, s, m), "in opts.key:"},
		{"two", args(m, s, m, s), "in command, targets[1]:"},
		{"whole", args(s, s, s, s).Mark("sensitive"), "in the arguments as a whole:"},
		{"set element", cty.ObjectVal(map[string]cty.Value{"tags": cty.SetVal([]cty.Value{cty.StringVal("x"), m})}), "in tags:"},
		{"set of objects", cty.ObjectVal(map[string]cty.Value{"hosts": cty.SetVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("n1"), "token": m})})}), "in hosts:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			typed, err := DecodeTyped(markMod{}, c.args)
			if err == nil || typed != nil {
				t.Fatalf("DecodeTyped = %v, %v; want an error", typed, err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "decode arguments: ") || !strings.Contains(msg, c.want) || !strings.Contains(msg, "marked") {
				t.Errorf("error %q; want one naming %q as marked", msg, c.want)
			}
			if strings.Contains(msg, secret) || strings.Contains(msg, "sensitive\"") {
				t.Errorf("error %q shows the marked value or its mark", msg)
			}
			// Decode, which every module's Args reaches, says the same
			// and does not panic either.
			var out markArgs
			if derr := Decode(c.args, &out); fmt.Sprint(derr) != msg {
				t.Errorf("Decode = %v; want DecodeTyped's %q", derr, msg)
			}
		})
	}
	// The same arguments unmarked decode.
	typed, err := DecodeTyped(markMod{}, args(s, s, s, s))
	if err != nil {
		t.Fatal(err)
	}
	if a := typed.(*markArgs); a.Command != secret || a.Env["TOKEN"] != secret || a.Targets[1] != secret || a.Opts.Key != secret {
		t.Errorf("decoded %+v", a)
	}
}
