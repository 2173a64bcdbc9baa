package engine

// The tool registry: refreshes in order (a stale tools/list never wins),
// list_changed storms coalesced, ReadUI honouring its caller's context, and
// the _meta edge cases of UI linkage. Each pinned a defect that failed
// before its fix.

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/upstream"
	"github.com/genui-dev/genui/internal/testenv"
)

// listUpstream is an in-process raw JSON-RPC upstream whose tool list the
// test changes, announcing it with tools/list_changed. A tools/list can be
// made slow: it snapshots the list when it arrives and answers later.
type listUpstream struct {
	mu       sync.Mutex
	tools    []string
	slowNext time.Duration
	arrived  chan struct{} // signalled when a slow tools/list has snapshotted
	out      func([]byte)
	lists    atomic.Int64
}

func newListUpstream(tools ...string) *listUpstream {
	return &listUpstream{tools: tools, arrived: make(chan struct{}, 1)}
}

func (u *listUpstream) set(tools ...string) {
	u.mu.Lock()
	u.tools = tools
	u.mu.Unlock()
}

func (u *listUpstream) listChanged() {
	u.mu.Lock()
	out := u.out
	u.mu.Unlock()
	out(jsonrpc.NewNotification("notifications/tools/list_changed", nil))
}

func (u *listUpstream) serve(ctx context.Context, r io.Reader, w io.Writer) error {
	var wmu sync.Mutex
	out := func(b []byte) {
		wmu.Lock()
		defer wmu.Unlock()
		_, _ = w.Write(append(b, '\n'))
	}
	u.mu.Lock()
	u.out = out
	u.mu.Unlock()
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m, err := jsonrpc.Parse(sc.Bytes())
		if err != nil || !m.IsRequest() {
			continue
		}
		switch m.Method {
		case "initialize":
			out(jsonrpc.NewResult(m.ID, json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"list","version":"1"}}`)))
		case "tools/list":
			u.lists.Add(1)
			u.mu.Lock()
			var list []string
			for _, name := range u.tools {
				list = append(list, `{"name":"`+name+`","inputSchema":{"type":"object"}}`)
			}
			delay := u.slowNext
			u.slowNext = 0
			u.mu.Unlock()
			res := json.RawMessage(`{"tools":[` + strings.Join(list, ",") + `]}`)
			if delay > 0 {
				select {
				case u.arrived <- struct{}{}:
				default:
				}
			}
			go func() {
				select {
				case <-time.After(delay):
				case <-ctx.Done():
					return
				}
				out(jsonrpc.NewResult(m.ID, res))
			}()
		default:
			out(jsonrpc.NewErrorResponse(m.ID, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "no %s", m.Method)))
		}
	}
	return sc.Err()
}

// startEngine runs an engine over up until the test ends.
func startEngine(t *testing.T, up *listUpstream, g gen.Generator) *Engine {
	t.Helper()
	e, err := New(Options{Upstream: upstream.Config{Transport: "inprocess", InProcess: up.serve,
		BackoffMin: 50 * time.Millisecond, BackoffMax: 200 * time.Millisecond}, Dir: t.TempDir(), Generator: g})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = e.Run(ctx); close(done) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("engine did not stop within 5 s")
		}
	})
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer wcancel()
	if err := e.tools.WaitReady(wctx); err != nil {
		t.Fatal(err)
	}
	return e
}

func toolNames(e *Engine) []string {
	var out []string
	for _, t := range e.tools.List() {
		out = append(out, t.Name)
	}
	return out
}

// TestStaleToolsListDoesNotWin: every tools/list_changed starts its
// own RefreshTools, and each applies whatever its tools/list returned, in
// completion order. A slow refresh that started before the tools changed
// finishes after a fast one that saw the change and rolls the registry
// back: the new tool disappears (and hosts get a second list_changed for
// the rollback) although the upstream still lists it.
func TestStaleToolsListDoesNotWin(t *testing.T) {
	up := newListUpstream("a")
	e := startEngine(t, up, nil)

	up.mu.Lock()
	up.slowNext = 600 * time.Millisecond
	up.mu.Unlock()
	up.listChanged() // refresh 1 snapshots [a] and answers late
	select {
	case <-up.arrived:
	case <-time.After(5 * time.Second):
		t.Fatal("the slow tools/list never arrived")
	}
	up.set("a", "b")
	up.listChanged() // refresh 2 sees [a b] at once

	// Both refreshes done, none under way: the list is the last one's.
	testenv.Until(20*time.Second, func() bool { _, ok := e.tools.Get("b"); return ok && !e.tools.Refreshing() && up.lists.Load() >= 3 })
	if _, ok := e.tools.Get("b"); !ok {
		t.Fatalf("tools after both refreshes: %v; the upstream lists [a b]", toolNames(e))
	}
}

// TestListChangedStormIsCoalesced: 100 tools/list_changed in a row
// (a server that re-registers its tools one by one announces each) start
// 100 concurrent RefreshTools and so 100 upstream tools/list requests
// (each up to 1000 pages). One refresh running plus one queued is enough.
func TestListChangedStormIsCoalesced(t *testing.T) {
	up := newListUpstream("a")
	e := startEngine(t, up, nil)
	before := up.lists.Load()
	up.mu.Lock()
	up.slowNext = 200 * time.Millisecond // the first refresh is still running when the rest arrive
	up.mu.Unlock()
	up.set("a", "b")
	for i := 0; i < 100; i++ {
		up.listChanged()
	}
	select {
	case <-up.arrived:
	case <-time.After(5 * time.Second):
		t.Fatal("no tools/list after the storm")
	}
	// The storm's refreshes done, none queued.
	testenv.Until(20*time.Second, func() bool { _, ok := e.tools.Get("b"); return ok && !e.tools.Refreshing() })
	if _, ok := e.tools.Get("b"); !ok {
		t.Fatalf("tool b missing after the storm: %v", toolNames(e))
	}
	if n := up.lists.Load() - before; n > 3 {
		t.Fatalf("100 tools/list_changed caused %d upstream tools/list requests, want at most 3", n)
	}
}

// blockingGen is a generator as slow as a real LLM call.
type blockingGen struct {
	delay time.Duration
}

func (g blockingGen) Name() string { return "slow" }

func (g blockingGen) Generate(ctx context.Context, req gen.Request) (gen.Result, error) {
	select {
	case <-time.After(g.delay):
	case <-ctx.Done():
		return gen.Result{}, ctx.Err()
	}
	return gen.NewOffline().Generate(ctx, req)
}

// TestReadUIHonoursCallerContext: a resources/read the host cancels
// (or whose deadline passes) must return when its context ends. ReadUI
// waits in singleflight.Do for the whole generation (up to the 2 min
// GenerationTimeout) whatever the caller's context says, so cancelled
// reads pile up as blocked goroutines and the host's cancel has no effect.
// The generation itself should keep running for the cache (other readers).
func TestReadUIHonoursCallerContext(t *testing.T) {
	up := newListUpstream("a")
	// The generation takes an hour: only the caller's context can end the
	// read before the hang bound.
	e := startEngine(t, up, blockingGen{delay: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { _, err := e.readUI(ctx, "a"); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("ReadUI returned no error although its context ended first")
		}
	case <-time.After(time.Minute):
		t.Fatal("ReadUI with a 200 ms context is still waiting for the generation")
	}
}
