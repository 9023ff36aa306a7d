package inventory

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/zclconf/go-cty/cty"
)

// ansibleKnownDifferences are differences from ansible-inventory allowed,
// each with its reason (docs/inventory.md lists them). A key is
// "inventory|host|variable". An entry that no longer differs fails.
var ansibleKnownDifferences = map[string]string{}

// TestConformanceWithAnsible loads every inventory of
// testdata/ansible-corpus/MANIFEST through prova and through
// `ansible-inventory --list` (unparsed sources fatal), and compares the
// hosts, each group's hosts, and every host's merged variables
// (connection variables against the connection setting prova made of
// them). Values are compared as JSON text after re-encoding, so a float
// 3.0 and an integer 3 differ. An inventory the manifest marks refused
// must be refused by both; prova-refuses, read by Ansible and refused by
// prova. Under CI=true a missing ansible-inventory fails.
func TestConformanceWithAnsible(t *testing.T) {
	bin, err := exec.LookPath("ansible-inventory")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("ansible-inventory is needed for the conformance test: %v", err)
		}
		t.Skipf("no ansible-inventory: %v", err)
	}
	root := filepath.Join("testdata", "ansible-corpus")
	entries := readCorpusManifest(t, filepath.Join(root, "MANIFEST"))
	var srcs []string
	for _, e := range entries {
		srcs = append(srcs, filepath.Join(root, e.path))
	}
	// an empty ansible.cfg: Ansible's defaults, whatever the machine has
	cfg := filepath.Join(t.TempDir(), "ansible.cfg")
	if err := os.WriteFile(cfg, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	results := ansibleListAll(t, bin, cfg, srcs)
	// the batch runner must say what the command says: check it against
	// ansible-inventory itself on an INI and a YAML inventory
	check := []int{0}
	for i, e := range entries {
		if strings.HasSuffix(e.path, ".yml") && e.expect == "" {
			check = append(check, i)
			break
		}
	}
	for _, i := range check {
		if got, want := results[srcs[i]], ansibleList(bin, cfg, srcs[i]); !cmp.Equal(got, want, cmp.AllowUnexported(ansibleResult{}), cmp.Comparer(func(a, b error) bool { return (a == nil) == (b == nil) })) {
			t.Fatalf("testdata/ansible_list.py and %s disagree on %s:\n%v\n%v", bin, srcs[i], got, want)
		}
	}
	var st conformanceStats
	seen := map[string]bool{}
	t.Run("corpus", func(t *testing.T) {
		for i, e := range entries {
			t.Run(e.path, func(t *testing.T) {
				for _, k := range conformInventory(t, root, e, results[srcs[i]], &st) {
					seen[k] = true
				}
			})
		}
	})
	t.Logf("%d inventories (%d refused by both, %d refused by prova by design; %d group_vars/host_vars files read): %d of %d hosts lists, group memberships and host variables agree with %s (%d of %d variables)",
		st.inventories, st.refused, st.provaRefuses, st.varsFiles, st.agree, st.total, bin, st.varsAgree, st.vars)
	if st.inventories < len(entries) {
		return // -run picked some inventories
	}
	for k := range ansibleKnownDifferences {
		if !seen[k] {
			t.Errorf("known difference %s no longer differs: remove it", k)
		}
	}
}

