package text

import "github.com/provadev/prova/internal/lazyre"

// terminalLine matches what a terminal session adds around a tool's
// output and no tool prova reads prints: sshd's login lines ("Last
// login: Tue Dec  1 08:00:00 2026 from 10.0.0.1", "Last failed login:
// ...", "There were 3 failed login attempts since the last successful
// login.") and shell prompts with a user and host ("[root@gpfs01 ~]# ",
// "root@gpfs01:/var/adm/ras# ").
var terminalLine = lazyre.New(`^(Last (failed )?login: \S+ \S+ +\d+ \d\d:\d\d:\d\d( \S+)? \d{4}( from \S+| on \S+)*\s*$|There (was|were) \d+ failed login attempts? since the last successful login\.$|\[[\w.-]+@[\w.-]+ [^\]]*\][#$] |[\w.-]+@[\w.-]+:[^ ]*[#$] )`)

// Terminal reports whether line is a login banner or shell prompt line
// (see terminalLine): text captured from a terminal, not the tool's
// output. Parsers that keep lines they do not interpret (a log's untimed
// lines) refuse such a line instead of keeping it, so that a pasted
// session is never read as the tool's text.
func Terminal(line string) bool { return terminalLine.MatchString(line) }
