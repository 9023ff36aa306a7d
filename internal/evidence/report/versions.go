package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/provadev/prova/internal/evidence/record"
)

// Version is one tool version and the hosts it was seen on.
type Version struct {
	Tool  string   `json:"tool"`
	Value string   `json:"value"`
	Hosts []string `json:"hosts"`
}

// versionsOf collects every result attribute whose name ends in "version"
// (and the entries of an attribute "versions" that is an object), per
// host, grouped by tool and value.
func versionsOf(rec *record.Record, hosts []string) []Version {
	seen := map[[2]string]map[string]bool{}
	add := func(tool string, v any, host string) {
		var s string
		switch x := v.(type) {
		case string:
			s = strings.TrimSpace(x)
		case float64, int, int64:
			s = fmt.Sprint(x)
		default:
			return
		}
		if s == "" {
			return
		}
		k := [2]string{tool, s}
		if seen[k] == nil {
			seen[k] = map[string]bool{}
		}
		seen[k][host] = true
	}
	for _, s := range rec.Steps {
		for h, hr := range s.Hosts {
			for k, v := range hr.Result {
				lk := strings.ToLower(k)
				switch {
				case lk == "version":
					add(toolOf(s), v, h) // the ofed module's "version"
				case strings.HasSuffix(lk, "version"):
					add(k, v, h)
				case lk == "versions":
					if m, ok := v.(map[string]any); ok {
						for tool, tv := range m {
							add(tool, tv, h)
						}
					}
				}
			}
		}
	}
	out := make([]Version, 0, len(seen))
	for k, hs := range seen {
		out = append(out, Version{Tool: k[0], Value: k[1], Hosts: orderHosts(sortedSet(hs), hosts)})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Tool != out[j].Tool {
			return out[i].Tool < out[j].Tool
		}
		return out[i].Value < out[j].Value
	})
	return out
}

// toolOf names a bare "version" attribute after its step's module.
func toolOf(s record.Step) string {
	if s.Module != "" {
		return s.Module + " version"
	}
	return s.Step + " version"
}
