package elbencho

import (
	"strings"

	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

const toolVersion = "elbencho --version"

// Version is what "elbencho --version" printed.
type Version struct {
	Version     string            `json:"version"` // "3.0-26"
	NetProtocol string            `json:"net_protocol,omitempty"`
	BuildDate   string            `json:"build_date,omitempty"`
	Included    []string          `json:"included,omitempty"` // optional build features
	Excluded    []string          `json:"excluded,omitempty"`
	Extra       map[string]string `json:"extra,omitempty"`
}

// Has reports whether the optional build feature (e.g. "cufile/gds",
// "libaio", "s3") was included.
func (v Version) Has(feature string) bool {
	for _, f := range v.Included {
		if f == feature {
			return true
		}
	}
	return false
}

// ParseVersion reads "elbencho --version" output.
func ParseVersion(data []byte) (*Version, error) {
	if err := parse.Complete("elbencho --version", data); err != nil {
		return nil, err
	}
	v := &Version{}
	seenName := false
	for i, l := range text.Lines(data) {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if t == "elbencho" && !seenName {
			seenName = true
			continue
		}
		k, val, ok := strings.Cut(strings.TrimPrefix(t, "* "), ": ")
		if !ok || !strings.HasPrefix(t, "* ") || !seenName {
			return nil, &parse.Error{Tool: toolVersion, Line: i + 1, Text: l, Reason: `expected "elbencho" then " * Key: value" lines`}
		}
		val = strings.TrimSpace(val)
		switch k {
		case "Version":
			v.Version = val
		case "Net protocol version":
			v.NetProtocol = val
		case "Build date":
			v.BuildDate = val
		case "Included optional build features":
			v.Included = strings.Fields(val)
		case "Excluded optional build features":
			v.Excluded = strings.Fields(val)
		default:
			if v.Extra == nil {
				v.Extra = map[string]string{}
			}
			v.Extra[k] = val
		}
	}
	if v.Version == "" {
		return nil, &parse.Error{Tool: toolVersion, Reason: `no " * Version: " line found`}
	}
	return v, nil
}
