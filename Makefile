# genui developer targets. `make test` is the project's test command (CI runs it).
GO ?= go
export GENUI_TEST_CACHE ?= $(HOME)/.cache/genui-test

.PHONY: build test bench lint

## build: the genui binary at bin/genui
build:
	$(GO) build -o bin/genui ./cmd/genui

## test: install test dependencies when missing, then every test with the race detector
test:
	scripts/test-deps.sh
	$(GO) test -race -count=1 -timeout 20m ./...

## bench: tools/call round trips direct vs through `genui mcp`, cached resources/read vs ping,
## then the Go benchmarks (/wait push-to-delivery vs a channel, 10k events, cache hits vs a map,
## cached UI reads vs ping over in-memory pipes, a TUI frame with 1,000 tools and 10,000 events
## vs an empty one). Every figure comes with its same-run baseline.
bench: build
	$(GO) run ./bench -genui bin/genui
	$(GO) test -run '^$$' -bench . ./engine/events/ ./engine/cache/ ./engine/host/
	$(GO) test -run '^$$' -bench . -benchmem ./tui/

## lint: gofmt must report nothing; go vet must pass
lint:
	@out="$$(find . -name '*.go' -not -path './.git/*' -not -path './bin/*' -not -path '*/node_modules/*' | xargs gofmt -l)"; \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
