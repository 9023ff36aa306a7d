package fio

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// suffixed reads fio's num2str numbers: "41.6k", "1234", "2M" (base 1000).
func suffixed(s string) (float64, error) {
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "k"), strings.HasSuffix(s, "K"):
		mult, s = 1e3, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mult, s = 1e6, s[:len(s)-1]
	case strings.HasSuffix(s, "G"):
		mult, s = 1e9, s[:len(s)-1]
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return v * mult, nil
}

var byteUnits = map[string]float64{
	"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40, "PiB": 1 << 50,
	"kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "PB": 1e15,
}

// bytesOf reads "812MiB", "851MB", "4096B" into bytes.
func bytesOf(s string) (float64, error) {
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i <= 0 {
		return 0, fmt.Errorf("%q is not a size", s)
	}
	m, ok := byteUnits[s[i:]]
	v, err := strconv.ParseFloat(s[:i], 64)
	if !ok || err != nil {
		return 0, fmt.Errorf("%q is not a size", s)
	}
	return v * m, nil
}

// mibps reads "162MiB/s" or "170MB/s" into MiB/s.
func mibps(s string) (float64, error) {
	b, ok := strings.CutSuffix(s, "/s")
	if !ok {
		return 0, fmt.Errorf("%q is not a bandwidth", s)
	}
	v, err := bytesOf(b)
	if err != nil {
		return 0, fmt.Errorf("%q is not a bandwidth", s)
	}
	return v / (1 << 20), nil
}

// usPer is the number of µs in fio's latency units.
var usPer = map[string]float64{"nsec": 1e-3, "usec": 1, "msec": 1e3, "sec": 1e6}
