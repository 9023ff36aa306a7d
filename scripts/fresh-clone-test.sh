#!/usr/bin/env bash
# fresh-clone-test.sh proves that the repository is self-contained: it
# clones the committed tree (HEAD) into an empty temporary directory, with
# nothing beside it, checks that no tracked file reaches outside the
# repository (the shared folder beside it, absolute paths of the
# development machines), and
# runs the tests there with CI=true, so a skipped or missing component
# fails. The clone is removed afterwards. Not part of `make test`.
#
# Usage: scripts/fresh-clone-test.sh [make target, default: unit]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
target=${1:-unit}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/prova-fresh-clone.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

git clone --quiet --no-local "$here" "$tmp/prova"
cd "$tmp/prova"
echo "fresh-clone-test: cloned $(git rev-parse --short HEAD) into $tmp/prova"
# The patterns are assembled so that this file does not match itself.
beside='\.\.''/shared' devroot='/wo''rk/'
if git grep -n -e "$beside" -e "$devroot" -- . ':!CHANGELOG.md'; then
  echo "fresh-clone-test: the files above reach outside the repository" >&2
  exit 1
fi
CI=true make "$target"
echo "fresh-clone-test: CI=true make $target passed in a fresh clone"
