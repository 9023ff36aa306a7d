#!/usr/bin/env bash
# Proves that make dist is reproducible: two builds of the same commit, in
# two directories with the Go build cache bypassed for prova's own packages
# (-a is not needed: the cache is content-addressed), give identical files.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d "${TMPDIR:-/tmp}/prova-dist-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
DIST="$tmp/a" scripts/dist.sh >/dev/null
DIST="$tmp/b" scripts/dist.sh >/dev/null
if ! diff "$tmp/a/SHA256SUMS" "$tmp/b/SHA256SUMS"; then
  echo "dist-check: two builds of $(git rev-parse --short HEAD) differ" >&2
  exit 1
fi
echo "dist-check: two builds of $(git rev-parse --short HEAD) are identical ($(wc -l <"$tmp/a/SHA256SUMS") files)"
