package parsecheck

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/provadev/prova/parse"
)

// Fuzz runs f's corpus (the caller adds the seeds first) through p and
// holds the properties every parser keeps: no panic, an error is a
// *parse.Error naming the tool, a result marshals to JSON.
func Fuzz(f *testing.F, p Parse) {
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := p(data)
		if err != nil {
			var pe *parse.Error
			if !errors.As(err, &pe) || pe.Tool == "" {
				t.Fatalf("error %T %v is not a *parse.Error naming the tool", err, err)
			}
			return
		}
		if _, err := json.Marshal(v); err != nil {
			t.Fatalf("result does not marshal: %v", err)
		}
	})
}
