package fio

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
)

func TestEverySampleIsTested(t *testing.T) {
	tested := map[string]bool{}
	for _, rel := range []string{
		"error-bad-ioengine.txt", "error-enotdir-normal.txt", "randread-4k-normal-plus-json-combined.txt",
		"randread-4k-normal.txt", "randread-4k.json", "randread-4k.jsonplus.json", "seqread-1m-normal.txt", "seqread-1m.json",
	} {
		tested["fio/"+rel] = true
	}
	for _, rel := range samples.Glob(t, "fio/*") {
		if !tested[rel] {
			t.Errorf("sample %s has no test", rel)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, rel := range samples.Glob(f, "fio/*") {
		f.Add(samples.Read(f, rel))
	}
	f.Add([]byte("j: (groupid=0, jobs=1): err= 0: pid=1: now\n  read: IOPS=1k, BW=1MiB/s (1MB/s)(1MiB/1msec)\n    clat percentiles (usec):\n     |  1.00th=[  1]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parsers()[0].Parse(data)
		if err != nil {
			var pe *parse.Error
			if !errors.As(err, &pe) || pe.Tool != "fio" {
				t.Fatalf("error %T %v is not a *parse.Error naming fio", err, err)
			}
			return
		}
		r := v.(*Result)
		if _, err := json.Marshal(r.Total()); err != nil {
			t.Fatalf("total does not marshal: %v", err)
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatalf("result does not marshal: %v", err)
		}
	})
}

func TestParserRegistered(t *testing.T) {
	r := parse.NewRegistry(Parsers())
	p, ok := r.Lookup("fio")
	if !ok {
		t.Fatal("fio parser missing")
	}
	if v, err := p.Parse([]byte("x")); err == nil || v != nil {
		t.Errorf("garbage accepted: %v", v)
	}
}
