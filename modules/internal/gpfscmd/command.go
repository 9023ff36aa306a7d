package gpfscmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/provadev/prova/engine/module"
)

// BinDir is where GPFS installs its administration commands; it is not on
// root's default PATH on most distributions.
const BinDir = "/usr/lpp/mmfs/bin"

// MM returns the command line running a GPFS command with PATH extended by
// BinDir, every word quoted: MM("mmlsconfig", "-Y") is
// "PATH=$PATH:/usr/lpp/mmfs/bin mmlsconfig -Y".
func MM(argv ...string) string {
	return "PATH=$PATH:" + BinDir + " " + module.Command(argv...)
}

// Probe runs a read-only command and returns what it printed. A command
// that could not be run (connection lost, cancelled) is an error naming the
// host; a non-zero exit status is not (see Failure).
func Probe(ctx context.Context, h module.Host, cmd string) (module.Output, error) {
	return module.Capture(ctx, h, cmd)
}

// NotInstalled reports whether out is the shell saying the command does not
// exist (exit 127, or "command not found" / "not found" on stderr with 126
// or 127).
func NotInstalled(out module.Output) bool {
	if out.RC == 127 {
		return true
	}
	return out.RC != 0 && strings.TrimSpace(out.Stdout) == "" &&
		(strings.Contains(out.Stderr, "command not found") || strings.Contains(out.Stderr, ": not found"))
}

// Failure is the error for a tool that ran and exited non-zero: it names the
// tool, the host, the exit status and the last line the tool printed.
func Failure(h module.Host, tool string, out module.Output) error {
	return fmt.Errorf("%s on %s exited %d: %s", tool, h.Name(), out.RC, LastLine(out))
}

// ParseFailure wraps a parser error (an *parse.Error naming the tool and the
// line) with the host it came from.
func ParseFailure(h module.Host, err error) error {
	return fmt.Errorf("on %s: %w", h.Name(), err)
}

// LastLine returns the last non-blank line of stderr, else of stdout, or
// "(no output)".
func LastLine(out module.Output) string {
	for _, s := range []string{out.Stderr, out.Stdout} {
		if t := strings.TrimSpace(s); t != "" {
			lines := strings.Split(t, "\n")
			return strings.TrimSpace(lines[len(lines)-1])
		}
	}
	return "(no output)"
}

// Run runs a read-only tool that must succeed: an exit status other than 0
// is a Failure, a missing tool says so.
func Run(ctx context.Context, h module.Host, tool, cmd string) (module.Output, error) {
	out, err := Probe(ctx, h, cmd)
	if err != nil {
		return out, err
	}
	if NotInstalled(out) {
		return out, fmt.Errorf("%s is not installed on %s (%s)", tool, h.Name(), LastLine(out))
	}
	if out.RC != 0 {
		return out, Failure(h, tool, out)
	}
	return out, nil
}
