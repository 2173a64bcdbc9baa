package engine

import (
	"bytes"
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/upstream"
	"github.com/genui-dev/genui/internal/manytools"
)

// TestToolsParsedWhileStreaming: the engine loads a paginated list of
// long pages with every tool parsed from what the upstream link handed
// over while each page streamed in (the parser took all of a page before
// its answer returned), and the registry holds them all, in order, byte
// for byte.
func TestToolsParsedWhileStreaming(t *testing.T) {
	srv := &manytools.Server{N: 3000, PageSize: 2000}
	e, err := New(Options{Upstream: upstream.Config{Transport: "inprocess", InProcess: srv.Serve}, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = e.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	if err := e.tools.WaitReady(wctx); err != nil {
		t.Fatal(err)
	}
	tools := e.tools.List()
	if len(tools) != srv.N {
		t.Fatalf("%d tools, want %d", len(tools), srv.N)
	}
	for i, tool := range tools {
		if tool.Name != srv.Name(i) || !bytes.Equal(tool.Raw, srv.Tool(i)) || tool.Title() != "Tool "+strconv.Itoa(i+1) {
			t.Fatalf("tool %d: %s %.60s", i, tool.Name, tool.Raw)
		}
	}
	// One page the way listToolsPage takes it: parsed ahead, all of it.
	ahead := e.parseAhead()
	_, streamed, split, err := e.relay.listTools(wctx, nil, ahead.each)
	p := ahead.finish()
	if err != nil || !split || len(streamed) != 2000 || p.Added() != 2000 || len(p.Tools()) != 2000 {
		t.Fatalf("page: err %v, split %v, %d streamed, parser took %d and kept %d", err, split, len(streamed), p.Added(), len(p.Tools()))
	}
	for i, tool := range p.Tools() {
		if &tool.Raw[0] != &streamed[i][0] || tool.Name != srv.Name(i) {
			t.Fatalf("parsed tool %d is not the streamed one: %s", i, tool.Name)
		}
	}
}
