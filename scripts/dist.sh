#!/usr/bin/env bash
# make dist: static prova binaries for linux/amd64 and linux/arm64, man
# pages and shell completions generated from the command tree, a DEB and an
# RPM per architecture (nfpm), and SHA256SUMS, all in $DIST (default dist/).
#
# Reproducible: the binaries carry the module version, VCS revision and
# commit time from the Go build info (no build-time paths: -trimpath; no
# build-time dates), the man pages and package file times are the commit's
# (SOURCE_DATE_EPOCH), so two runs on one commit give identical files
# (scripts/dist-check.sh proves it).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${DIST:-dist}
nfpm=${NFPM:-go run github.com/goreleaser/nfpm/v2/cmd/nfpm@v2.45.2}
archs=${ARCHS:-amd64 arm64}

rev=$(git rev-parse HEAD)
export SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "dist: the work tree has uncommitted changes: the binaries say +dirty and are not reproducible" >&2
fi
tag=$(git describe --tags --exact-match 2>/dev/null || true)
if [[ $tag =~ ^v[0-9] ]]; then
  pkgver=${tag#v}
else
  pkgver="0.0.0~git$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y%m%d%H%M%S).${rev:0:12}"
fi

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
for arch in $archs; do
  CGO_ENABLED=0 GOOS=linux GOARCH=$arch go build -trimpath -buildvcs=true -ldflags='-s -w -buildid=' \
    -o "$out/prova-linux-$arch" ./cmd/prova
  go version -m "$out/prova-linux-$arch" | grep -q "vcs.revision=$rev" || {
    echo "dist: $out/prova-linux-$arch carries no VCS revision (build from a git clone, not a linked worktree or an export)" >&2
    exit 1
  }
done

# Man pages and completions come from the command tree (the build-time
# tool internal/cli/gendocs, so that the man-page generator is not linked
# into prova); their source line is what a binary that runs here prints
# for --version. The tree is the same for every architecture.
gen="$out/gen"
hostbin="$out/prova-linux-$(go env GOARCH)"
[ -x "$hostbin" ] || { hostbin="$gen/prova"; go build -trimpath -o "$hostbin" ./cmd/prova; }
go run ./internal/cli/gendocs --source "$("$hostbin" --version)" --man "$gen/man" --completion "$gen/completion"
gzip -9n "$gen"/man/*.1

for arch in $archs; do
  stage="$out/stage-$arch"
  mkdir -p "$stage"
  cp "$out/prova-linux-$arch" "$stage/prova"
  cp -r "$gen/man" "$gen/completion" "$stage/"
  sed -e "s|@ARCH@|$arch|g" -e "s|@VERSION@|$pkgver|g" -e "s|@STAGE@|$stage|g" packaging/nfpm.yaml >"$out/nfpm-$arch.yaml"
  for p in deb rpm; do
    $nfpm package --config "$out/nfpm-$arch.yaml" --packager $p --target "$out/" >/dev/null
  done
done
rm -rf "$gen" "$out"/stage-* "$out"/nfpm-*.yaml
(cd "$out" && sha256sum prova-linux-* *.deb *.rpm >SHA256SUMS)
echo "dist: prova $pkgver ($rev) in $out/:"
sed 's/^/  /' "$out/SHA256SUMS"
