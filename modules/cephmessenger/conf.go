package cephmessenger

import (
	"fmt"
	"sort"
	"strings"
)

// Keys are the messenger settings the module reads, in ceph.conf's
// underscore form.
var Keys = []string{"ms_type", "ms_cluster_type", "ms_public_type"}

// RDMA is the messenger type the guard refuses.
const RDMA = "async+rdma"

// DefaultMsType is Ceph's default messenger.
const DefaultMsType = "async+posix"

// Conf is a parsed ceph.conf: settings by section, keys normalised.
type Conf map[string]map[string]string

// NormalizeKey gives the canonical form of a ceph.conf key: lowercase, with
// spaces and dashes as underscores ("ms type" and "ms-type" are ms_type).
func NormalizeKey(k string) string {
	k = strings.ToLower(strings.TrimSpace(k))
	k = strings.NewReplacer(" ", "_", "-", "_", "\t", "_").Replace(k)
	for strings.Contains(k, "__") {
		k = strings.ReplaceAll(k, "__", "_")
	}
	return k
}

// ParseConf reads ceph.conf text. Lines are "[section]", "key = value",
// blank, or comments starting with # or ;, which may also end a line.
// Settings before any section belong to global. A line that is none of
// these is an error naming it.
func ParseConf(text string) (Conf, error) {
	c := Conf{}
	section := "global"
	for i, raw := range strings.Split(text, "\n") {
		line := raw
		if k := strings.IndexAny(line, "#;"); k >= 0 {
			line = line[:k]
		}
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = strings.ToLower(strings.TrimSpace(line[1 : len(line)-1]))
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("ceph.conf line %d: expected [section] or key = value: %q", i+1, raw)
		}
		if c[section] == nil {
			c[section] = map[string]string{}
		}
		c[section][NormalizeKey(k)] = strings.Trim(strings.TrimSpace(v), `"`)
	}
	return c, nil
}

// chain is the sections that apply to who, most specific first: osd.3,
// osd, global.
func chain(who string) []string {
	who = strings.ToLower(who)
	out := []string{}
	if who != "" && who != "global" {
		out = append(out, who)
		if typ, _, ok := strings.Cut(who, "."); ok {
			out = append(out, typ)
		}
	}
	return append(out, "global")
}

// Effective returns the ms_* settings that apply to who: the most specific
// section wins, ms_type defaults to async+posix and the cluster and public
// messengers default to ms_type.
func (c Conf) Effective(who string) map[string]string {
	out := map[string]string{}
	for _, k := range Keys {
		for _, s := range chain(who) {
			if v, ok := c[s][k]; ok && v != "" {
				out[k] = v
				break
			}
		}
	}
	return withDefaults(out)
}

func withDefaults(m map[string]string) map[string]string {
	if m["ms_type"] == "" {
		m["ms_type"] = DefaultMsType
	}
	for _, k := range Keys[1:] {
		if m[k] == "" {
			m[k] = m["ms_type"]
		}
	}
	return m
}

// RDMAFindings lists every ms_* setting of any section that selects the
// RDMA messenger, as "[section] key = value", sorted.
func (c Conf) RDMAFindings() []string {
	var out []string
	for s, kv := range c {
		for _, f := range ScanSettings(kv) {
			out = append(out, "["+s+"] "+f)
		}
	}
	sort.Strings(out)
	return out
}

// ScanSettings lists the ms_* settings of a key/value map (ceph.conf keys
// in any spelling) that select the RDMA messenger, as "key = value",
// sorted. Runbooks use it through planned_settings.
func ScanSettings(settings map[string]string) []string {
	var out []string
	for k, v := range settings {
		nk := NormalizeKey(k)
		for _, want := range Keys {
			if nk == want && strings.EqualFold(strings.TrimSpace(v), RDMA) {
				out = append(out, nk+" = "+strings.TrimSpace(v))
			}
		}
	}
	sort.Strings(out)
	return out
}
