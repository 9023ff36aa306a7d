# prova — see README.md. Every target works on a fresh Debian machine with Go.
GO       ?= go
BIN      ?= bin/prova
PKGS     ?= ./...
FUZZTIME ?= 20s

.PHONY: all build test unit race lint vet staticcheck fmtcheck tidy golden docs man fuzz fuzz-short bench demo demo-loop dist dist-check test-packages clean

all: lint build test

# build makes a static binary (CGO_ENABLED=0), as make dist does for the
# packages: the one that ships is the one measured and tested. (A cgo build
# also maps libc and ld.so, 1.5 MB more resident in every prova process, and
# resolves users and host names through libc rather than Go's own code.)
build:
	CGO_ENABLED=0 $(GO) build -trimpath -buildvcs=auto -o $(BIN) ./cmd/prova

# test is what CI runs: static checks, every test with the race detector,
# then the runbook loader's fuzz target for a short while.
test: lint race fuzz-short

# unit runs the tests without the race detector (faster while iterating).
unit:
	$(GO) test -count=1 $(PKGS)

race:
	$(GO) test -race -count=1 -timeout 45m $(PKGS)

lint: fmtcheck vet staticcheck

vet:
	$(GO) vet $(PKGS)

staticcheck:
	$(GO) tool staticcheck $(PKGS)

fmtcheck:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

tidy:
	$(GO) mod tidy -diff

golden:
	UPDATE_GOLDEN=1 $(GO) test -count=1 $(PKGS)

# docs regenerates docs/modules/<id>.md from each module's spec and Doc(),
# keeping the hand-written sections (modules/all TestReferencePagesAreCurrent
# fails when a committed page is stale).
docs:
	$(GO) generate ./modules/all

# man writes the man pages and shell completions of bin/prova into bin/man
# and bin/completion (make dist packages the same), dated by the commit.
# The generator is a build-time tool, not linked into prova.
man: build
	SOURCE_DATE_EPOCH=$${SOURCE_DATE_EPOCH:-$$(git log -1 --format=%ct)} \
	  $(GO) run ./internal/cli/gendocs --source "$$($(BIN) --version)" --man bin/man --completion bin/completion

# fuzz-short runs the runbook loader's fuzz target for 10s (part of test:
# the loader reads every runbook a user writes).
fuzz-short:
	$(GO) test -run '^$$' -fuzz '^FuzzParseRunbook$$' -fuzztime 10s ./engine/config

# fuzz runs every fuzz target for FUZZTIME each.
fuzz:
	@set -e; for pkg in $$($(GO) list $(PKGS)); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

# bench runs the benchmarks: engine load/plan at 2,000 hosts, inventory,
# parsers, and the SSH fan-out (prova vs a raw-Go floor, OpenSSH with
# ControlMaster, and Ansible when installed) against real OpenSSH sshd on
# loopback; the fan-out table goes to bin/bench-fanout.md; then the GPFS
# verify runbook on a 1,000-node lab (bench/labverify, one row to
# bin/bench-labverify.md). See docs/performance.md. It ends with every goal
# of the engine-cost and 1,000-node issues next to the figure measured here. Set
# BENCHFANOUT_PROVA_BASELINE to another prova binary to measure it in the
# same fan-out run.
bench: build
	$(GO) test -run '^$$' -bench . -benchmem -count=1 -timeout 30m $$($(GO) list $(PKGS) | grep -v '/bench/')
	@{ $(GO) test -run '^$$' -bench 'LoadPlan2000|ApplyScale' -benchmem -count=1 -timeout 30m ./bench/fanout; \
	  echo $$? > bin/.bench-rc; } | tee bin/bench-engine.txt; exit $$(cat bin/.bench-rc)
	@{ BENCHFANOUT_PROVA=$(abspath $(BIN)) BENCHFANOUT_MARKDOWN=$(abspath bin/bench-fanout.md) \
	  $(GO) test -run '^$$' -bench '^BenchmarkFanout$$' -benchtime 15s -count=1 -timeout 60m ./bench/fanout; \
	  echo $$? > bin/.bench-rc; } | tee bin/bench-fanout.txt; exit $$(cat bin/.bench-rc)
	@{ BENCHLAB_PROVA=$(abspath $(BIN)) BENCHLAB_MARKDOWN=$(abspath bin/bench-labverify.md) \
	  $(GO) test -run '^$$' -bench '^BenchmarkLabVerify$$' -benchtime 1x -count=1 -timeout 60m ./bench/labverify; \
	  echo $$? > bin/.bench-rc; } | tee bin/bench-labverify.txt; exit $$(cat bin/.bench-rc)
	@echo; echo "Goals (wall times are this machine's and its load's; see docs/performance.md):"
	@grep -h '^goal:' bin/bench-engine.txt bin/bench-fanout.txt bin/bench-labverify.txt

# demo starts a 4-node lab with a silent-fallback fault, plans and applies
# the shipped runbook against it (and shows plan naming a missing OFED on a
# second lab before apply), and stops the labs.
demo: build
	./examples/demo.sh $(BIN)

# demo-loop runs the demo 20 times in a row while three busy loops load the
# machine, and fails unless all 20 pass (not part of make test; ~5 minutes).
demo-loop: build
	./scripts/demo-under-load.sh $(abspath $(BIN)) 20 3

# dist builds the release: static binaries for linux/amd64 and arm64, a DEB
# and an RPM per architecture, and SHA256SUMS in dist/ (docs/install.md).
dist:
	./scripts/dist.sh

# dist-check builds the release twice and proves the two are identical.
dist-check:
	./scripts/dist-check.sh

# test-packages installs the DEB (as root), checks it and removes it; CI
# runs it after make test.
test-packages:
	./scripts/test-packages.sh

clean:
	rm -rf bin dist .prova .prova-lab
