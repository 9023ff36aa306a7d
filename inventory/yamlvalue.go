package inventory

import (
	"fmt"
	"math"

	"github.com/zclconf/go-cty/cty"
	"gopkg.in/yaml.v3"
)

// value converts a YAML node to a cty value: mappings become objects,
// sequences tuples, and scalars follow their resolved YAML tag.
func (p *yamlParser) value(n *yaml.Node, depth int) (cty.Value, error) {
	p.budget--
	if p.budget < 0 || depth > 100 {
		return cty.NilVal, fmt.Errorf("value is too large or too deeply nested")
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return cty.NilVal, fmt.Errorf("unknown alias")
		}
		return p.value(n.Alias, depth+1)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return cty.NullVal(cty.DynamicPseudoType), nil
		}
		return p.value(n.Content[0], depth+1)
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			return cty.EmptyTupleVal, nil
		}
		elems := make([]cty.Value, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := p.value(c, depth+1)
			if err != nil {
				return cty.NilVal, err
			}
			elems = append(elems, v)
		}
		return cty.TupleVal(elems), nil
	case yaml.MappingNode:
		attrs := map[string]cty.Value{}
		if err := p.mapping(n, attrs, depth); err != nil {
			return cty.NilVal, err
		}
		return cty.ObjectVal(attrs), nil
	}
	return p.scalar(n), nil
}

// scalar resolves a scalar as Ansible does. A plain, untagged scalar
// follows PyYAML's YAML 1.1 rules (yaml11Scalar), or JSON's when the file
// is JSON; a quoted or tagged one its YAML tag.
func (p *yamlParser) scalar(n *yaml.Node) cty.Value {
	if n.Kind == yaml.ScalarNode && n.Style&(yaml.TaggedStyle|yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
		if p.json {
			return jsonScalar(n.Value)
		}
		return yaml11Scalar(n.Value)
	}
	return scalarValue(n)
}

// mapping adds the pairs of n to attrs, following "<<" merge keys.
func (p *yamlParser) mapping(n *yaml.Node, attrs map[string]cty.Value, depth int) error {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, vn := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			src := deref(vn)
			var maps []*yaml.Node
			switch {
			case src != nil && src.Kind == yaml.MappingNode:
				maps = []*yaml.Node{src}
			case src != nil && src.Kind == yaml.SequenceNode:
				for _, c := range src.Content {
					if c = deref(c); c != nil && c.Kind == yaml.MappingNode {
						maps = append(maps, c)
					}
				}
			}
			for _, m := range maps {
				if depth > 100 {
					return fmt.Errorf("merge keys nested too deeply")
				}
				if err := p.mapping(m, attrs, depth+1); err != nil {
					return err
				}
			}
			continue
		}
		if k.Kind != yaml.ScalarNode {
			return fmt.Errorf("mapping key at line %d is not a string", k.Line)
		}
		v, err := p.value(vn, depth+1)
		if err != nil {
			return err
		}
		attrs[k.Value] = v
	}
	return nil
}

func scalarValue(n *yaml.Node) cty.Value {
	switch n.ShortTag() {
	case "!!null":
		return cty.NullVal(cty.DynamicPseudoType)
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			return cty.BoolVal(b)
		}
	case "!!int":
		var i int64
		if n.Decode(&i) == nil {
			return cty.NumberIntVal(i)
		}
		var u uint64
		if n.Decode(&u) == nil {
			return cty.NumberUIntVal(u)
		}
	case "!!float":
		var f float64
		if n.Decode(&f) == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return cty.NumberFloatVal(f)
		}
	}
	return cty.StringVal(n.Value)
}

func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}
