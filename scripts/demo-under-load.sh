#!/usr/bin/env bash
# demo-under-load.sh runs examples/demo.sh RUNS times in a row (default 20)
# while BUSY busy loops (default 3) keep the machine's CPUs loaded, and
# fails unless every run passed. It proves that `make demo` does not depend
# on timing. Not part of `make test`; run it with `make demo-loop`.
#
# Usage: scripts/demo-under-load.sh [path/to/prova] [runs] [busy-loops]
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
prova=${1:-$here/bin/prova}
runs=${2:-20}
busy=${3:-3}
case $runs$busy in *[!0-9]*|'') echo "usage: $0 [prova] [runs] [busy-loops]" >&2; exit 2 ;; esac
[ -x "$prova" ] || { echo "demo-under-load: no prova binary at $prova (run make build)" >&2; exit 2; }

logs=$(mktemp -d "${TMPDIR:-/tmp}/prova-demo-loop.XXXXXX")
pids=()
stop() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
  pids=()
}
trap 'stop; rm -rf "$logs"' EXIT
trap 'exit 130' INT TERM

for _ in $(seq "$busy"); do
  ( while :; do :; done ) &
  pids+=($!)
done
echo "demo-under-load: $busy busy loop(s) running (pids ${pids[*]}), $runs demo run(s)"

pass=0
fail=0
for i in $(seq "$runs"); do
  start=$SECONDS
  if "$here/examples/demo.sh" "$prova" >"$logs/run-$i.log" 2>&1; then
    pass=$((pass + 1))
    echo "run $i/$runs: pass ($((SECONDS - start))s)"
  else
    fail=$((fail + 1))
    echo "run $i/$runs: FAIL ($((SECONDS - start))s); last lines:"
    tail -n 15 "$logs/run-$i.log" | sed 's/^/    /'
  fi
done
stop
echo "demo-under-load: $pass of $runs passed with $busy busy loop(s)"
[ "$fail" -eq 0 ]
