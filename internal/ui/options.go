package ui

import (
	"fmt"
	"strings"

	"github.com/provadev/prova/internal/redact"
)

// Options configure a Console.
type Options struct {
	// Color is "auto" (the default when empty), "always" or "never".
	Color string
	// Env is the environment (KEY=value) consulted for NO_COLOR and TERM.
	Env []string
	// IsTerminal reports whether the writer is a terminal; the CLI decides.
	IsTerminal bool
	// Verbose prints every output line of every host.
	Verbose bool
	// Redact hides secrets; nil redacts nothing.
	Redact *redact.Redactor
	// Sources maps file names (as they appear in diagnostic ranges) to
	// their contents, for diagnostic snippets.
	Sources map[string][]byte
	// Width is the terminal width used to wrap diagnostic details and cut
	// status lines; 0 means no limit.
	Width int
}

// UseColor decides whether to colour output: "always" and "never" are
// explicit; "auto" or "" colour only a terminal, and only when NO_COLOR is
// unset or empty and TERM is not "dumb". Any other mode is an error.
func UseColor(mode string, env []string, isTerminal bool) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "", "auto":
		if getenv(env, "NO_COLOR") != "" || getenv(env, "TERM") == "dumb" {
			return false, nil
		}
		return isTerminal, nil
	}
	return false, fmt.Errorf("invalid colour mode %q: want auto, always or never", mode)
}

// getenv returns the last value of key in env, as os.Getenv would.
func getenv(env []string, key string) string {
	val := ""
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			val = v
		}
	}
	return val
}
