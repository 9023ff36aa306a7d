package hclfast

import (
	"reflect"
	"unsafe"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// hcl.File.Nav of a file from hclsyntax.ParseConfig is hclsyntax's
// unexported navigation{root: body}, which hcl's diagnostic writer uses
// for the "in host ..." context of a snippet. There is no constructor for
// it, so Parse makes one of the type that ParseConfig itself returns, and
// sets its only field. navOK is false when that type is not, as expected,
// a struct of one *hclsyntax.Body field (another hcl version): Parse then
// declines every file, the differential test's check that the fast path
// took the common inventories fails, and nothing else changes.
var (
	navType = func() reflect.Type {
		f, _ := hclsyntax.ParseConfig(nil, "", hcl.InitialPos)
		return reflect.TypeOf(f.Nav)
	}()
	navOK = navType != nil && navType.Kind() == reflect.Struct && navType.NumField() == 1 &&
		navType.Field(0).Type == reflect.TypeOf((*hclsyntax.Body)(nil))
)

func navFor(body *hclsyntax.Body) any {
	v := reflect.New(navType).Elem()
	*(**hclsyntax.Body)(unsafe.Pointer(v.Field(0).UnsafeAddr())) = body
	return v.Interface()
}
