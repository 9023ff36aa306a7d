package nvtopo

import (
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
)

func TestParsersRegistry(t *testing.T) {
	p, ok := parse.NewRegistry(Parsers()).Lookup("nvidia-smi-topo")
	if !ok {
		t.Fatal("nvidia-smi-topo missing")
	}
	v, err := p.Parse(samples.Read(t, "nvidia-smi-topo/topo-m-4gpu-nv18-4nic-nic-legend-go-fixture.txt"))
	if m, ok := v.(*Matrix); err != nil || !ok || len(m.GPUs) != 4 {
		t.Errorf("parse = %v, %v", v, err)
	}
	if v, err := p.Parse([]byte("garbage\n")); err == nil || v != nil {
		t.Errorf("garbage: %v, %v", v, err)
	}
}
