package module

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestDecodeKnownSkipsUnknownArguments(t *testing.T) {
	type args struct {
		Mode  string            `cty:"mode"`
		Size  int               `cty:"size"`
		Ref   *string           `cty:"ref"`
		Ports []string          `cty:"ports"`
		Addrs map[string]string `cty:"addrs"`
	}
	in := cty.ObjectVal(map[string]cty.Value{
		"mode":  cty.StringVal("all"),
		"size":  cty.UnknownVal(cty.Number),
		"ref":   cty.NullVal(cty.String),
		"ports": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)}),
		"addrs": cty.MapVal(map[string]cty.Value{"n1": cty.StringVal("10.0.0.1")}),
	})
	a, known, err := DecodeKnown[args](in)
	if err != nil {
		t.Fatal(err)
	}
	if a.Mode != "all" || a.Size != 0 || a.Ref != nil || len(a.Ports) != 0 || a.Addrs["n1"] != "10.0.0.1" {
		t.Errorf("decoded %+v", a)
	}
	if !known["mode"] || known["size"] || known["ref"] || known["ports"] || !known["addrs"] {
		t.Errorf("known = %v", known)
	}
	if _, known, err := DecodeKnown[args](cty.UnknownVal(in.Type())); err != nil || len(known) != 0 {
		t.Errorf("wholly unknown: %v %v", known, err)
	}
}
