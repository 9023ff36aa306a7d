#!/usr/bin/env bash
# Proves that make dist is reproducible: the committed HEAD is cloned into
# two different directories and built in each; the two sets of binaries and
# packages must be identical byte for byte (SHA256SUMS equal), so no path
# or time of the build machine leaks into them.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d "${TMPDIR:-/tmp}/prova-dist-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for side in a b-elsewhere; do
  git clone -q . "$tmp/$side/src"
  (cd "$tmp/$side/src" && DIST="$tmp/$side/dist" scripts/dist.sh >/dev/null)
done
if ! diff "$tmp/a/dist/SHA256SUMS" "$tmp/b-elsewhere/dist/SHA256SUMS"; then
  echo "dist-check: two builds of $(git rev-parse --short HEAD) differ" >&2
  exit 1
fi
echo "dist-check: two builds of $(git rev-parse --short HEAD) in two directories are identical:"
sed 's/^/  /' "$tmp/a/dist/SHA256SUMS"
