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

## bench: tools/call round trips, direct vs through `genui mcp`, one run
bench: build
	$(GO) run ./bench -genui bin/genui

## lint: gofmt must report nothing; go vet must pass
lint:
	@out="$$(find . -name '*.go' -not -path './.git/*' -not -path './bin/*' -not -path '*/node_modules/*' | xargs gofmt -l)"; \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
