# genui developer targets. `make deps test` is the project's test command (CI runs it):
# `make deps` installs what the tests need, `make test` installs nothing.
GO ?= go
export GENUI_TEST_CACHE ?= $(HOME)/.cache/genui-test

# README.md's "**Version: X.Y.Z**" line is the single source of the version;
# builds inject it (and the git commit) into engine.Version and engine.Commit.
VERSION := $(shell sed -n 's/^\*\*Version: \([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\)\*\*$$/\1/p' README.md)
GIT_REV := $(shell git rev-parse --short=12 HEAD 2>/dev/null)
COMMIT  := $(if $(GIT_REV),$(GIT_REV)$(shell git diff --quiet HEAD -- 2>/dev/null || echo -dirty),unknown)
# grpcnotrace: grpc (brought by the Google providers' auth) leaves out golang.org/x/net/trace,
# whose html/template pages would otherwise keep every exported method in the binary (make size)
TAGS    := grpcnotrace
LDFLAGS := -s -w -X github.com/genui-dev/genui/engine.Version=$(VERSION) -X github.com/genui-dev/genui/engine.Commit=$(COMMIT)

# make lint's tools: golangci-lint, pinned and built into the test cache; ESLint from npm
GOLANGCI_LINT_VERSION := v2.15.0
GOLANGCI_LINT := $(GENUI_TEST_CACHE)/bin/golangci-lint-$(GOLANGCI_LINT_VERSION)
NPM_BIN := $(GENUI_TEST_CACHE)/npm/node_modules/.bin
# deadcode (golang.org/x/tools), pinned and built into the test cache like golangci-lint
DEADCODE_VERSION := v0.52.0
DEADCODE := $(GENUI_TEST_CACHE)/bin/deadcode-$(DEADCODE_VERSION)

# release targets (GOOS/GOARCH) and where they go
PLATFORMS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64
RELEASE_DIR ?= release
# Where a published release's files live: $(RELEASE_DOWNLOAD_URL)/vX.Y.Z/FILE. The default is
# the GitHub releases of the repository go.mod's module path names. The Homebrew formula's URLs
# and the install script's default come from it; make publishes nothing.
MODULE := $(shell sed -n 's/^module //p' go.mod)
RELEASE_HOMEPAGE ?= https://$(MODULE)
RELEASE_DOWNLOAD_URL ?= $(RELEASE_HOMEPAGE)/releases/download
# archive entries carry the commit's time, so the same commit gives the same archives
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null)

.PHONY: build deps test test-short bench lint release version uicorpus size

## version: the version builds get, from README.md
version:
	@test -n "$(VERSION)" || { echo "README.md has no **Version: X.Y.Z** line" >&2; exit 1; }
	@echo $(VERSION)

## build: the genui binary at bin/genui, with the README's version and the commit
build: version
	$(GO) build -tags '$(TAGS)' -ldflags '$(LDFLAGS)' -o bin/genui ./cmd/genui

