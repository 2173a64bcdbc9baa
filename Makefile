# genui developer targets. `make test` is the project's test command (CI runs it).
GO ?= go
export GENUI_TEST_CACHE ?= $(HOME)/.cache/genui-test

# README.md's "**Version: X.Y.Z**" line is the single source of the version;
# builds inject it (and the git commit) into engine.Version and engine.Commit.
VERSION := $(shell sed -n 's/^\*\*Version: \([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\)\*\*$$/\1/p' README.md)
GIT_REV := $(shell git rev-parse --short=12 HEAD 2>/dev/null)
COMMIT  := $(if $(GIT_REV),$(GIT_REV)$(shell git diff --quiet HEAD -- 2>/dev/null || echo -dirty),unknown)
LDFLAGS := -s -w -X github.com/genui-dev/genui/engine.Version=$(VERSION) -X github.com/genui-dev/genui/engine.Commit=$(COMMIT)

# release targets (GOOS/GOARCH) and where they go
PLATFORMS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64
RELEASE_DIR ?= release

.PHONY: build test bench lint release version uicorpus

## version: the version builds get, from README.md
version:
	@test -n "$(VERSION)" || { echo "README.md has no **Version: X.Y.Z** line" >&2; exit 1; }
	@echo $(VERSION)

## build: the genui binary at bin/genui, with the README's version and the commit
build: version
	$(GO) build -ldflags '$(LDFLAGS)' -o bin/genui ./cmd/genui

## release: static binaries (CGO_ENABLED=0, -trimpath) for PLATFORMS under RELEASE_DIR,
## named genui-vX.Y.Z-OS-ARCH[.exe], plus SHA256SUMS
release: version
	rm -rf $(RELEASE_DIR)
	mkdir -p $(RELEASE_DIR)
	@set -e; for p in $(PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; ext=; [ "$$os" = windows ] && ext=.exe; \
		out=$(RELEASE_DIR)/genui-v$(VERSION)-$$os-$$arch$$ext; \
		echo "build $$out"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $$out ./cmd/genui; \
	done
	cd $(RELEASE_DIR) && if command -v sha256sum >/dev/null; then sha256sum genui-* > SHA256SUMS; \
		else shasum -a 256 genui-* > SHA256SUMS; fi
	@cat $(RELEASE_DIR)/SHA256SUMS

## test: install test dependencies when missing, then every test with the race detector, then
## a short fuzz run of the host's frame handling (its corpus is checked in under testdata/fuzz)
test:
	scripts/test-deps.sh
	$(GO) test -race -count=1 -timeout 20m ./...
	$(GO) test -run '^$$' -fuzz FuzzHandleFrame -fuzztime 20s ./engine/host/

## bench: with the TypeScript SDK client, tools/call round trips direct vs through a byte relay
## vs through `genui mcp`, alternating call by call (added latency, genui/relay ratio), warm
## resources/read vs ping, UI sizes, startup vs the demo alone; then the Go benchmarks (/wait
## push-to-delivery vs a channel, 10k events, cache hits vs a map, a proxied tools/call vs a
## byte relay vs the demo directly with genui's allocations per call, cached UI reads vs ping over
## OS pipes, a TUI frame with 1,000 tools and 10,000 events vs an empty one). Every figure comes
## with its same-run baseline.
bench: build
	scripts/test-deps.sh
	$(GO) run ./bench -genui bin/genui
	$(GO) test -run '^$$' -bench . ./engine/events/ ./engine/cache/ ./engine/host/
	$(GO) test -run '^$$' -bench . -benchmem ./tui/

## uicorpus: record the UI corpus (not part of test): install a dozen MCP servers from npm and
## what they need from Debian into the test cache, call every tool, write testdata/uicorpus/ and
## the per-server gallery pages under docs/gallery/servers/ (scripts/uicorpus.sh)
uicorpus:
	scripts/uicorpus.sh

## lint: gofmt must report nothing; go vet must pass
lint:
	@out="$$(find . -name '*.go' -not -path './.git/*' -not -path './bin/*' -not -path '*/node_modules/*' | xargs gofmt -l)"; \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