// conformInventory compares one corpus entry, counting into st; it
// returns the known-difference keys it met.
func conformInventory(t *testing.T, root string, e corpusEntry, want ansibleResult, st *conformanceStats) []string {
	var seen []string
	src := filepath.Join(root, e.path)
	st.inventories++
	inv, diags := Load(src)
	switch e.expect {
	case "refused":
		if want.err == nil {
			t.Errorf("%s: marked refused, but Ansible reads it", e.path)
		}
		if !diags.HasErrors() {
			t.Errorf("%s: Ansible refuses it (%v), prova reads it", e.path, want.err)
		}
		st.refused++
		return seen
	case "prova-refuses":
		if want.err != nil {
			t.Errorf("%s: marked prova-refuses, but Ansible refuses it too: %v", e.path, want.err)
		}
		if !diags.HasErrors() {
			t.Errorf("%s: marked prova-refuses (%s), but prova reads it", e.path, e.reason)
		}
		st.provaRefuses++
		return seen
	}
	if want.err != nil {
		t.Errorf("%s: %v", e.path, want.err)
		return seen
	}
	if diags.HasErrors() {
		t.Errorf("%s: prova refuses what Ansible reads: %s", e.path, diags.Error())
		return seen
	}
	differ := func(host, what, msg string) {
		k := e.path + "|" + host + "|" + what
		seen = append(seen, k)
		if _, ok := ansibleKnownDifferences[k]; !ok {
			t.Errorf("%s %s %s: %s", e.path, host, what, msg)
		}
	}
	for _, f := range inv.Files {
		if d := filepath.Base(filepath.Dir(f)); d == "group_vars" || d == "host_vars" || strings.Contains(f, "/group_vars/") || strings.Contains(f, "/host_vars/") {
			st.varsFiles++
		}
	}
	st.total++
	wantHosts := sortedKeys(want.hostvars)
	if strings.Join(sortedStrings(inv.Names()), ",") != strings.Join(wantHosts, ",") {
		differ("", "hosts", fmt.Sprintf("ansible %v, prova %v", wantHosts, inv.Names()))
	} else {
		st.agree++
	}
	for g, hosts := range want.groups {
		st.total++
		pg, ok := inv.Groups[g]
		var got []string
		if ok {
			got = sortedStrings(pg.Hosts)
		}
		if strings.Join(got, ",") == strings.Join(hosts, ",") {
			st.agree++
		} else {
			differ("", "group "+g, fmt.Sprintf("ansible %v, prova %v", hosts, got))
		}
	}
	for _, name := range wantHosts {
		h, ok := inv.Host(name)
		if !ok {
			continue
		}
		for _, k := range sortedKeys(want.hostvars[name]) {
			st.total++
			st.vars++
			w := string(want.hostvars[name][k])
			got, ok := provaAnsibleVar(h, k, w)
			if !ok {
				differ(name, k, fmt.Sprintf("ansible %s, missing in prova", w))
				continue
			}
			if jsonText(w) == jsonText(got) {
				st.agree++
				st.varsAgree++
			} else {
				differ(name, k, fmt.Sprintf("ansible %s, prova %s", w, got))
			}
		}
	}
	return seen
}

type conformanceStats struct {
	inventories, refused, provaRefuses int
	agree, total, vars, varsAgree      int
	varsFiles                          int // group_vars/ and host_vars/ files read
}

// provaAnsibleVar is prova's value for the Ansible variable k of host h as
// JSON text: a connection variable is read back from the connection
// setting it became (w, Ansible's value, says which form to show it in),
// any other from the host's variables. ok is false when prova has no
// such variable.
func provaAnsibleVar(h *Host, k, w string) (string, bool) {
	c := h.Connection
	var ws string
	json.Unmarshal([]byte(w), &ws)
	quote := func(s string) (string, bool) { b, _ := json.Marshal(s); return string(b), true }
	switch ansibleField(k) {
	case "address":
		return quote(h.Address)
	case "port":
		if strings.HasPrefix(w, `"`) {
			return quote(strconv.Itoa(c.Port))
		}
		return strconv.Itoa(c.Port), true
	case "user":
		return quote(c.User)
	case "become_user":
		return quote(c.BecomeUser)
	case "password":
		return quote(c.Password)
	case "become_password":
		return quote(c.BecomePassword)
	case "identity":
		if len(c.IdentityFiles) != 1 {
			return fmt.Sprint(c.IdentityFiles), true
		}
		// prova resolves a relative path against the inventory's directory
		if f := c.IdentityFiles[0]; f == ws || strings.HasSuffix(f, string(filepath.Separator)+ws) {
			return w, true
		}
		return quote(c.IdentityFiles[0])
	case "become":
		if b, ok := looseBool(strings.Trim(w, `"`)); ok && b == c.Become {
			return w, true
		}
		return strconv.FormatBool(c.Become), true
	case "hostkey":
		if b, ok := looseBool(strings.Trim(w, `"`)); ok && b == (c.StrictHostKeyChecking == "yes") {
			return w, true
		}
		return quote(c.StrictHostKeyChecking)
	case "timeout":
		if d, err := durationOf(cty.StringVal(strings.Trim(w, `"`))); err == nil && d == c.ConnectTimeout {
			return w, true
		}
		return quote(c.ConnectTimeout.String())
	case "connection":
		if (strings.TrimPrefix(ws, "ansible.builtin.") == "local") == c.Local {
			return w, true
		}
		return quote(fmt.Sprintf("local=%v", c.Local))
	case "become_method":
		return w, true // accepted only when it is sudo, the one prova has
	}
	v, ok := h.Vars[k]
	if !ok {
		return "", false
	}
	return ctyToJSON(v), true
}

type corpusEntry struct {
	path, expect, reason string
}

func readCorpusManifest(t *testing.T, name string) []corpusEntry {
	t.Helper()
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []corpusEntry
	for i, line := range strings.Split(string(src), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		e := corpusEntry{path: f[0]}
		if len(f) > 1 {
			e.expect, e.reason = f[1], strings.Join(f[2:], " ")
			if (e.expect != "refused" && e.expect != "prova-refuses") || e.reason == "" {
				t.Fatalf("%s:%d: want PATH [refused|prova-refuses REASON], got %q", name, i+1, line)
			}
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(name), e.path)); err != nil {
			t.Fatalf("%s:%d: %v", name, i+1, err)
		}
		out = append(out, e)
	}
	return out
}

