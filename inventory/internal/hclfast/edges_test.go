package hclfast_test

import "testing"

// edges are files at the subset's edges, each with whether the fast path
// must take it. A taken file must also parse to hclsyntax's tree with no
// diagnostic (check); a declined one goes to hclsyntax.
var edges = []struct {
	name string
	src  string
	take bool
}{
	{"empty file", "", true},
	{"blank lines only", "\n\n  \n", true},
	{"one attribute, no newline at EOF", `a = "x"`, true},
	{"block, no newline at EOF", "b \"l\" {\n}", true},
	{"empty block on one line", "b {}\n", true},
	{"two labels", "b \"x\" \"y\" {\n  a = 1\n}\n", true},
	{"nested blocks", "a {\n  b \"c\" {\n    d {\n      e = true\n    }\n  }\n}\n", true},
	{"CRLF", "host \"h\" {\r\n  address = \"10.0.0.1\"\r\n  vars = {\r\n    a = 1\r\n  }\r\n}\r\n", true},
	{"comments everywhere", "# top\n// also\n/* block\n comment */ host \"h\" { # after brace\n  port = 22 // after value\n  /* before */ user = /* inside */ \"root\" /* after */\n  vars = { # in object\n    a = 1 # after item\n  }\n} # after block\n# at EOF without newline", true},
	{"comment CRLF", "a = 1 # c\r\nb = 2\r\n", true},
	{"tabs", "a\t=\t\"x\ty\"\n", true},
	{"escapes", `a = "q\"b\\n\n\t\r"` + "\n", true},
	{"empty strings", "b \"\" {\n  a = \"\"\n  v = { \"\" = \"\" }\n}\n", true},
	{"numbers", "a = [0, 007, 999999999999999999, 1000000000000000000, 7, 1.50, 1e3, 1E+3, 2.5e-3, 12345678901234567890123456789, 0.1]\n", true},
	{"true false null", "a = [true, false, null]\n", true},
	{"tuples", "a = []\nb = [1,]\nc = [\n  1,\n  2,\n]\nd = [[], [[1]], {}]\n", true},
	{"objects", "a = {}\nb = { k = 1, \"k2\" = 2, k3: 3, }\nc = {\n  x = 1\n  y = { z = [1] },\n}\nd = { a-b = 1, _c = 2 }\n", true},
	{"duplicate object key", "a = { k = 1, k = 2 }\n", true},
	{"object key for in the middle", "a = { x = 1, for = 2 }\n", false},

	{"duplicate attribute", "a = 1\na = 2\n", false},
	{"single-line block", "b { a = 1 }\n", false},
	{"two items on a line", "a = 1 b = 2\n", false},
	{"missing newline before brace", "b {\n  a = 1 }\n", false},
	{"block after block on the same line", "a {\n} b {\n}\n", false},
	{"unclosed block", "b {\n  a = 1\n", false},
	{"unclosed string", "a = \"x\n", false},
	{"interpolation", `a = "${x}"` + "\n", false},
	{"escaped interpolation", `a = "$${x}"` + "\n", false},
	{"directive", `a = "%{if x}y%{endif}"` + "\n", false},
	{"escaped directive", `a = "%%{x}"` + "\n", false},
	{"lone dollar", `a = "5$"` + "\n", false},
	{"unicode escape", `a = "\u00e9"` + "\n", false},
	{"bad escape", `a = "\q"` + "\n", false},
	{"heredoc", "a = <<EOT\nx\nEOT\n", false},
	{"negative number", "a = -1\n", false},
	{"hex", "a = 0x1\n", false},
	{"trailing dot", "a = 1.\n", false},
	{"two dots", "a = 1..2\n", false},
	{"exponent without digits", "a = 1e\n", false},
	{"non-ASCII", "a = \"café\"\n", false},
	{"BOM", "\xef\xbb\xbfa = 1\n", false},
	{"reference", "a = b\n", false},
	{"traversal key", "a = { b.c = 1 }\n", false},
	{"paren key", "a = { (b) = 1 }\n", false},
	{"number key", "a = { 1 = 1 }\n", false},
	{"keyword key", "a = { true = 1 }\n", false},
	{"function", "a = f(1)\n", false},
	{"operator", "a = 1 + 2\n", false},
	{"operator on the next line in a tuple", "a = [1\n+ 2]\n", false},
	{"conditional", "a = true ? 1 : 2\n", false},
	{"equality", "a = 1 == 1\n", false},
	{"index", "a = [1][0]\n", false},
	{"for tuple", "a = [for x in y : x]\n", false},
	{"for object", "a = {for k, v in y : k => v}\n", false},
	{"newline after equals", "a =\n1\n", false},
	{"comment after equals", "a = # c\n1\n", false},
	{"newline before object value", "a = { b =\n1 }\n", false},
	{"double comma in tuple", "a = [1,,2]\n", false},
	{"leading comma in tuple", "a = [,]\n", false},
	{"comma after newline in object", "a = {\n  b = 1\n  , c = 2\n}\n", false},
	{"missing separator in object", "a = { b = 1 c = 2 }\n", false},
	{"quoted attribute name", "\"a\" = 1\n", false},
	{"identifier label", "b l {\n}\n", false},
	{"closing brace at top", "}\n", false},
	{"lone CR", "a = 1\rb = 2\n", false},
	{"unterminated block comment", "/* x\na = 1\n", false},
	{"semicolon", "a = 1;\n", false},
}

func TestEdges(t *testing.T) {
	for _, e := range edges {
		taken, err := check([]byte(e.src), "edge.hcl")
		if err != nil {
			t.Errorf("%s: %v", e.name, err)
		}
		if taken != e.take {
			t.Errorf("%s: taken %t, want %t", e.name, taken, e.take)
		}
	}
}
