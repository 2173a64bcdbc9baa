package engine

import (
	"bytes"
	"context"
	"runtime/debug"
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
	gogc := gcPercent()
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
	if got := gcPercent(); got != gogc {
		t.Fatalf("after the load GOGC is %d, was %d", got, gogc)
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
	ahead := e.parseAhead(false)
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

// gcPercent reads the GC's target (setting it is the only way to read it).
func gcPercent() int {
	v := debug.SetGCPercent(100)
	debug.SetGCPercent(v)
	return v
}

// TestLoadGCRaisesAndPutsBack: a load raises the GC's target; loads that
// overlap put it back only when the last ends; a target set higher
// (GOGC), or the GC turned off, is left alone.
func TestLoadGCRaisesAndPutsBack(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	one := loadGC()
	if got := gcPercent(); got != loadGCPercent {
		t.Fatalf("during a load: GOGC %d, want %d", got, loadGCPercent)
	}
	two := loadGC()
	one()
	if got := gcPercent(); got != loadGCPercent {
		t.Fatalf("while a second load runs: GOGC %d, want %d", got, loadGCPercent)
	}
	two()
	if got := gcPercent(); got != 100 {
		t.Fatalf("after the loads: GOGC %d, want 100 back", got)
	}
	for _, set := range []int{-1, 2 * loadGCPercent} {
		debug.SetGCPercent(set)
		done := loadGC()
		if got := gcPercent(); got != set {
			t.Fatalf("GOGC %d set before: %d during a load", set, got)
		}
		done()
		if got := gcPercent(); got != set {
			t.Fatalf("GOGC %d set before: %d after a load", set, got)
		}
	}
}
