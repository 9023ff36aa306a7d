package gpfs

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
)

func TestMmlsnodeclassSample(t *testing.T) {
	b := samples.Read(t, "gpfs/mmlsnodeclass-user-1-class-1-node.txt")
	b = b[bytes.IndexByte(b, '\n')+1:] // the prompt line
	n, err := ParseMmlsnodeclass(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Classes) != 1 || n.Classes[0].Name != "nsdserver" || !slices.Equal(n.Classes[0].Members, []string{"node01.gpfs.mgt"}) {
		t.Fatalf("%+v", n.Classes)
	}
	// The prompt line before the header is not output: refused, naming it.
	_, err = ParseMmlsnodeclass(samples.Read(t, "gpfs/mmlsnodeclass-user-1-class-1-node.txt"))
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Line != 1 || !strings.Contains(pe.Text, "[root@qwe gpfs]#") {
		t.Fatalf("prompt line: %v", err)
	}
}

func TestMmlsnodeclassForms(t *testing.T) {
	// IBM's documented shapes: a class of classes (siteAandB), an empty
	// class, a long member list continued on an indented line (assumed).
	n, err := ParseMmlsnodeclass([]byte(`Node Class Name       Members
--------------------- -----------------------------------------------------------
siteA                 c1.example.com,c2.example.com
siteB                 c3.example.com, c4.example.com,
                      c5.example.com
siteAandB             siteA,siteB
empty
`))
	if err != nil {
		t.Fatal(err)
	}
	if got := n.Nodes("siteAandB"); !slices.Equal(got, []string{"c1.example.com", "c2.example.com", "c3.example.com", "c4.example.com", "c5.example.com"}) {
		t.Errorf("siteAandB nodes = %v", got)
	}
	if c, ok := n.Class("empty"); !ok || len(c.Members) != 0 {
		t.Errorf("empty = %+v %v", c, ok)
	}
	if n.Nodes("nosuch") != nil {
		t.Error("unknown class has nodes")
	}
	for _, bad := range []struct{ in, reason string }{
		{"", "no 'Node Class Name  Members' header"},
		{"siteA c1\n", "row before"},
		{"Node Class Name       Members\n  c1\n", "indented line before the first class row"},
		{"Node Class Name       Members\nsiteA c1\nNode Class Name       Members\n", "second header"},
		{"Node Class Name       Members\nsiteA c1\nsiteA c1\n", "a second time"},
		{"Node Class Name       Members\nsiteA c1", "cut short"},
	} {
		_, err := ParseMmlsnodeclass([]byte(bad.in))
		var pe *parse.Error
		if !errors.As(err, &pe) || pe.Tool != "mmlsnodeclass" || !strings.Contains(err.Error(), bad.reason) {
			t.Errorf("%q: %v, want %q", bad.in, err, bad.reason)
		}
	}
}

// yNodeclass is the -Y layout the lab prints; no public sample exists.
const yNodeclass = "mmlsnodeclass::HEADER:version:reserved:reserved:nodeclassName:type:memberClasses:allMembers:\n" +
	"mmlsnodeclass::0:1:::siteA:USER::c1,c2:\n" +
	"mmlsnodeclass::0:1:::siteAB:USER:siteA:c1,c2:\n" +
	"mmlsnodeclass::0:1:::quorumNodes:SYSTEM::c1:\n"

func TestMmlsnodeclassY(t *testing.T) {
	n, err := ParseMmlsnodeclassY([]byte(yNodeclass))
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Classes) != 3 || n.Classes[1].Name != "siteAB" || !slices.Equal(n.Classes[1].Members, []string{"c1", "c2"}) || n.Classes[2].Type != "system" {
		t.Fatalf("%+v", n.Classes)
	}
	// memberNodes/memberClasses without allMembers: both are members.
	n, err = ParseMmlsnodeclassY([]byte("mmlsnodeclass::HEADER:version:reserved:reserved:nodeclassName:memberNodes:memberClasses:\n" +
		"mmlsnodeclass::0:1:::ab:c9:siteA:\n"))
	if err != nil || !slices.Equal(n.Classes[0].Members, []string{"c9", "siteA"}) {
		t.Fatalf("%+v %v", n, err)
	}
	for _, bad := range []string{
		"mmlsnodeclass::HEADER:version:reserved:reserved:foo:\nmmlsnodeclass::0:1:::x:\n",
		"mmlsnodeclass::HEADER:version:reserved:reserved:nodeclassName:\nmmlsnodeclass::0:1:::x:\n",
		yNodeclass + yNodeclass,
		"",
	} {
		if _, err := ParseMmlsnodeclassY([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
