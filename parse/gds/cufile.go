package gds

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/provadev/prova/parse"
)

// Cufile is what prova reads in cuFile's configuration file
// (/etc/cufile.json, or the file CUFILE_ENV_PATH_JSON names): the settings
// that decide whether I/O goes GPU-direct or through the compatibility
// path (POSIX I/O into host memory, then a copy to the GPU). A setting the
// file does not set is nil: cuFile then uses its built-in default, which
// differs between releases, so prova does not guess it.
type Cufile struct {
	// AllowCompatMode is properties.allow_compat_mode: fall back to
	// compatibility mode when a file cannot use GDS.
	AllowCompatMode *bool `json:"allow_compat_mode,omitempty"`
	// ForceCompatMode is properties.force_compat_mode: all I/O in
	// compatibility mode.
	ForceCompatMode *bool `json:"force_compat_mode,omitempty"`
	// UsePCIP2PDMA is properties.use_pci_p2pdma.
	UsePCIP2PDMA *bool `json:"use_pci_p2pdma,omitempty"`
	// RDMADevAddrList is properties.rdma_dev_addr_list: the addresses of
	// the interfaces cuFile may use for RDMA (empty when unset or []).
	RDMADevAddrList []string `json:"rdma_dev_addr_list"`
	// FS holds the per-file-system sections (fs.gpfs, fs.weka ...) that
	// set their own rdma_dev_addr_list or a mount_table.
	FS map[string]CufileFS `json:"fs,omitempty"`
}

// CufileFS is one fs.<name> section.
type CufileFS struct {
	RDMADevAddrList []string `json:"rdma_dev_addr_list,omitempty"`
	MountTable      bool     `json:"mount_table,omitempty"` // a mount_table is set
}

// AddrList returns the RDMA addresses cuFile uses for file system fs: the
// section's own list when set, else the properties list.
func (c *Cufile) AddrList(fs string) []string {
	if s, ok := c.FS[fs]; ok && len(s.RDMADevAddrList) > 0 {
		return s.RDMADevAddrList
	}
	return c.RDMADevAddrList
}

// ParseCufile reads a cufile.json. The file is JSON with // and /* */
// comments (NVIDIA ships it so); anything else that is not valid JSON is an
// error naming the line.
func ParseCufile(data []byte) (*Cufile, error) {
	const tool = "cufile.json"
	clean := stripComments(data)
	if len(bytes.TrimSpace(clean)) == 0 {
		return nil, &parse.Error{Tool: tool, Reason: "empty file"}
	}
	var raw struct {
		Properties map[string]json.RawMessage            `json:"properties"`
		FS         map[string]map[string]json.RawMessage `json:"fs"`
	}
	dec := json.NewDecoder(bytes.NewReader(clean))
	if err := dec.Decode(&raw); err != nil {
		return nil, jsonError(tool, data, clean, dec, err)
	}
	if dec.More() {
		return nil, &parse.Error{Tool: tool, Line: lineAt(clean, int(dec.InputOffset())), Text: lineText(data, lineAt(clean, int(dec.InputOffset()))), Reason: "text after the JSON object"}
	}
	c := &Cufile{RDMADevAddrList: []string{}}
	var err error
	if c.AllowCompatMode, err = optBool(raw.Properties, "allow_compat_mode"); err != nil {
		return nil, &parse.Error{Tool: tool, Reason: err.Error()}
	}
	if c.ForceCompatMode, err = optBool(raw.Properties, "force_compat_mode"); err != nil {
		return nil, &parse.Error{Tool: tool, Reason: err.Error()}
	}
	if c.UsePCIP2PDMA, err = optBool(raw.Properties, "use_pci_p2pdma"); err != nil {
		return nil, &parse.Error{Tool: tool, Reason: err.Error()}
	}
	if c.RDMADevAddrList, err = strList(raw.Properties, "properties.rdma_dev_addr_list"); err != nil {
		return nil, &parse.Error{Tool: tool, Reason: err.Error()}
	}
	names := make([]string, 0, len(raw.FS))
	for n := range raw.FS {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		sec := raw.FS[n]
		l, err := strList(sec, "fs."+n+".rdma_dev_addr_list")
		if err != nil {
			return nil, &parse.Error{Tool: tool, Reason: err.Error()}
		}
		_, mt := sec["mount_table"]
		if len(l) == 0 && !mt {
			continue
		}
		if c.FS == nil {
			c.FS = map[string]CufileFS{}
		}
		c.FS[n] = CufileFS{RDMADevAddrList: l, MountTable: mt && string(bytes.TrimSpace(sec["mount_table"])) != "{}"}
	}
	return c, nil
}

func optBool(m map[string]json.RawMessage, key string) (*bool, error) {
	v, ok := m[key]
	if !ok {
		return nil, nil
	}
	var b bool
	if err := json.Unmarshal(v, &b); err != nil {
		return nil, fmt.Errorf("properties.%s is %s, not true or false", key, bytes.TrimSpace(v))
	}
	return &b, nil
}

func strList(m map[string]json.RawMessage, name string) ([]string, error) {
	key := name[bytes.LastIndexByte([]byte(name), '.')+1:]
	v, ok := m[key]
	if !ok {
		return []string{}, nil
	}
	var l []string
	if err := json.Unmarshal(v, &l); err != nil {
		return nil, fmt.Errorf("%s is %s, not a list of addresses", name, bytes.TrimSpace(v))
	}
	if l == nil {
		l = []string{}
	}
	return l, nil
}

// stripComments blanks // and /* */ comments outside strings, keeping every
// byte offset (and so every line number) where it was.
func stripComments(in []byte) []byte {
	out := bytes.Clone(in)
	inStr, esc := false, false
	for i := 0; i < len(out); i++ {
		ch := out[i]
		switch {
		case inStr:
			switch {
			case esc:
				esc = false
			case ch == '\\':
				esc = true
			case ch == '"':
				inStr = false
			}
		case ch == '"':
			inStr = true
		case ch == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case ch == '/' && i+1 < len(out) && out[i+1] == '*':
			out[i], out[i+1] = ' ', ' '
			for i += 2; i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/'); i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			if i+1 < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		}
	}
	return out
}

func jsonError(tool string, orig, clean []byte, dec *json.Decoder, err error) error {
	off := int(dec.InputOffset())
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case asErr(err, &se):
		off = int(se.Offset)
	case asErr(err, &te):
		off = int(te.Offset)
	}
	n := lineAt(clean, off)
	return &parse.Error{Tool: tool, Line: n, Text: lineText(orig, n), Reason: "not valid JSON: " + err.Error()}
}

func asErr[T error](err error, target *T) bool {
	t, ok := err.(T)
	if ok {
		*target = t
	}
	return ok
}

// lineAt is the 1-based line of byte offset off.
func lineAt(b []byte, off int) int {
	off = max(0, min(off, len(b)))
	return bytes.Count(b[:off], []byte("\n")) + 1
}

func lineText(b []byte, n int) string {
	lines := bytes.Split(b, []byte("\n"))
	if n < 1 || n > len(lines) {
		return ""
	}
	return string(bytes.TrimSpace(lines[n-1]))
}
