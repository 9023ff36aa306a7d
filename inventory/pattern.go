package inventory

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Select returns the hosts matching an Ansible host pattern, in inventory
// declaration order and without duplicates.
//
// A pattern is a list of terms separated by ":" or "," (when the pattern
// contains a comma, only commas separate, so a term may contain ":"). A term
// is "all" or "*" (every host), a group name (its hosts, including those of
// child groups), a host name, a glob with "*" and "?" (matching group and
// host names), "~regex" (matched from the start of group and host names), or
// a name with ranges such as "gpfs[01:03]". A term prefixed with "&"
// intersects and "!" excludes; as in Ansible, all plain terms are applied
// first, then intersections, then exclusions, and a pattern of only "&" and
// "!" terms starts from all hosts.
//
// Select fails when a term matches no host or group name (naming it, with a
// suggestion for a mistyped name) and when the whole pattern selects no
// host.
func (inv *Inventory) Select(pattern string) ([]*Host, error) {
	sel, err := inv.selectMask(pattern)
	if err != nil {
		return nil, err
	}
	out := make([]*Host, 0, len(inv.Hosts))
	for i, ok := range sel {
		if ok {
			out = append(out, inv.Hosts[i])
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("pattern %q matches no hosts", pattern)
	}
	return out, nil
}

// SelectList returns the union of the hosts matching each pattern, in
// declaration order and without duplicates.
func (inv *Inventory) SelectList(patterns []string) ([]*Host, error) {
	if len(patterns) == 0 {
		return nil, errors.New("no host patterns given")
	}
	sel := make([]bool, len(inv.Hosts))
	var errs []error
	for _, p := range patterns {
		m, err := inv.selectMask(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		hit := false
		for i, ok := range m {
			if ok {
				sel[i], hit = true, true
			}
		}
		if !hit {
			errs = append(errs, fmt.Errorf("pattern %q matches no hosts", p))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	var out []*Host
	for i, ok := range sel {
		if ok {
			out = append(out, inv.Hosts[i])
		}
	}
	return out, nil
}

// selectMask evaluates a pattern to a mask over inv.Hosts.
func (inv *Inventory) selectMask(pattern string) ([]bool, error) {
	terms := splitPattern(pattern)
	if len(terms) == 0 {
		return nil, fmt.Errorf("empty host pattern %q", pattern)
	}
	var plain, and, not []string
	for _, t := range terms {
		switch t[0] {
		case '&':
			and = append(and, t[1:])
		case '!':
			not = append(not, t[1:])
		default:
			plain = append(plain, t)
		}
	}
	if len(plain) == 0 {
		plain = []string{"all"}
	}
	idx := inv.index()
	sel := make([]bool, len(inv.Hosts))
	tmp := make([]bool, len(inv.Hosts))
	for _, t := range plain {
		if err := inv.matchTerm(t, idx, sel); err != nil {
			return nil, err
		}
	}
	for _, t := range and {
		clear(tmp)
		if err := inv.matchTerm(t, idx, tmp); err != nil {
			return nil, err
		}
		for i := range sel {
			sel[i] = sel[i] && tmp[i]
		}
	}
	for _, t := range not {
		clear(tmp)
		if err := inv.matchTerm(t, idx, tmp); err != nil {
			return nil, err
		}
		for i := range sel {
			sel[i] = sel[i] && !tmp[i]
		}
	}
	return sel, nil
}

// splitPattern splits a pattern into trimmed, non-empty terms.
func splitPattern(pattern string) []string {
	var raw []string
	if strings.Contains(pattern, ",") {
		raw = strings.Split(pattern, ",")
	} else {
		depth, start := 0, 0
		for i := 0; i < len(pattern); i++ {
			switch pattern[i] {
			case '[':
				depth++
			case ']':
				depth--
			case ':':
				if depth <= 0 {
					raw = append(raw, pattern[start:i])
					start = i + 1
				}
			}
		}
		raw = append(raw, pattern[start:])
	}
	var terms []string
	for _, t := range raw {
		if t = strings.TrimSpace(t); t != "" {
			terms = append(terms, t)
		}
	}
	return terms
}

// matchTerm marks in mask the hosts a term selects.
func (inv *Inventory) matchTerm(term string, idx map[string]int, mask []bool) error {
	if term == "" {
		return fmt.Errorf("host pattern term is empty after \"&\" or \"!\"")
	}
	if term == "all" || term == "*" {
		for i := range mask {
			mask[i] = true
		}
		return nil
	}
	if strings.HasPrefix(term, "~") {
		re, err := regexp.Compile("^(?:" + term[1:] + ")")
		if err != nil {
			return fmt.Errorf("host pattern %q: bad regular expression: %w", term, err)
		}
		if !inv.matchNames(re.MatchString, idx, mask) {
			return fmt.Errorf("host pattern %q matches no host or group", term)
		}
		return nil
	}
	names := []string{term}
	if hasRange(term) {
		var err error
		if names, err = ExpandRange(term); err != nil {
			return fmt.Errorf("host pattern: %w", err)
		}
	}
	if len(names) == 1 && !strings.ContainsAny(term, "*?[") {
		if inv.markName(term, idx, mask) {
			return nil
		}
		if s := inv.suggest(term); s != "" {
			return fmt.Errorf("host pattern %q: no host or group of that name; did you mean %q?", term, s)
		}
		return fmt.Errorf("host pattern %q: no host or group of that name", term)
	}
	found := false
	for _, n := range names {
		if strings.ContainsAny(n, "*?") {
			if inv.matchNames(func(s string) bool { return globMatch(n, s) }, idx, mask) {
				found = true
			}
		} else if inv.markName(n, idx, mask) {
			found = true
		}
	}
	if !found {
		return fmt.Errorf("host pattern %q matches no host or group", term)
	}
	return nil
}

// markName marks the group or else the host called name.
func (inv *Inventory) markName(name string, idx map[string]int, mask []bool) bool {
	if g, ok := inv.Groups[name]; ok {
		for _, h := range g.Hosts {
			if i, ok := idx[h]; ok {
				mask[i] = true
			}
		}
		return true
	}
	if i, ok := idx[name]; ok {
		mask[i] = true
		return true
	}
	return false
}

// matchNames marks the hosts of every matching group and every matching
// host; it reports whether any name matched.
func (inv *Inventory) matchNames(match func(string) bool, idx map[string]int, mask []bool) bool {
	found := false
	for name, g := range inv.Groups {
		if !match(name) {
			continue
		}
		found = true
		for _, h := range g.Hosts {
			if i, ok := idx[h]; ok {
				mask[i] = true
			}
		}
	}
	for i, h := range inv.Hosts {
		if match(h.Name) {
			mask[i], found = true, true
		}
	}
	return found
}

// globMatch matches name against a glob where "*" is any run of characters
// and "?" any one character.
func globMatch(glob, name string) bool {
	g, n := 0, 0
	star, mark := -1, 0
	for n < len(name) {
		switch {
		case g < len(glob) && (glob[g] == '?' || glob[g] == name[n]):
			g++
			n++
		case g < len(glob) && glob[g] == '*':
			star, mark = g, n
			g++
		case star >= 0:
			g = star + 1
			mark++
			n = mark
		default:
			return false
		}
	}
	for g < len(glob) && glob[g] == '*' {
		g++
	}
	return g == len(glob)
}