type ansibleResult struct {
	hostvars map[string]map[string]json.RawMessage
	groups   map[string][]string // every host of the group, children included
	err      error
}

// ansibleListAll runs testdata/ansible_list.py with the Python of the
// ansible-inventory command bin: `ansible-inventory -i SRC --list` for
// every source, with Ansible imported once (each run a fork), about ten
// times less CPU than a process per inventory.
func ansibleListAll(t *testing.T, bin, cfg string, srcs []string) map[string]ansibleResult {
	t.Helper()
	head, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ := strings.Cut(string(head), "\n")
	interp := strings.Fields(strings.TrimPrefix(line, "#!"))
	if !strings.HasPrefix(line, "#!") || len(interp) == 0 {
		t.Fatalf("%s does not start with #! and its Python interpreter", bin)
	}
	args := append(append(interp[1:], filepath.Join("testdata", "ansible_list.py")), srcs...)
	cmd := exec.Command(interp[0], args...)
	cmd.Env = ansibleEnv(cfg)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s testdata/ansible_list.py: %v: %s", interp[0], err, stderr.String())
	}
	results := map[string]ansibleResult{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r struct {
			Src string `json:"src"`
			RC  int    `json:"rc"`
			Out string `json:"out"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("testdata/ansible_list.py wrote %q: %v", l, err)
		}
		if r.RC != 0 {
			results[r.Src] = ansibleResult{err: fmt.Errorf("ansible-inventory -i %s: exit status %d", r.Src, r.RC)}
			continue
		}
		results[r.Src] = parseAnsibleList(r.Src, []byte(r.Out))
	}
	for _, s := range srcs {
		if _, ok := results[s]; !ok {
			t.Fatalf("testdata/ansible_list.py wrote nothing for %s: %s", s, stderr.String())
		}
	}
	return results
}

// ansibleEnv runs Ansible with its defaults (the empty ansible.cfg cfg, no ANSIBLE_*
// settings of the caller, such as a merge hash behaviour) and unparsed
// inventories fatal, so that a source no plugin reads is an error, not an
// empty inventory.
func ansibleEnv(cfg string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ANSIBLE_") {
			env = append(env, kv)
		}
	}
	return append(env, "ANSIBLE_CONFIG="+cfg, "ANSIBLE_INVENTORY_UNPARSED_FAILED=True", "ANSIBLE_LOCALHOST_WARNING=False", "ANSIBLE_NOCOLOR=1")
}

// ansibleList runs ansible-inventory --list on src.
func ansibleList(bin, cfg, src string) ansibleResult {
	cmd := exec.Command(bin, "-i", src, "--list")
	cmd.Env = ansibleEnv(cfg)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return ansibleResult{err: fmt.Errorf("ansible-inventory -i %s: %v: %s", src, err, strings.TrimSpace(stderr.String()))}
	}
	return parseAnsibleList(src, out)
}

// parseAnsibleList reads the output of ansible-inventory --list.
func parseAnsibleList(src string, out []byte) ansibleResult {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(out, &raw); err != nil {
		return ansibleResult{err: fmt.Errorf("ansible-inventory -i %s: %v", src, err)}
	}
	var meta struct {
		Hostvars map[string]map[string]json.RawMessage `json:"hostvars"`
	}
	json.Unmarshal(raw["_meta"], &meta)
	type group struct {
		Hosts    []string `json:"hosts"`
		Children []string `json:"children"`
	}
	groups := map[string]group{}
	for name, body := range raw {
		if name == "_meta" {
			continue
		}
		var g group
		json.Unmarshal(body, &g)
		groups[name] = g
	}
	ai := ansibleResult{hostvars: meta.Hostvars, groups: map[string][]string{}}
	if ai.hostvars == nil {
		ai.hostvars = map[string]map[string]json.RawMessage{}
	}
	var members func(string, int) []string
	members = func(name string, depth int) []string {
		g := groups[name]
		out := append([]string(nil), g.Hosts...)
		if depth < 64 {
			for _, c := range g.Children {
				out = append(out, members(c, depth+1)...)
			}
		}
		return out
	}
	for name := range groups {
		hosts := members(name, 0)
		for _, h := range hosts {
			if _, ok := ai.hostvars[h]; !ok {
				ai.hostvars[h] = map[string]json.RawMessage{}
			}
		}
		ai.groups[name] = sortedStrings(dedupe(hosts))
	}
	return ai
}

// jsonText re-encodes JSON text with sorted keys and no spaces, keeping
// numbers as written (3.0 stays 3.0).
func jsonText(s string) string {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return s
	}
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	e.Encode(v)
	return strings.TrimSpace(b.String())
}

// ctyToJSON is v as JSON text.
func ctyToJSON(v cty.Value) string {
	b, err := json.Marshal(plainValue(v))
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func sortedStrings(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
