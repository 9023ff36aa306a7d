package gpfs

import (
	"slices"
	"strings"

	"github.com/provadev/prova/lab/sim"
)

// Mmlsconfig simulates mmlsconfig [attr...] [-Y]: the stored (configured)
// values, in mmfs.cfg order with [node list] / [class] / [common] headers
// (samples/gpfs/mmlsconfig-clean-4.2.3-PARTIAL.txt), or the colon format
// "mmlsconfig::HEADER:version:reserved:reserved:configParameter:value:nodeList:".
func Mmlsconfig() sim.Tool { return command("mmlsconfig", runMmlsconfig) }

func runMmlsconfig(s *session) (int, bool) {
	y := false
	var want []string
	for _, a := range s.e.Args {
		switch {
		case a == "-Y":
			y = true
		case strings.HasPrefix(a, "-"):
			s.err("mmlsconfig: Incorrect option: %s\nUsage: mmlsconfig [Attribute[ Attribute ...]] [-Y]\n", a)
			return 1, false
		default:
			want = append(want, a)
		}
	}
	c := s.c
	if y {
		s.out("mmlsconfig::HEADER:version:reserved:reserved:configParameter:value:nodeList:\n")
		for _, kv := range s.entries(want) {
			if kv.missing {
				continue
			}
			s.out("mmlsconfig::0:1:::%s:%s:%s:\n", yEncode(kv.attr), yEncode(kv.value), yEncode(kv.key))
		}
		return 0, false
	}
	if len(want) > 0 {
		status := 0
		for _, kv := range s.entries(want) {
			if kv.missing {
				s.err("mmlsconfig: No value for attribute %s\n", kv.attr)
				status = 1
				continue
			}
			if kv.key == "" {
				s.out("%s %s\n", kv.attr, kv.value)
			} else {
				s.out("%s %s [%s]\n", kv.attr, kv.value, kv.key)
			}
		}
		return status, false
	}
	title := "Configuration data for cluster " + c.Name + ":"
	s.out("%s\n%s\n", title, strings.Repeat("-", len(title)))
	for i, st := range c.Stanzas {
		if i > 0 {
			key := st.Key
			if key == "" {
				key = "common"
			}
			s.out("[%s]\n", key)
		}
		for _, kv := range st.Attrs {
			s.out("%s %s\n", kv.Attr, kv.Value)
		}
	}
	fs := "File systems in cluster " + c.Name + ":"
	list := "(none)"
	if len(c.nsds()) > 0 {
		list = "/dev/" + FileSystem
	}
	s.out("\n%s\n%s\n%s\n", fs, strings.Repeat("-", len(fs)), list)
	return 0, false
}

type entry struct {
	attr, value, key string
	missing          bool
}

// entries lists the stored lines, all or those of the named attributes
// (case-insensitive). A known attribute nobody set shows its default; an
// unknown one is missing.
func (s *session) entries(want []string) []entry {
	var out []entry
	for _, st := range s.c.Stanzas {
		for _, kv := range st.Attrs {
			if len(want) == 0 || slices.ContainsFunc(want, func(w string) bool { return strings.EqualFold(w, kv.Attr) }) {
				out = append(out, entry{attr: kv.Attr, value: kv.Value, key: st.Key})
			}
		}
	}
	for _, w := range want {
		if slices.ContainsFunc(out, func(e entry) bool { return strings.EqualFold(e.attr, w) }) {
			continue
		}
		name, a, ok := lookupAttr(w)
		switch {
		case !ok:
			out = append(out, entry{attr: w, missing: true})
		case a.def == "":
			out = append(out, entry{attr: name, value: "(undefined)"})
		default:
			out = append(out, entry{attr: name, value: a.def})
		}
	}
	return out
}
