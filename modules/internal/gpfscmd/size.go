package gpfscmd

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse"
)

// ParseSize reads a GPFS size value: a number of bytes ("4294967296") or a
// number with a binary suffix K, M, G, T or P ("16G", "512M", "1T", "1.5G"),
// case-insensitive, optionally followed by "B" or "iB" ("16GiB").
func ParseSize(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("empty size")
	}
	u := strings.ToUpper(t)
	u = strings.TrimSuffix(strings.TrimSuffix(u, "IB"), "B")
	mult := uint64(1)
	if n := len(u); n > 0 {
		if k := strings.IndexByte("KMGTP", u[n-1]); k >= 0 {
			mult = 1 << (10 * (k + 1))
			u = u[:n-1]
		}
	}
	if u == "" {
		return 0, fmt.Errorf("size %q has no number", s)
	}
	if n, err := strconv.ParseUint(u, 10, 64); err == nil {
		if n > math.MaxUint64/mult {
			return 0, fmt.Errorf("size %q is too large", s)
		}
		return n * mult, nil
	}
	f, err := strconv.ParseFloat(u, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fmt.Errorf("size %q is not a number with an optional K, M, G, T or P suffix", s)
	}
	v := f * float64(mult)
	if v >= math.MaxUint64 {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return uint64(v), nil
}

// FormatSize prints bytes with the largest binary suffix that divides it
// exactly, or with one decimal when none does ("4G", "1.5G", "512").
func FormatSize(b uint64) string {
	for k := 4; k >= 1; k-- {
		unit := uint64(1) << (10 * k)
		if b >= unit {
			if b%unit == 0 {
				return strconv.FormatUint(b/unit, 10) + string("KMGT"[k-1])
			}
			if k >= 3 {
				return strconv.FormatFloat(float64(b)/float64(unit), 'f', 1, 64) + string("KMGT"[k-1])
			}
		}
	}
	return strconv.FormatUint(b, 10)
}

// MeminfoTool names /proc/meminfo in parse errors.
const MeminfoTool = "/proc/meminfo"

// ParseMemTotal returns MemTotal from /proc/meminfo text, in bytes.
func ParseMemTotal(data []byte) (uint64, error) {
	for i, line := range strings.Split(string(data), "\n") {
		rest, ok := strings.CutPrefix(line, "MemTotal:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 || len(f) > 2 || (len(f) == 2 && !strings.EqualFold(f[1], "kB")) {
			return 0, &parse.Error{Tool: MeminfoTool, Line: i + 1, Text: line, Reason: "expected 'MemTotal: <n> kB'"}
		}
		kb, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil || kb > math.MaxUint64/1024 {
			return 0, &parse.Error{Tool: MeminfoTool, Line: i + 1, Text: line, Reason: "MemTotal is not a number of kB"}
		}
		return kb * 1024, nil
	}
	return 0, &parse.Error{Tool: MeminfoTool, Reason: "no MemTotal line"}
}

// MemTotal reads MemTotal of h in bytes.
func MemTotal(ctx context.Context, h module.Host) (uint64, error) {
	out, err := Run(ctx, h, "cat /proc/meminfo", "cat /proc/meminfo")
	if err != nil {
		return 0, err
	}
	n, err := ParseMemTotal([]byte(out.Stdout))
	if err != nil {
		return 0, ParseFailure(h, err)
	}
	return n, nil
}
