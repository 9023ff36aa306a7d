package inventory

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/provadev/prova/internal/lazyre"
)

// Format is an inventory source format.
type Format int

const (
	// FormatHCL is prova's own HCL inventory.
	FormatHCL Format = iota
	// FormatINI is an Ansible INI inventory.
	FormatINI
	// FormatYAML is an Ansible YAML (or JSON) inventory.
	FormatYAML
)

// Load reads and parses the inventory file or directory at path; see
// Parse for how the format is chosen. An Ansible inventory also gets its
// group_vars/ and host_vars/, and a directory is read as Ansible reads it
// (see loadSources).
func Load(path string) (*Inventory, hcl.Diagnostics) {
	return loadSources(path)
}

// Parse parses an inventory. The format follows the file name extension:
// ".hcl" is HCL; ".yml", ".yaml" and ".json" are Ansible YAML; ".ini" and
// ".cfg" are Ansible INI. Any other name is recognised by content: HCL when
// the first line that is not blank or a comment opens a defaults, host or
// group block, YAML when it is "---", "{" or a bare "name:" key, and Ansible
// INI otherwise. Relative paths in the inventory are joined with the
// directory of filename.
func Parse(filename string, src []byte) (*Inventory, hcl.Diagnostics) {
	var inv *Inventory
	var diags hcl.Diagnostics
	switch DetectFormat(filename, src) {
	case FormatHCL:
		inv, diags = parseHCL(filename, src)
	default:
		b := newBuilder()
		parseAnsibleInto(b, filename, src)
		inv, diags = b.build()
	}
	if inv != nil {
		inv.Files = []string{filename}
		inv.Hash = hashHex(src)
	}
	return inv, diags
}

var (
	hclStart  = lazyre.New(`^(defaults\s*\{|gpfs_cluster\s*\{|(host|group)\s+")`)
	yamlStart = lazyre.New(`^(---|\{|[A-Za-z0-9_.-]+:\s*(#.*)?$)`)
)

// DetectFormat tells the format Parse would use for filename and src.
func DetectFormat(filename string, src []byte) Format {
	switch strings.ToLower(filepath.Ext(filename)) {
	case ".hcl":
		return FormatHCL
	case ".yml", ".yaml", ".json":
		return FormatYAML
	case ".ini", ".cfg":
		return FormatINI
	}
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' || strings.HasPrefix(line, "//") {
			continue
		}
		switch {
		case hclStart.MatchString(line):
			return FormatHCL
		case yamlStart.MatchString(line):
			return FormatYAML
		}
		return FormatINI
	}
	return FormatINI
}

func hashHex(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:])
}
