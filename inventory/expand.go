package inventory

import (
	"fmt"
	"strconv"
	"strings"
)

// maxExpand bounds the number of names one range expression may produce.
const maxExpand = 65536

const rangeLetters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// ExpandRange expands Ansible-style host ranges: "gpfs[01:16]" gives gpfs01
// to gpfs16 (a leading zero fixes the width, and then both ends must have the
// same width), "n[a:c]" gives na, nb, nc, and "[1:9:2]" steps by 2. Several
// ranges in one string give their cartesian product, leftmost slowest:
// "n[1:2]x[a:b]" gives n1xa, n1xb, n2xa, n2xb. A string without brackets
// expands to itself.
func ExpandRange(s string) ([]string, error) {
	if !hasRange(s) {
		return []string{s}, nil // what the loop below gives, without its work
	}
	parts, err := rangeParts(s)
	if err != nil {
		return nil, err
	}
	total := 1
	for _, p := range parts {
		total *= len(p)
		if total > maxExpand {
			return nil, fmt.Errorf("range %q expands to more than %d names", s, maxExpand)
		}
	}
	out := make([]string, 0, total)
	idx := make([]int, len(parts))
	var sb strings.Builder
	for {
		sb.Reset()
		for i, p := range parts {
			sb.WriteString(p[idx[i]])
		}
		out = append(out, sb.String())
		i := len(parts) - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < len(parts[i]) {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return out, nil
		}
	}
}

// hasRange reports whether s contains range brackets.
func hasRange(s string) bool {
	return strings.ContainsAny(s, "[]")
}

// rangeParts splits s into literal parts (one choice each) and range parts.
func rangeParts(s string) ([][]string, error) {
	var parts [][]string
	rest := s
	for {
		open := strings.IndexByte(rest, '[')
		closeAt := strings.IndexByte(rest, ']')
		if open < 0 {
			if closeAt >= 0 {
				return nil, fmt.Errorf("range %q: unexpected \"]\"", s)
			}
			parts = append(parts, []string{rest})
			return parts, nil
		}
		if closeAt >= 0 && closeAt < open {
			return nil, fmt.Errorf("range %q: unexpected \"]\"", s)
		}
		if closeAt < 0 {
			return nil, fmt.Errorf("range %q: missing \"]\"", s)
		}
		inner := rest[open+1 : closeAt]
		if strings.IndexByte(inner, '[') >= 0 {
			return nil, fmt.Errorf("range %q: nested \"[\"", s)
		}
		vals, err := expandOne(inner)
		if err != nil {
			return nil, fmt.Errorf("range %q: %w", s, err)
		}
		if open > 0 {
			parts = append(parts, []string{rest[:open]})
		}
		parts = append(parts, vals)
		rest = rest[closeAt+1:]
	}
}

// expandOne expands the inside of one bracket pair: "beg:end" or
// "beg:end:step".
func expandOne(inner string) ([]string, error) {
	fields := strings.Split(inner, ":")
	if len(fields) < 2 || len(fields) > 3 {
		return nil, fmt.Errorf("[%s] is not of the form [start:end] or [start:end:step]", inner)
	}
	beg, end := fields[0], fields[1]
	step := 1
	if len(fields) == 3 {
		n, err := strconv.Atoi(fields[2])
		if err != nil || n < 1 {
			return nil, fmt.Errorf("step %q is not a positive integer", fields[2])
		}
		step = n
	}
	if end == "" {
		return nil, fmt.Errorf("[%s] has no end", inner)
	}
	if beg == "" {
		beg = "0"
	}
	if isDigits(beg) && isDigits(end) {
		return expandNumeric(beg, end, step)
	}
	if len(beg) == 1 && len(end) == 1 {
		b := strings.IndexByte(rangeLetters, beg[0])
		e := strings.IndexByte(rangeLetters, end[0])
		if b >= 0 && e >= 0 {
			if b > e {
				return nil, fmt.Errorf("start %q is after end %q", beg, end)
			}
			var out []string
			for i := b; i <= e; i += step {
				out = append(out, rangeLetters[i:i+1])
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("[%s]: start and end must both be numbers or both single letters", inner)
}

func expandNumeric(beg, end string, step int) ([]string, error) {
	if len(beg) > 9 || len(end) > 9 {
		return nil, fmt.Errorf("numbers %q and %q are too long", beg, end)
	}
	b, _ := strconv.Atoi(beg)
	e, _ := strconv.Atoi(end)
	if b > e {
		return nil, fmt.Errorf("start %s is after end %s", beg, end)
	}
	width := 0
	if (len(beg) > 1 && beg[0] == '0') || (len(end) > 1 && end[0] == '0') {
		if len(beg) != len(end) {
			return nil, fmt.Errorf("zero-padded start %q and end %q must have the same width", beg, end)
		}
		width = len(beg)
	}
	if (e-b)/step+1 > maxExpand {
		return nil, fmt.Errorf("[%s:%s] has more than %d values", beg, end, maxExpand)
	}
	out := make([]string, 0, (e-b)/step+1)
	for i := b; i <= e; i += step {
		out = append(out, fmt.Sprintf("%0*d", width, i))
	}
	return out, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
