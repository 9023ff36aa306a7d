package findings

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

var numbered = regexp.MustCompile(`^(.*?)([0-9]+)$`)

// FoldHosts writes a host list compactly, as Slurm's hostlists do: names
// that differ only in a trailing number of the same width fold into a
// range, gpfs01..gpfs03 and gpfs05 into "gpfs[01-03,05]". Groups keep the
// order of their first host; other names are listed as they are.
func FoldHosts(hosts []string) string {
	type group struct {
		prefix string
		width  int
		nums   []int
		plain  string
	}
	var gs []*group
	idx := map[string]*group{}
	for _, h := range hosts {
		m := numbered.FindStringSubmatch(h)
		if m == nil {
			gs = append(gs, &group{plain: h})
			continue
		}
		n, err := strconv.Atoi(m[2])
		if err != nil || len(m[2]) > 9 {
			gs = append(gs, &group{plain: h})
			continue
		}
		// Zero-padded numbers fold with numbers of their width; plain
		// numbers (no leading zero) fold whatever their length.
		width := 0
		if len(m[2]) > 1 && m[2][0] == '0' {
			width = len(m[2])
		}
		if g, ok := idx[m[1]+"\x00"+strconv.Itoa(len(m[2]))]; ok && width == 0 && g.width == len(m[2]) {
			width = len(m[2]) // gpfs10 beside gpfs01..gpfs09
		}
		key := m[1] + "\x00" + strconv.Itoa(width)
		g, ok := idx[key]
		if !ok {
			g = &group{prefix: m[1], width: width}
			idx[key] = g
			gs = append(gs, g)
		}
		g.nums = append(g.nums, n)
	}
	var out []string
	for _, g := range gs {
		if g.plain != "" {
			out = append(out, g.plain)
			continue
		}
		nums := sortedUnique(g.nums)
		if len(nums) == 1 {
			out = append(out, fmt.Sprintf("%s%0*d", g.prefix, g.width, nums[0]))
			continue
		}
		var parts []string
		for i := 0; i < len(nums); {
			j := i
			for j+1 < len(nums) && nums[j+1] == nums[j]+1 {
				j++
			}
			if j == i {
				parts = append(parts, fmt.Sprintf("%0*d", g.width, nums[i]))
			} else {
				parts = append(parts, fmt.Sprintf("%0*d-%0*d", g.width, nums[i], g.width, nums[j]))
			}
			i = j + 1
		}
		out = append(out, g.prefix+"["+strings.Join(parts, ",")+"]")
	}
	return strings.Join(out, ",")
}

func sortedUnique(in []int) []int {
	out := append([]int(nil), in...)
	for i := 1; i < len(out); i++ { // insertion sort: lists are mostly sorted
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	u := out[:0]
	for i, n := range out {
		if i == 0 || n != out[i-1] {
			u = append(u, n)
		}
	}
	return u
}
