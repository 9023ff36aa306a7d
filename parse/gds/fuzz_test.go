package gds

import (
	"errors"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
)

func fuzzParse[T any](f *testing.F, fn func([]byte) (*T, error)) {
	for _, rel := range samples.Glob(f, "gds/*") {
		f.Add(samples.Read(f, rel))
		f.Add(toolOutput(f, rel))
	}
	f.Add([]byte("warn: x\nNo GPU found\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := fn(data)
		if err != nil {
			var pe *parse.Error
			if !errors.As(err, &pe) || pe.Tool == "" || pe.Reason == "" {
				t.Fatalf("error %v (%T) is not a complete *parse.Error", err, err)
			}
			return
		}
		if v == nil {
			t.Fatal("nil result without error")
		}
	})
}

func FuzzGdscheck(f *testing.F)  { fuzzParse(f, ParseGdscheck) }
func FuzzGdsio(f *testing.F)     { fuzzParse(f, ParseGdsio) }
func FuzzNvfsStats(f *testing.F) { fuzzParse(f, ParseNvfsStats) }
