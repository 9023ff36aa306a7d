package hostlist

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Fold writes host names the way Slurm folds a hostlist: names that
// share a prefix and end in a number become one bracketed list of ranges,
// gpfs01,gpfs02,gpfs03,gpfs05 -> gpfs[01-03,05]. A range keeps the zero
// padding of its first number (gpfs2 and gpfs02 never fold together);
// names without a trailing number stay as they are. Groups appear in the
// order their first name appears; numbers within a group are sorted.
func Fold(names []string) string {
	type num struct {
		n      uint64
		digits string
	}
	var order []string
	groups := map[string][]num{}
	seen := map[string]bool{}
	for _, h := range names {
		if seen[h] {
			continue
		}
		seen[h] = true
		i := len(h)
		for i > 0 && h[i-1] >= '0' && h[i-1] <= '9' {
			i--
		}
		n, err := strconv.ParseUint(h[i:], 10, 64)
		if i == len(h) || err != nil || len(h)-i > 18 {
			order = append(order, "\x00"+h) // no trailing number: as it is
			continue
		}
		p := h[:i]
		if _, ok := groups[p]; !ok {
			order = append(order, p)
		}
		groups[p] = append(groups[p], num{n, h[i:]})
	}
	parts := make([]string, 0, len(order))
	for _, p := range order {
		if lit, ok := strings.CutPrefix(p, "\x00"); ok {
			parts = append(parts, lit)
			continue
		}
		nums := groups[p]
		if len(nums) == 1 {
			parts = append(parts, p+nums[0].digits)
			continue
		}
		sort.SliceStable(nums, func(i, j int) bool { return nums[i].n < nums[j].n })
		var ranges []string
		for i := 0; i < len(nums); {
			lo := nums[i]
			w := len(lo.digits)
			j := i
			for j+1 < len(nums) && nums[j+1].n == nums[j].n+1 && fmt.Sprintf("%0*d", w, nums[j+1].n) == nums[j+1].digits {
				j++
			}
			if j == i {
				ranges = append(ranges, lo.digits)
			} else {
				ranges = append(ranges, lo.digits+"-"+nums[j].digits)
			}
			i = j + 1
		}
		if len(ranges) == 1 && !strings.Contains(ranges[0], "-") {
			parts = append(parts, p+ranges[0])
			continue
		}
		parts = append(parts, p+"["+strings.Join(ranges, ",")+"]")
	}
	return strings.Join(parts, ",")
}
