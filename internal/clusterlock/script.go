package clusterlock

import (
	"fmt"
	"strings"
	"time"

	"github.com/provadev/prova/engine/module"
)

// holderLines is the holder file's content: key=value lines. The pid line
// is added by the remote shell ($$).
func holderLines(h Holder) string {
	return strings.Join([]string{
		"user=" + oneLine(h.User),
		"run_id=" + oneLine(h.RunID),
		"runbook=" + oneLine(h.Runbook),
		"since=" + h.Since.UTC().Format(time.RFC3339),
	}, "\n")
}

func oneLine(s string) string { return strings.NewReplacer("\n", " ", "\r", " ").Replace(s) }

// lockDir makes the lock file's directory when it is missing: $L's
// directory as dirname(1) gives it (but for a path ending in "/", which
// names a directory and fails at the open of fd 9 either way), found by
// the shell itself. The lock is taken before the first step can start;
// the $(dirname ...) and the mkdir this replaces were two of the six
// processes the acquire ran on the lock host before LOCKED (with dash).
const lockDir = `case $L in */*) D=${L%/*} ;; *) D=. ;; esac
[ -d "${D:-/}" ] || mkdir -p "${D:-/}" || exit 71`

// acquireScript takes the lock on fd 9 of the shell itself (no child keeps
// it), writes the holder file, prints LOCKED, then blocks in the read
// builtin until stdin ends. Outputs: LOCKED, or HELD followed by the
// holder file, or NOFLOCK.
func acquireScript(path string, me Holder, wait time.Duration) string {
	q := module.Quote
	secs := max(int(wait.Round(time.Second)/time.Second), 1)
	return fmt.Sprintf(`L=%s
command -v flock >/dev/null 2>&1 || { echo NOFLOCK; exit 72; }
%s
exec 9>>"$L" || exit 71
if ! flock -w %d 9; then echo HELD; cat "$L.holder" 2>/dev/null; exit 75; fi
{ printf '%%s\n' %s; echo "pid=$$"; } > "$L.holder.new" && mv -f "$L.holder.new" "$L.holder" || exit 71
echo "$(date -u +%%Y-%%m-%%dT%%H:%%M:%%SZ) acquired by "%s >> "$L.log"
echo LOCKED
while read -r _; do :; done
echo "$(date -u +%%Y-%%m-%%dT%%H:%%M:%%SZ) released by "%s >> "$L.log"
exit 0
`, q(path), lockDir, secs, q(holderLines(me)), q(me.String()), q(me.String()))
}

// statusScript prints FREE or HELD, then the holder file, then the last
// lines of the log after a "--log" line. It holds the lock only for the
// instant of the test.
func statusScript(path string) string {
	return fmt.Sprintf(`L=%s
command -v flock >/dev/null 2>&1 || { echo NOFLOCK; exit 72; }
if [ ! -e "$L" ]; then echo FREE; exit 0; fi
if ( exec 9>>"$L" && flock -n 9 ); then echo FREE; else echo HELD; fi
cat "$L.holder" 2>/dev/null
echo --log
tail -n 10 "$L.log" 2>/dev/null
exit 0
`, module.Quote(path))
}

// breakScript kills the shell named in the holder file, waits up to 10s
// for the lock, and logs who broke it. Outputs FREE (nothing held),
// BROKEN, or STILLHELD.
func breakScript(path string, me Holder) string {
	return fmt.Sprintf(`L=%s
command -v flock >/dev/null 2>&1 || { echo NOFLOCK; exit 72; }
[ -e "$L" ] || { echo FREE; exit 0; }
exec 9>>"$L" || exit 71
if flock -n 9; then echo FREE; exit 0; fi
pid=$(sed -n 's/^pid=//p' "$L.holder" 2>/dev/null)
case "$pid" in ''|*[!0-9]*) echo STILLHELD; exit 1;; esac
kill "$pid" 2>/dev/null
if ! flock -w 10 9; then echo STILLHELD; exit 1; fi
echo "$(date -u +%%Y-%%m-%%dT%%H:%%M:%%SZ) broken by "%s" (holder: $(tr '\n' ' ' < "$L.holder"))" >> "$L.log"
echo BROKEN
exit 0
`, module.Quote(path), module.Quote(me.String()))
}
