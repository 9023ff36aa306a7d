package bench

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// binarySize reads "4K", "1m", "10G", "4096" (powers of 1024, as elbencho
// and fio read sizes).
func binarySize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "b")
	t = strings.TrimSuffix(strings.TrimSuffix(t, "i"), "I")
	if t != "" {
		switch strings.ToUpper(t[len(t)-1:]) {
		case "K":
			mult = 1 << 10
		case "M":
			mult = 1 << 20
		case "G":
			mult = 1 << 30
		case "T":
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:len(t)-1]
		}
	}
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil || v <= 0 || v > math.MaxInt64/mult {
		return 0, fmt.Errorf("invalid size %q", s)
	}
	return v * mult, nil
}

// humanMs is elbencho's elapsed time: "61ms", "2.000s", "1m0.262s", "1h0m0s".
func humanMs(d time.Duration) string {
	ms := d.Milliseconds()
	sec := ms / 1000
	h, m, s, rest := sec/3600, sec%3600/60, sec%60, ms%1000
	switch {
	case h > 0:
		return fmt.Sprintf("%dh%dm%ds", h, m, s)
	case m > 0:
		return fmt.Sprintf("%dm%d.%03ds", m, s, rest)
	case s > 0:
		return fmt.Sprintf("%d.%03ds", s, rest)
	}
	return fmt.Sprintf("%dms", rest)
}

// humanUs is elbencho's latency: "123us", "1.23ms", "12.3ms", "123ms", "1.23s".
func humanUs(v float64) string {
	us := uint64(v)
	switch {
	case us < 1000:
		return fmt.Sprintf("%dus", us)
	case us < 10_000:
		return fmt.Sprintf("%.2fms", float64(us)/1000)
	case us < 100_000:
		return fmt.Sprintf("%.1fms", float64(us)/1000)
	case us < 1_000_000:
		return fmt.Sprintf("%.0fms", float64(us)/1000)
	case us < 10_000_000:
		return fmt.Sprintf("%.2fs", float64(us)/1e6)
	case us < 100_000_000:
		return fmt.Sprintf("%.1fs", float64(us)/1e6)
	}
	return fmt.Sprintf("%.0fs", float64(us)/1e6)
}

// latBucket is the upper bound of elbencho's latency histogram bucket
// (quarter powers of two, in µs) holding v.
func latBucket(v float64) int64 {
	k := math.Ceil(4 * math.Log2(math.Max(v, 1)))
	return int64(math.Round(math.Pow(2, k/4)))
}
