package benchfanout

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// TreePSS returns the summed proportional set size, in bytes, of pid and
// every live descendant (found through /proc/PID/task/TID/children). PSS
// shares each shared page among the processes mapping it, so the sum is
// the tree's real footprint. Processes that exit while being read are
// skipped; a pid that does not exist gives 0.
func TreePSS(pid int) int64 {
	var total int64
	walkTree(pid, func(p int) { total += pss(p) })
	return total
}

// walkTree calls fn for pid and every descendant found while walking,
// each once, a parent before its children.
func walkTree(pid int, fn func(p int)) {
	seen := map[int]bool{}
	stack := []int{pid}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[p] {
			continue
		}
		seen[p] = true
		fn(p)
		stack = append(stack, children(p)...)
	}
}

// children lists the child pids of every thread of pid.
func children(pid int) []int {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// pss reads the Pss line of /proc/PID/smaps_rollup, in bytes.
func pss(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/smaps_rollup")
	if err != nil {
		return 0
	}
	return parsePSS(b)
}

// parsePSS returns the "Pss:" value of a smaps_rollup text in bytes, or 0
// when it has none.
func parsePSS(b []byte) int64 {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "Pss:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb * 1024
		}
	}
	return 0
}