## release: static binaries (CGO_ENABLED=0, -trimpath) for PLATFORMS under RELEASE_DIR,
## named genui-vX.Y.Z-OS-ARCH[.exe]; from them (internal/release) an archive per platform
## (tar.gz, zip for Windows; binary, README.md, LICENSE), install.sh, homebrew/genui.rb,
## SHA256SUMS, and the npm packages under npm/ (folders, packed with `npm pack` when npm is here)
release: version
	rm -rf $(RELEASE_DIR)
	mkdir -p $(RELEASE_DIR)
	@set -e; for p in $(PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; ext=; [ "$$os" = windows ] && ext=.exe; \
		out=$(RELEASE_DIR)/genui-v$(VERSION)-$$os-$$arch$$ext; \
		echo "build $$out"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -tags '$(TAGS)' -ldflags '$(LDFLAGS)' -o $$out ./cmd/genui; \
	done
	$(GO) run ./internal/release/gen -version '$(VERSION)' -dir '$(RELEASE_DIR)' -platforms '$(PLATFORMS)' \
		-homepage '$(RELEASE_HOMEPAGE)' -download-url '$(RELEASE_DOWNLOAD_URL)' -mtime '$(or $(SOURCE_DATE_EPOCH),0)'
	@if command -v npm >/dev/null 2>&1; then \
		cd $(RELEASE_DIR)/npm && for d in */; do npm pack --silent "./$$d"; done; \
	else echo "npm not found: the npm packages are folders under $(RELEASE_DIR)/npm, not packed"; fi

## release-test: the release checks alone (`make test` runs them too): a one-platform release
## for this machine, its archive, SHA256SUMS and formula, the npm tarballs installed without the
## registry (`npx genui version`, `npx genui mcp` answering initialize), install.sh over HTTP
## and file://, a corrupted archive refused; the README's Install lines
.PHONY: release-test
release-test:
	scripts/test-deps.sh --check
	$(GO) test -count=1 -timeout 10m ./internal/release/
	$(GO) test -count=1 -timeout 10m -run '^(TestReleaseBuild|TestREADMEInstallLines)$$' ./e2e/

## deps: install what the tests need when missing (scripts/test-deps.sh): the Debian packages
## chromium, tmux and curl (apt-get, as root or via sudo) and the pinned npm packages, into the
## test cache. The one target that installs system packages; test, bench and release-test only check
deps:
	scripts/test-deps.sh

## test: check the test dependencies are there (installing nothing: it lists what is missing and
## says to run `make deps`), then every test with the race detector, then a short fuzz run of the
## host's frame handling (its corpus is checked in under testdata/fuzz). The fuzz budget is a count
## of inputs, not a time: Go 1.26's fuzz coordinator can fail a target with a bare "context deadline
## exceeded" when a -fuzztime duration ends while a starved worker is mid-input (go.dev/issue/75804,
## fixed in Go 1.27); a count has no deadline to race, and -timeout still bounds it. The longest package,
## engine/gen (the UI corpus: 1,975 pages in Chromium), takes 10-15 minutes under -race on a
## loaded 2-core machine; the 25-minute bound still dumps a hung test's goroutines inside CI's
## 30 minutes (.ci/run)
test:
	scripts/test-deps.sh --check
	$(GO) test -race -count=1 -timeout 25m ./...
	$(GO) test -run '^$$' -fuzz FuzzHandleFrame -fuzztime 60000x -timeout 5m ./engine/host/

## test-short: the fast tier, for a machine without chromium, tmux, node or the npm packages:
## `go test -short`, in which tests that need those, the genui binary or minutes skip
## (internal/testenv.SkipShort; under CI=true too, since -short is asked for)
test-short:
	$(GO) test -short -count=1 -timeout 5m ./...

## bench: with the TypeScript SDK client, tools/call round trips direct vs through a byte relay
## vs through `genui mcp`, alternating call by call (added latency, genui/relay ratio), warm
## resources/read vs ping, UI sizes, startup vs the demo alone, the start ratio (genui mcp over
## server-memory vs server-memory alone, median of paired ratios); then the Go benchmarks (/wait
## push-to-delivery vs a channel, 10k events, cache hits vs a map, a proxied tools/call vs a
## byte relay vs the demo directly with genui's allocations per call, cached UI reads vs ping over
## OS pipes, 100,000 upstream tools: bytes genui holds per tool vs the tool's JSON and a paged
## tools/list vs compacting the JSON, a TUI frame with 1,000 tools and 10,000 events vs an empty
## one, a read while the LLM writes the page (what a first read gets) vs a cached read, /variables
## with 1,000 tools vs 10 per tool; the offline page sizes over the recorded corpus per answer
## shape and view kind, and each shape's render time vs a minimal App page). Every figure comes
## with its same-run baseline.
bench: build
	scripts/test-deps.sh --check
	$(GO) run ./bench -genui bin/genui
	$(GO) test -run '^$$' -bench . ./engine/ ./engine/events/ ./engine/cache/ ./engine/history/ ./engine/host/ ./engine/httpapi/
	$(GO) test -run '^$$' -bench 'OfflineGenerate|SpecVsHTMLGeneration' ./engine/gen/
	$(GO) test -run '^$$' -bench . -benchtime 1x ./bench/pagerender/
	$(GO) test -run '^$$' -bench . -benchmem ./tui/

## size: the stripped linux/amd64 binary as `make release` builds it, the modules, packages and
## direct dependencies that make it up, what keeps the linker from dropping unused methods,
## and the size without that (a measurement build; bench/size)
size: version
	$(GO) run ./bench/size -tags '$(TAGS)' -ldflags '$(filter-out -s -w,$(LDFLAGS))' -whatif

## uicorpus: record the UI corpus (not part of test): install a dozen MCP servers from npm and
## what they need from Debian into the test cache, call every tool, write testdata/uicorpus/ and
## the per-server gallery pages under docs/gallery/servers/ (scripts/uicorpus.sh)
uicorpus:
	scripts/uicorpus.sh

## lint: golangci-lint (.golangci.yml: charm crush's linter set with staticcheck, gofmt and
## goimports; built once into the test cache), go vet, `go mod tidy` changing nothing, and
## ESLint over the scripts genui inlines into pages (eslint.config.cjs; `make deps` installs
## ESLint into the test cache), and deadcode over the genui binary: no unreachable function
## outside scripts/deadcode-allow.txt, where each has its reason (scripts/deadcode.sh)
lint: $(GOLANGCI_LINT) $(DEADCODE)
	$(GOLANGCI_LINT) run ./...
	$(GO) vet ./...
	scripts/deadcode.sh $(DEADCODE)
	@$(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy: run go mod tidy" >&2; exit 1; }
	@test -x $(NPM_BIN)/eslint || { echo "ESLint is not installed in $(NPM_BIN): run make deps" >&2; exit 1; }
	NODE_PATH=$(GENUI_TEST_CACHE)/npm/node_modules $(NPM_BIN)/eslint -c eslint.config.cjs viewdefs/*.js mcpshim/*.js pagepack/*.js

$(GOLANGCI_LINT):
	@mkdir -p $(@D)/.build
	GOBIN=$(abspath $(@D))/.build $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION)
	mv $(@D)/.build/golangci-lint $@

$(DEADCODE):
	@mkdir -p $(@D)/.build-deadcode
	GOBIN=$(abspath $(@D))/.build-deadcode $(GO) install golang.org/x/tools/cmd/deadcode@$(DEADCODE_VERSION)
	mv $(@D)/.build-deadcode/deadcode $@
