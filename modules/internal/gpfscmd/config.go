package gpfscmd

import (
	"context"
	"strings"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/gpfs"
)

// Config runs mmlsconfig -Y on h and parses it.
func Config(ctx context.Context, h module.Host) (*gpfs.Config, string, error) {
	out, err := Run(ctx, h, "mmlsconfig", MM("mmlsconfig", "-Y"))
	if err != nil {
		return nil, out.Stdout, err
	}
	c, err := gpfs.ParseMmlsconfigY([]byte(out.Stdout))
	if err != nil {
		return nil, out.Stdout, ParseFailure(h, err)
	}
	return c, out.Stdout, nil
}

// Diag runs mmdiag --config -Y on h: the values the running daemon uses.
// When the daemon is not running mmdiag fails; running is then false, d is
// nil and down holds what mmdiag said.
func Diag(ctx context.Context, h module.Host) (d *gpfs.DiagConfig, raw string, running bool, down string, err error) {
	out, err := Probe(ctx, h, MM("mmdiag", "--config", "-Y"))
	if err != nil {
		return nil, out.Stdout, false, "", err
	}
	if NotInstalled(out) {
		return nil, out.Stdout, false, "", Failure(h, "mmdiag", out)
	}
	if out.RC != 0 {
		return nil, out.Stdout, false, LastLine(out), nil
	}
	d, err = gpfs.ParseMmdiagConfigY([]byte(out.Stdout))
	if err != nil {
		return nil, out.Stdout, true, "", ParseFailure(h, err)
	}
	return d, out.Stdout, true, "", nil
}

// Default returns the GPFS default of attributes whose default is fixed
// across releases (verbsRdma, verbsRdmaSend, verbsPorts); ok is false for
// the others, whose default depends on the release or the node.
func Default(attr string) (string, bool) {
	switch strings.ToLower(attr) {
	case "verbsrdma":
		return "disable", true
	case "verbsrdmasend":
		return "no", true
	case "verbsports":
		return "", true
	}
	return "", false
}

// Configured returns the value of attr that applies to node (its own
// section, else one of its classes, else the cluster-wide value). When
// nothing is set it returns the attribute's fixed default, if it has one;
// set is false then.
func Configured(c *gpfs.Config, attr, node string, classes []string) (value string, set bool) {
	if v, ok := c.Effective(attr, node, classes); ok {
		return v, true
	}
	d, _ := Default(attr)
	return d, false
}

// ScopeValue returns the configured value of attr for the nodes an
// mmchconfig -N would change: nodes is empty for the whole cluster (the
// cluster-wide value), else node names or node classes, each resolved to
// the value of its own section or the cluster-wide one. mixed is true when
// they differ; value is then the first.
func ScopeValue(c *gpfs.Config, attr string, nodes []string) (value string, set, mixed bool) {
	if len(nodes) == 0 {
		for _, e := range c.Values(attr) {
			if len(e.Nodes) == 0 {
				value, set = e.Value, true
			}
		}
		return value, set, false
	}
	for i, n := range nodes {
		v, ok := c.Effective(attr, n, []string{n})
		if i == 0 {
			value, set = v, ok
			continue
		}
		if ok != set || !SameValue(attr, v, value) {
			mixed = true
		}
	}
	return value, set, mixed
}

var trueWords = map[string]bool{"yes": true, "enable": true, "enabled": true, "true": true, "1": true, "on": true}
var falseWords = map[string]bool{"no": true, "disable": true, "disabled": true, "false": true, "0": true, "off": true}

// SameValue reports whether two printed values of attr mean the same:
// equal once runs of spaces are collapsed, or equal as sizes ("4G" and
// "4294967296"), or both yes/enable/1 or both no/disable/0. "DEFAULT" in a
// request means the default, which only Default knows.
func SameValue(attr, a, b string) bool {
	a, b = strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " ")
	if a == b || strings.EqualFold(a, b) && !strings.Contains(strings.ToLower(attr), "ports") {
		return true
	}
	la, lb := strings.ToLower(a), strings.ToLower(b)
	if (trueWords[la] && trueWords[lb]) || (falseWords[la] && falseWords[lb]) {
		return true
	}
	sa, errA := ParseSize(a)
	sb, errB := ParseSize(b)
	return errA == nil && errB == nil && sa == sb
}
