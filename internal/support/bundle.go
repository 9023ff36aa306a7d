package support

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"time"
)

// FormatVersion is the bundle layout's version, in the manifest.
const FormatVersion = 1

// Root is the top directory inside a bundle.
const Root = "prova-collect"

// Manifest is Root/manifest.json.
type Manifest struct {
	Format       int       `json:"format"`
	ProvaVersion string    `json:"prova_version"`
	Created      time.Time `json:"created"`
	Hosts        []string  `json:"hosts"`
	Probes       []Probe   `json:"probes"`
	// Unreachable maps a host that could not be reached to the error.
	Unreachable map[string]string `json:"unreachable,omitempty"`
	// Runbook and RunbookHash name the runbook whose read-only steps were
	// collected (prova collect RUNBOOK); empty for the built-in probes.
	Runbook     string `json:"runbook,omitempty"`
	RunbookHash string `json:"runbook_hash,omitempty"`
}

// Result is one probe on one host, in Root/HOST/results.json; the raw
// output is in Root/HOST/ID.stdout and ID.stderr.
type Result struct {
	Probe      string          `json:"probe"`
	Command    string          `json:"command"`
	Parser     string          `json:"parser,omitempty"`
	RC         int             `json:"rc"`
	DurationMS float64         `json:"duration_ms"`
	Stdout     string          `json:"-"`
	Stderr     string          `json:"-"`
	Parsed     json.RawMessage `json:"parsed,omitempty"`
	ParseError string          `json:"parse_error,omitempty"`
	// Error is set when the command could not be run at all.
	Error string `json:"error,omitempty"`
	// Step is the runbook step that ran the command (collect RUNBOOK).
	Step string `json:"step,omitempty"`
}

// Host is one host's part of a bundle.
type Host struct {
	Name    string
	Results []Result
	// Steps is what plan said of each runbook step on the host, in
	// Root/HOST/steps.json (collect RUNBOOK only).
	Steps []StepOutcome
}

// Bundle is a whole support bundle.
type Bundle struct {
	Manifest Manifest
	Hosts    []Host
}

// Write writes b as a .tar.gz to w.
func (b *Bundle) Write(w io.Writer) error {
	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	mod := b.Manifest.Created
	add := func(name string, data []byte) error {
		hdr := &tar.Header{Name: path.Join(Root, name), Mode: 0o644, Size: int64(len(data)), ModTime: mod, Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		_, err := tw.Write(data)
		return err
	}
	m, err := json.MarshalIndent(b.Manifest, "", "  ")
	if err != nil {
		return err
	}
	if err := add("manifest.json", append(m, '\n')); err != nil {
		return err
	}
	for _, h := range b.Hosts {
		for _, r := range h.Results {
			if err := add(path.Join(h.Name, r.Probe+".stdout"), []byte(r.Stdout)); err != nil {
				return err
			}
			if r.Stderr != "" {
				if err := add(path.Join(h.Name, r.Probe+".stderr"), []byte(r.Stderr)); err != nil {
					return err
				}
			}
		}
		j, err := json.MarshalIndent(h.Results, "", "  ")
		if err != nil {
			return err
		}
		if err := add(path.Join(h.Name, "results.json"), append(j, '\n')); err != nil {
			return err
		}
		if len(h.Steps) > 0 {
			j, err := json.MarshalIndent(h.Steps, "", "  ")
			if err != nil {
				return err
			}
			if err := add(path.Join(h.Name, "steps.json"), append(j, '\n')); err != nil {
				return err
			}
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// maxEntry bounds one file read from a bundle (a capture is at most 1 MiB
// per stream; results.json of a host a few MiB).
const maxEntry = 64 << 20

// Read reads a bundle written by Write. A file that is not one names what
// is wrong.
func Read(r io.Reader) (*Bundle, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a prova support bundle (.tar.gz): %w", err)
	}
	tr := tar.NewReader(gz)
	files := map[string][]byte{}
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("bundle: %w", err)
		}
		if hdr.Typeflag != tar.TypeReg {
			continue
		}
		var buf bytes.Buffer
		if _, err := io.Copy(&buf, io.LimitReader(tr, maxEntry+1)); err != nil {
			return nil, fmt.Errorf("bundle: %s: %w", hdr.Name, err)
		}
		if buf.Len() > maxEntry {
			return nil, fmt.Errorf("bundle: %s is larger than %d bytes", hdr.Name, maxEntry)
		}
		files[path.Clean(hdr.Name)] = buf.Bytes()
	}
	b := &Bundle{}
	m, ok := files[path.Join(Root, "manifest.json")]
	if !ok {
		return nil, fmt.Errorf("bundle has no %s/manifest.json: not a prova support bundle", Root)
	}
	if err := json.Unmarshal(m, &b.Manifest); err != nil {
		return nil, fmt.Errorf("bundle manifest: %w", err)
	}
	if b.Manifest.Format != FormatVersion {
		return nil, fmt.Errorf("bundle format %d; this prova reads format %d", b.Manifest.Format, FormatVersion)
	}
	hosts := append([]string(nil), b.Manifest.Hosts...)
	sort.Strings(hosts)
	for _, name := range hosts {
		j, ok := files[path.Join(Root, name, "results.json")]
		if _, down := b.Manifest.Unreachable[name]; down && !ok {
			b.Hosts = append(b.Hosts, Host{Name: name})
			continue
		}
		if !ok {
			return nil, fmt.Errorf("bundle has no results for host %s", name)
		}
		h := Host{Name: name}
		if err := json.Unmarshal(j, &h.Results); err != nil {
			return nil, fmt.Errorf("bundle: %s/results.json: %w", name, err)
		}
		if j, ok := files[path.Join(Root, name, "steps.json")]; ok {
			if err := json.Unmarshal(j, &h.Steps); err != nil {
				return nil, fmt.Errorf("bundle: %s/steps.json: %w", name, err)
			}
		}
		for i := range h.Results {
			r := &h.Results[i]
			r.Stdout = string(files[path.Join(Root, name, r.Probe+".stdout")])
			r.Stderr = string(files[path.Join(Root, name, r.Probe+".stderr")])
		}
		b.Hosts = append(b.Hosts, h)
	}
	return b, nil
}
