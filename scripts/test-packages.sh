#!/usr/bin/env bash
# The install test CI runs (as root, on a Debian machine): builds the
# packages, installs the DEB for this machine's architecture with dpkg,
# checks the installed prova (version, man page, the shipped runbooks
# validate, the verify runbook runs on the lab from an empty directory with
# a shipped scenario found by name), removes it and checks nothing is left;
# then compares the RPM's file list with the DEB's (rpm -qpl).
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "test-packages: needs root (dpkg -i)" >&2; exit 1; }
for c in dpkg-deb rpm man; do
  command -v $c >/dev/null || { echo "test-packages: $c is missing (apt-get install dpkg rpm man-db)" >&2; exit 1; }
done
if dpkg -s prova >/dev/null 2>&1; then echo "test-packages: a prova package is already installed" >&2; exit 1; fi

arch=$(dpkg --print-architecture)
work=$(mktemp -d "${TMPDIR:-/tmp}/prova-pkgtest.XXXXXX")
trap 'prova lab down --dir "$work/run/lab" --clean >/dev/null 2>&1 || true; dpkg -r prova >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
DIST="$work/dist" ARCHS="$arch" scripts/dist.sh >/dev/null
deb=$(ls "$work"/dist/prova_*_"$arch".deb)
rpmf=$(ls "$work"/dist/prova-*.rpm)
fail() { echo "test-packages: $*" >&2; exit 1; }

dpkg -i "$deb" >/dev/null
[ "$(command -v prova)" = /usr/bin/prova ] || fail "prova is not /usr/bin/prova after dpkg -i"
prova version | tee "$work/version"
grep -q "$(git rev-parse --short=12 HEAD)" "$work/version" || fail "prova version does not name the commit"
man -w prova >/dev/null || fail "man -w prova finds no page"
man -w prova-apply >/dev/null || fail "man -w prova-apply finds no page"
[ -f /usr/share/bash-completion/completions/prova ] || fail "no bash completion"
for rb in /usr/share/prova/runbooks/*.hcl; do prova validate "$rb" >/dev/null || fail "$rb does not validate where it is installed"; done

# A newcomer without a source tree: a lab from a shipped scenario by name,
# and the verify runbook from the installed location catches the culprit.
mkdir -p "$work/run" && cd "$work/run"
prova lab up --nodes 4 --scenario gpfs-firewall --dir lab >/dev/null
set +e
prova apply /usr/share/prova/runbooks/gpfs-verbs-verify.hcl -i lab/inventory.hcl --var 'verbs_ports=["mlx5_0/1"]' --color never >"$work/apply.out" 2>&1
rc=$?
set -e
[ $rc = 1 ] || { cat "$work/apply.out"; fail "verify on the firewall lab exited $rc, want 1"; }
grep -q gpfs04 "$work/apply.out" || { cat "$work/apply.out"; fail "verify did not name gpfs04"; }
prova lab down --dir lab --clean >/dev/null
cd - >/dev/null

dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|' | grep -v '/$' | sort >"$work/deb.files"
dpkg -r prova >/dev/null
left=$(while read -r f; do [ -e "$f" ] && echo "$f"; done <"$work/deb.files" || true)
[ -z "$left" ] || fail "left after dpkg -r: $left"

rpm -qpl "$rpmf" 2>/dev/null | sort >"$work/rpm.files"
# The two differ only where the distributions do: zsh completions and the
# licence file have their own places.
norm() { sed -e 's|/usr/share/zsh/vendor-completions/|ZSH/|; s|/usr/share/zsh/site-functions/|ZSH/|' \
  -e 's|/usr/share/doc/prova/copyright|LICENSE|; s|/usr/share/licenses/prova/LICENSE|LICENSE|' "$1" | sort; }
diff <(norm "$work/deb.files") <(norm "$work/rpm.files") || fail "the RPM and the DEB hold different files"
echo "test-packages: $(basename "$deb") installs, works, removes cleanly; $(basename "$rpmf") holds the same $(wc -l <"$work/deb.files") files"
