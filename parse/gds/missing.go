package gds

import (
	"github.com/provadev/prova/internal/lazyre"
)

// notFoundRe matches the shell's complaints about a missing command:
// "sh: 1: gdscheck: not found", "bash: gdscheck: command not found",
// "sh: /usr/local/cuda/gds/tools/gdscheck: No such file or directory".
var notFoundRe = lazyre.New(`(?m)(: not found|: command not found|: No such file or directory)\s*$`)

// NotInstalled reports whether a run failed because the binary does not
// exist: exit status 127 (the shell's "command not found"), or exit status
// 126/1 with the shell's not-found message on stderr.
func NotInstalled(stderr []byte, rc int) bool {
	if rc == 127 {
		return true
	}
	return rc != 0 && notFoundRe.Match(stderr)
}

// ParseRun classifies a whole gdscheck run: a missing binary gives
// &Check{NotInstalled: true}; anything else is parsed from stdout and stderr
// together (gdscheck prints "warn:" lines on stderr).
func ParseRun(stdout, stderr []byte, rc int) (*Check, error) {
	if NotInstalled(stderr, rc) {
		return &Check{NotInstalled: true}, nil
	}
	all := make([]byte, 0, len(stderr)+len(stdout)+1)
	all = append(all, stderr...)
	if len(stderr) > 0 && stderr[len(stderr)-1] != '\n' {
		all = append(all, '\n')
	}
	return ParseGdscheck(append(all, stdout...))
}
