package apply

import (
	"context"
	"slices"
	"sort"
	"testing"
)

// A sensitive variable is redacted by its strings in every output, not
// marked: a when that reads a sensitive bool decides as any bool does.

func TestSensitiveWhenDecides(t *testing.T) {
	src := `
variable "go" {
  type      = bool
  sensitive = true
  default   = true
}
variable "stop" {
  type      = bool
  sensitive = true
  default   = false
}
step "cmd" "yes" {
  when = var.go
  command = "a"
}
step "cmd" "no" {
  when = var.stop
  command = "b"
}
`
	s := newRun(t, src, []string{"n1", "n2"}, ModeApply)
	if _, err := s.r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := s.fleet.commands()
	sort.Strings(got)
	if want := []string{"n1: a", "n2: a"}; !slices.Equal(got, want) {
		t.Fatalf("commands %q, want %q", got, want)
	}
}
