package ui

import (
	"hash/crc32"

	"github.com/fatih/color"
)

// styles holds the colours of one Console. Each *color.Color is created
// here and switched on or off once; the global color.NoColor is never read
// or written, so consoles with different settings can coexist.
type styles struct {
	hosts                                   []*color.Color
	header, ok, changed, failed, skipped    *color.Color
	warn, dim, bold, change, unknown, retry *color.Color
	gaveUp                                  *color.Color
}

func newStyles(on bool) *styles {
	s := &styles{
		header:  color.New(color.Bold),
		ok:      color.New(color.FgGreen),
		changed: color.New(color.FgYellow),
		failed:  color.New(color.FgRed, color.Bold),
		skipped: color.New(color.FgCyan),
		warn:    color.New(color.FgMagenta),
		dim:     color.New(color.Faint),
		bold:    color.New(color.Bold),
		change:  color.New(color.FgYellow),
		unknown: color.New(color.FgCyan),
		retry:   color.New(color.FgYellow),
		gaveUp:  color.New(color.FgYellow, color.Bold),
	}
	// Red is kept for failures; hosts get the other colours.
	for _, a := range []color.Attribute{
		color.FgCyan, color.FgGreen, color.FgMagenta, color.FgBlue, color.FgYellow,
		color.FgHiCyan, color.FgHiGreen, color.FgHiMagenta, color.FgHiBlue, color.FgHiYellow,
	} {
		s.hosts = append(s.hosts, color.New(a))
	}
	for _, c := range s.all() {
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
	}
	return s
}

func (s *styles) all() []*color.Color {
	return append([]*color.Color{
		s.header, s.ok, s.changed, s.failed, s.skipped,
		s.warn, s.dim, s.bold, s.change, s.unknown, s.retry, s.gaveUp,
	}, s.hosts...)
}

// host returns the colour of a host name: a stable hash, so a host keeps
// its colour from run to run.
func (s *styles) host(name string) *color.Color {
	return s.hosts[crc32.ChecksumIEEE([]byte(name))%uint32(len(s.hosts))]
}
