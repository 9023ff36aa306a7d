package ui

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// clean makes one line of remote output safe to print: carriage returns
// are dropped and other control characters (escape sequences included)
// are shown in caret notation, so a host cannot move the cursor or change
// colours on the operator's terminal.
func clean(s string) string {
	needs := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			needs = true
			break
		}
	}
	if !needs {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\r':
		case c == '\t' || (c >= 0x20 && c != 0x7f):
			b.WriteByte(c)
		case c == 0x7f:
			b.WriteString("^?")
		default:
			b.WriteByte('^')
			b.WriteByte(c + '@')
		}
	}
	return b.String()
}

// lines splits text into lines without trailing newline.
func lines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// pad left-aligns s in a field of width runes.
func pad(s string, width int) string {
	if n := utf8.RuneCountInString(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}

// truncate cuts s to at most width runes (0: no limit).
func truncate(s string, width int) string {
	if width <= 0 || utf8.RuneCountInString(s) <= width {
		return s
	}
	r := []rune(s)
	if width == 1 {
		return string(r[:1])
	}
	return string(r[:width-1]) + "…"
}

// duration renders d for people: 850ms, 2.1s, 1m05s, 1h02m.
func duration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		d = d.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	d = d.Round(time.Minute)
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// seconds renders a float number of seconds like duration.
func seconds(s float64) string {
	return duration(time.Duration(s * float64(time.Second)))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
