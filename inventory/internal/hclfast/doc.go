// Package hclfast parses the literal subset of HCL that inventories are
// written in, and makes of it exactly the tree hclsyntax.ParseConfig makes:
// the same *hcl.File with the same *hclsyntax.Body, Block, Attribute and
// expression nodes (a quoted string is a TemplateExpr of one
// LiteralValueExpr, an object key an ObjectConsKeyExpr wrapping a
// ScopeTraversalExpr or a TemplateExpr, and so on), every range with the
// same file name, line, column and byte offset, the same cty values
// (numbers at ParseNumberVal's precision) and the same Nav. Every consumer
// of the tree is unchanged.
//
// The subset: top-level and nested blocks with quoted labels, one
// attribute per line, whose values are quoted strings without
// interpolation or directives (and without "$" or "%" at all) with the
// escapes \n \r \t \" \\ or none, numbers, true, false, null, and tuples
// and objects ({ k = v, "k" = v, k: v }) of those; "#", "//" and "/* */"
// comments, blank lines, trailing commas, CRLF line ends; printable ASCII
// and tabs only.
//
// Parse declines (ok false) anything else, and anything hclsyntax would
// report a diagnostic for, warnings included: a duplicate attribute, a
// single-line block, an argument or block not followed by a newline, a
// reference, an operator, a function call, a heredoc, a negative number,
// a byte of 0x80 or more (so columns never need grapheme clusters), an
// unknown escape, "${", "$${", "%{", and so on. The caller then parses the
// file with hclsyntax, which stays the reference and the only source of
// syntax diagnostics: a file Parse takes has none, by construction.
//
// What keeps it honest: TestSameTreeAsHCLSyntax parses every HCL file of
// the repository (and every .hcl member of its txtar scripts, and the
// benchmark inventory at several sizes) both ways and compares the trees
// field by field with go-cmp, unexported fields and ranges included, and
// requires that the common inventories were taken; TestEdges does the same
// for cases at the subset's edges, each with whether it must be taken;
// FuzzSameTree requires, for any input, a decline or hclsyntax's tree
// with no diagnostic.
//
// Nav is hclsyntax's unexported navigation type, which has no
// constructor; the file's Nav is the package's own (nav.go), which names
// the top-level block around an offset as hclsyntax's does, and the
// differential tests compare both methods of the two at every block's
// edges (and at every offset of a small file).
//
// The package does not evaluate anything, report diagnostics, or parse
// HCL's JSON syntax. Names and string values are slices of one copy of
// the source, which the tree keeps alive as long as any of them.
package hclfast
