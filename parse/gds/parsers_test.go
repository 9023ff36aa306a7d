package gds

import (
	"testing"

	"github.com/provadev/prova/parse"
)

func TestParsersRegistry(t *testing.T) {
	r := parse.NewRegistry(Parsers())
	for name, rel := range map[string]string{
		"gdscheck": "gds/gdscheck-p-1.16-nvidia-doc-sample-nvfs-dmabuf-compat.txt",
		"gdsio":    "gds/gdsio-read-gpud-cpuonly-cpu_gpu-and-gdsio_verify.txt",
	} {
		p, ok := r.Lookup(name)
		if !ok {
			t.Fatalf("parser %q missing", name)
		}
		if v, err := p.Parse(toolOutput(t, rel)); err != nil || v == nil {
			t.Errorf("%s: %v, %v", name, v, err)
		}
	}
	p, _ := r.Lookup("gdscheck")
	if v, err := p.Parse(nil); err == nil || v != nil {
		t.Errorf("empty gdscheck: %v, %v", v, err)
	}
}
