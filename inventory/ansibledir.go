package inventory

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"gopkg.in/yaml.v3"
)

// ansibleIgnoredExts are the names Ansible skips in an inventory
// directory by default (INVENTORY_IGNORE_EXTS: REJECT_EXTS plus .orig,
// .ini, .cfg, .retry).
var ansibleIgnoredExts = []string{".pyc", ".pyo", ".swp", ".bak", "~", ".rpm", ".md", ".txt", ".rst", ".orig", ".ini", ".cfg", ".retry"}

// ansibleVarsExts are the extensions Ansible reads in group_vars/ and
// host_vars/ ("" is a file without extension).
var ansibleVarsExts = []string{"", ".yml", ".yaml", ".json"}

// loadSources reads an inventory file or directory the way Ansible does:
// a directory is every inventory file in it, recursively, in name order
// (hidden files, group_vars/, host_vars/ and the extensions Ansible
// ignores are skipped); an Ansible inventory then gets the group_vars/ and
// host_vars/ directories beside the file, or inside the directory.
func loadSources(path string) (*Inventory, hcl.Diagnostics) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, readDiag(err)
	}
	b := newBuilder()
	h := sha256.New()
	var files []string
	varsDir := filepath.Dir(path)
	if st.IsDir() {
		varsDir = path
		list, err := inventoryFiles(path)
		if err != nil {
			return nil, readDiag(err)
		}
		if len(list) == 0 {
			return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Empty inventory directory",
				Detail: fmt.Sprintf("%s holds no inventory file (Ansible skips hidden files, group_vars/, host_vars/ and %s).", path, strings.Join(ansibleIgnoredExts, " "))}}
		}
		for _, f := range list {
			src, err := os.ReadFile(f)
			if err != nil {
				return nil, readDiag(err)
			}
			if DetectFormat(f, src) == FormatHCL {
				b.errorf(hcl.Range{Filename: f, Start: hcl.InitialPos, End: hcl.InitialPos}, "HCL inventory in a directory",
					"%s is an HCL inventory; a directory given with -i holds Ansible inventories only.", f)
				continue
			}
			files = append(files, f)
			h.Write(src)
			parseAnsibleInto(b, f, src)
		}
	} else {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, readDiag(err)
		}
		if DetectFormat(path, src) == FormatHCL {
			return Parse(path, src)
		}
		files = append(files, path)
		h.Write(src)
		parseAnsibleInto(b, path, src)
	}
	if !b.diags.HasErrors() {
		files = append(files, b.applyVarsDirs(varsDir, h)...)
	}
	inv, diags := b.build()
	if inv != nil {
		inv.Files = files
		inv.Hash = hex.EncodeToString(h.Sum(nil))
	}
	return inv, diags
}

func readDiag(err error) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to read inventory", Detail: err.Error() + "."}}
}

// inventoryFiles lists the inventory files of dir, recursively, sorted.
func inventoryFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || ansibleIgnored(name) {
			continue
		}
		p := filepath.Join(dir, name)
		if e.IsDir() {
			if name == "group_vars" || name == "host_vars" {
				continue
			}
			sub, err := inventoryFiles(p)
			if err != nil {
				return nil, err
			}
			out = append(out, sub...)
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

func ansibleIgnored(name string) bool {
	for _, ext := range ansibleIgnoredExts {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// parseAnsibleInto parses an Ansible inventory into b. A file named .yml
// or .yaml that is not a YAML inventory but reads as INI is INI, as
// Ansible falls back from its yaml plugin to its ini plugin.
func parseAnsibleInto(b *builder, filename string, src []byte) {
	if DetectFormat(filename, src) != FormatYAML {
		parseINIInto(b, filename, src)
		return
	}
	trial := newBuilder()
	if parseYAMLInto(trial, filename, src) && !trial.diags.HasErrors() {
		parseYAMLInto(b, filename, src)
		return
	}
	ext := strings.ToLower(filepath.Ext(filename))
	if ext == ".yml" || ext == ".yaml" {
		ini := newBuilder()
		parseINIInto(ini, filename, src)
		if !ini.diags.HasErrors() {
			parseINIInto(b, filename, src)
			return
		}
	}
	b.diags = append(b.diags, trial.diags...)
}

// applyVarsDirs merges dir/group_vars/GROUP and dir/host_vars/HOST into
// the groups and hosts that exist, as Ansible's host_group_vars plugin
// does: for a name, the files NAME, NAME.yml, NAME.yaml, NAME.json, any of
// which may be a directory whose files (recursively, in name order) are
// read. As in Ansible, every group's files win over every group's own
// inventory variables (a parent's group_vars/ file beats a child's
// [child:vars]; see build), and a host's files over the host's. It
// returns the files read and adds them to h.
func (b *builder) applyVarsDirs(dir string, h interface{ Write([]byte) (int, error) }) []string {
	var read []string
	for _, kind := range []string{"group_vars", "host_vars"} {
		base := filepath.Join(dir, kind)
		if st, err := os.Stat(base); err != nil || !st.IsDir() {
			continue
		}
		var names []string
		if kind == "group_vars" {
			names = append(names, b.groupOrder...)
		} else {
			for _, hd := range b.hosts {
				names = append(names, hd.name)
			}
		}
		for _, name := range names {
			for _, f := range varsFiles(base, name) {
				src, err := os.ReadFile(f)
				if err != nil {
					b.errorf(hcl.Range{Filename: f}, "Failed to read variables", "%v.", err)
					continue
				}
				read = append(read, f)
				h.Write(src)
				b.varsFile(f, src, kind, name)
			}
		}
	}
	return read
}

// varsFiles lists the variable files for name under base, in the order
// Ansible reads them.
func varsFiles(base, name string) []string {
	var out []string
	for _, ext := range ansibleVarsExts {
		p := filepath.Join(base, name+ext)
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		var sub []string
		filepath.WalkDir(p, func(f string, d os.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if strings.HasPrefix(d.Name(), ".") && f != p {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.IsDir() {
				e := strings.ToLower(filepath.Ext(d.Name()))
				if e == "" || e == ".yml" || e == ".yaml" || e == ".json" {
					sub = append(sub, f)
				}
			}
			return nil
		})
		sort.Strings(sub)
		out = append(out, sub...)
	}
	return out
}

// varsFile merges one group_vars or host_vars file.
func (b *builder) varsFile(filename string, src []byte, kind, name string) {
	if bytes.HasPrefix(bytes.TrimSpace(src), []byte("$ANSIBLE_VAULT")) {
		b.errorf(hcl.Range{Filename: filename, Start: hcl.InitialPos, End: hcl.InitialPos}, "Encrypted variables",
			"%s is encrypted with ansible-vault, which prova does not read.", filename)
		return
	}
	p := newYAMLParser(b, filename, src)
	var doc yaml.Node
	if err := unmarshalYAML(src, &doc); err != nil {
		p.b.errorf(p.lineRange(1), "Invalid YAML", "%s: %s.", filename, err)
		return
	}
	if len(doc.Content) == 0 || isNull(doc.Content[0]) {
		return
	}
	vars, ranges := p.vars(doc.Content[0])
	if kind == "group_vars" {
		g := b.groups[name]
		var c connDef
		p.b.ansibleConn(p.dir, vars, ranges, &c, nil)
		g.fileConn.over(c)
		setVars(&g.fileVars, vars)
		return
	}
	hd := b.hostIdx[name]
	var c connDef
	var addr string
	p.b.ansibleConn(p.dir, vars, ranges, &c, &addr)
	hd.conn.over(c)
	if addr != "" {
		hd.address = addr
	}
	setVars(&hd.vars, vars)
}
