package nvme

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

var sizeUnits = map[string]float64{
	"B": 1, "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "PB": 1e15, "EB": 1e18,
	"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40, "PiB": 1 << 50,
}

// parseSize reads "10.74  GB" or "4 KiB" into bytes (rounded).
func parseSize(s string) (uint64, error) {
	f := strings.Fields(s)
	if len(f) != 2 {
		return 0, fmt.Errorf("size %q is not <number> <unit>", s)
	}
	v, err := strconv.ParseFloat(f[0], 64)
	mult, ok := sizeUnits[f[1]]
	if err != nil || !ok || v < 0 || math.IsInf(v, 0) || v*mult > math.MaxUint64/2 {
		return 0, fmt.Errorf("size %q is not <number> <unit>", s)
	}
	return uint64(math.Round(v * mult)), nil
}

// parseUsage reads "10.74  GB /  10.74  GB" (optionally followed by
// "( 447.13 GiB /  447.13 GiB)") into used and total bytes.
func parseUsage(s string) (used, total uint64, err error) {
	if i := strings.Index(s, "("); i >= 0 {
		s = s[:i]
	}
	u, t, ok := strings.Cut(s, "/")
	if !ok {
		return 0, 0, fmt.Errorf("usage %q is not <used> / <total>", s)
	}
	if used, err = parseSize(u); err != nil {
		return 0, 0, err
	}
	if total, err = parseSize(t); err != nil {
		return 0, 0, err
	}
	return used, total, nil
}

// parseFormat reads "512   B +  0 B" into sector and metadata size.
func parseFormat(s string) (sector, meta uint64, err error) {
	a, b, ok := strings.Cut(s, "+")
	if !ok {
		return 0, 0, fmt.Errorf("format %q is not <sector> + <metadata>", s)
	}
	if sector, err = parseSize(a); err != nil {
		return 0, 0, err
	}
	if meta, err = parseSize(b); err != nil {
		return 0, 0, err
	}
	return sector, meta, nil
}
