# genui developer targets. `make test` is the project's test command (CI runs it).
GO ?= go
export GENUI_TEST_CACHE ?= $(HOME)/.cache/genui-test

.PHONY: build test bench lint

## build: the genui binary at bin/genui
build:
	$(GO) build -o bin/genui ./cmd/genui

## test: install test dependencies when missing, then every test with the race detector, then
## a short fuzz run of the host's frame handling (its corpus is checked in under testdata/fuzz)
test:
	scripts/test-deps.sh
	$(GO) test -race -count=1 -timeout 20m ./...
	$(GO) test -run '^$$' -fuzz FuzzHandleFrame -fuzztime 20s ./engine/host/

## bench: with the TypeScript SDK client, tools/call round trips direct vs through a byte relay
## vs through `genui mcp` (added latency, genui/relay ratio), warm resources/read vs ping, UI sizes,
## startup vs the demo alone; then the Go benchmarks (/wait push-to-delivery vs a channel, 10k
## events, cache hits vs a map, cached UI reads vs ping over in-memory pipes). Every figure comes
## with its same-run baseline.
bench: build
	scripts/test-deps.sh
	$(GO) run ./bench -genui bin/genui
	$(GO) test -run '^$$' -bench . ./engine/events/ ./engine/cache/ ./engine/host/

## lint: gofmt must report nothing; go vet must pass
lint:
	@out="$$(find . -name '*.go' -not -path './.git/*' -not -path './bin/*' -not -path '*/node_modules/*' | xargs gofmt -l)"; \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
