package hclfast

import (
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// navigation is the file's Nav: what hcl's diagnostic writer asks a file
// for the "in host ..." context of a snippet (ContextString) and editors
// for the definition around an offset (ContextDefRange). hclsyntax's own
// Nav is an unexported type with no constructor, so this one does what
// it does: the top-level block whose range holds the offset, named by its
// type and quoted labels. TestSameTreeAsHCLSyntax and FuzzSameTree hold
// both methods to hclsyntax's Nav of the same source.
type navigation struct {
	root *hclsyntax.Body
}

func (n navigation) block(offset int) *hclsyntax.Block {
	for _, b := range n.root.Blocks {
		if b.Range().ContainsOffset(offset) {
			return b
		}
	}
	return nil
}

// ContextString is the header of the top-level block around offset, ""
// outside every block.
func (n navigation) ContextString(offset int) string {
	b := n.block(offset)
	if b == nil {
		return ""
	}
	if len(b.Labels) == 0 {
		return b.Type
	}
	var s strings.Builder
	s.WriteString(b.Type)
	for _, l := range b.Labels {
		s.WriteByte(' ')
		s.WriteString(strconv.Quote(l))
	}
	return s.String()
}

// ContextDefRange is the definition range of the top-level block around
// offset, the zero range outside every block.
func (n navigation) ContextDefRange(offset int) hcl.Range {
	b := n.block(offset)
	if b == nil {
		return hcl.Range{}
	}
	return b.DefRange()
}
