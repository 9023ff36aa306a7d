package nvme

import (
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

const toolVersion = "nvme version"

// Version is what "nvme version" printed.
type Version struct {
	Version    string `json:"version"`               // "2.3", "1.16"
	Git        string `json:"git,omitempty"`         // "2.3" from "(git 2.3)"
	Libnvme    string `json:"libnvme,omitempty"`     // 2.x only
	LibnvmeGit string `json:"libnvme_git,omitempty"` //
	Major      int    `json:"major"`                 // 1 or 2: selects the output formats
}

var versionRe = lazyre.New(`^(nvme|libnvme) version (\S+)(?: \(git ([^)]*)\))?$`)

// ParseVersion reads "nvme version" output.
func ParseVersion(data []byte) (*Version, error) {
	if err := parse.Complete("nvme version", data); err != nil {
		return nil, err
	}
	var v Version
	for i, l := range text.Lines(data) {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		m := versionRe.FindStringSubmatch(t)
		if m == nil {
			return nil, &parse.Error{Tool: toolVersion, Line: i + 1, Text: l, Reason: "unexpected line"}
		}
		if m[1] == "nvme" {
			v.Version, v.Git = m[2], m[3]
		} else {
			v.Libnvme, v.LibnvmeGit = m[2], m[3]
		}
	}
	if v.Version == "" {
		return nil, missing(toolVersion, data, `"nvme version" line`)
	}
	major, _, _ := strings.Cut(v.Version, ".")
	v.Major, _ = strconv.Atoi(strings.TrimPrefix(major, "v"))
	return &v, nil
}
