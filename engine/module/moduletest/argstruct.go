package moduletest

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2/hcldec"
)

// checkArgStruct checks that the `cty` tags of the struct a module decodes
// its arguments into name exactly the spec's arguments: each argument is
// declared in the spec and mirrored in the struct, and the two cannot drift
// apart (Doc.Args is held to the spec by checkDoc).
func checkArgStruct(t *testing.T, spec hcldec.Spec, ptr any) {
	t.Helper()
	rt := reflect.TypeOf(ptr)
	if rt == nil || rt.Kind() != reflect.Pointer || rt.Elem().Kind() != reflect.Struct {
		t.Errorf("NewArgs() returns %T, want a pointer to a struct", ptr)
		return
	}
	var tags []string
	for f := range rt.Elem().Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("cty"), ",")
		if name != "" {
			tags = append(tags, name)
		}
	}
	sort.Strings(tags)
	args := argNames(spec)
	for _, n := range args {
		if !slices.Contains(tags, n) {
			t.Errorf("argument %q of the spec has no field in the %s struct", n, rt.Elem())
		}
	}
	for _, n := range tags {
		if !slices.Contains(args, n) {
			t.Errorf("the %s struct has a field %q the spec does not accept", rt.Elem(), n)
		}
	}
}
