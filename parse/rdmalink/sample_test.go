package rdmalink

import (
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
)

func sections(t testing.TB, rel string) [][]byte { return samples.Sections(t, rel, nil) }

func samplesGlob(t testing.TB, pattern string) []string { return samples.Glob(t, pattern) }
