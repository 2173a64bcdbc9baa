package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/upstream"
	"github.com/genui-dev/genui/internal/testenv"
)

// TestFastPathHistoryBuffersStayApart: fast-path calls record their tool,
// arguments and result in pooled buffers the history hands back once its
// writer is done; with many calls in flight at once (pipelined, so
// buffers are taken and returned while others are being filled), every
// entry still holds its own call's arguments and result, whole.
func TestFastPathHistoryBuffersStayApart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	log := slog.New(slog.DiscardHandler)
	up := upstream.Config{Transport: upstream.TransportStdio, Command: os.Args[0], Args: []string{"-test.run=^$"},
		Env: []string{demoChildEnv + "=1"}, Logger: log}
	e, err := engine.New(engine.Options{Upstream: up, Dir: t.TempDir(), Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	srv := host.New(host.Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry(), Logger: log})
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{}, 2)
	go func() { _ = e.Run(ctx); done <- struct{}{} }()
	go func() { _ = srv.ServeStdio(ctx, inR, outW); done <- struct{}{} }()
	t.Cleanup(func() {
		_ = inW.Close()
		cancel()
		for range 2 {
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Error("genui did not stop within 30s")
				return
			}
		}
		_, _, _ = outR.Close(), outW.Close(), inR.Close()
	})
	c := &rawConn{w: inW, fr: jsonrpc.NewFrameReader(outR, 0)}
	c.handshake(t)
	c.roundTrip(t, []byte(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`+"\n"), []byte(`"id":9,`))

	const rounds, inFlight = 6, 40
	before := host.FastForwarded(srv)
	for r := range rounds {
		var batch []byte
		for i := range inFlight {
			n := r*inFlight + i
			batch = fmt.Appendf(batch, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"get_current_weather",`+
				`"arguments":{"location":"City %d-%s"}}}`+"\n", 100+n, n, strings.Repeat("x", n%7*50))
		}
		if _, err := c.w.Write(batch); err != nil {
			t.Fatal(err)
		}
		for range inFlight {
			if _, err := c.fr.ReadFrame(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got := host.FastForwarded(srv) - before; got != rounds*inFlight {
		t.Fatalf("%d of %d calls took the fast path", got, rounds*inFlight)
	}
	total := rounds * inFlight
	var page contract.HistoryPage
	testenv.Until(30*time.Second, func() bool {
		if page, err = e.History(context.Background(), contract.HistoryQuery{Tool: "get_current_weather", Limit: 1000}); err != nil {
			t.Fatal(err)
		}
		return page.Matching >= total
	})
	if page.Matching != total {
		t.Fatalf("history holds %d calls, want %d", page.Matching, total)
	}
	for _, listed := range page.Entries {
		ent, err := e.HistoryEntry(context.Background(), listed.ID)
		if err != nil {
			t.Fatal(err)
		}
		var args struct{ Location string }
		if err := json.Unmarshal(ent.Arguments, &args); err != nil {
			t.Fatalf("entry %d: arguments %s: %v", ent.ID, ent.Arguments, err)
		}
		var n int
		if _, err := fmt.Sscanf(args.Location, "City %d", &n); err != nil || ent.ArgumentsSize != len(ent.Arguments) {
			t.Fatalf("entry %d: arguments %s (size %d)", ent.ID, ent.Arguments, ent.ArgumentsSize)
		}
		if want := fmt.Sprintf("City %d-%s", n, strings.Repeat("x", n%7*50)); args.Location != want {
			t.Fatalf("entry %d: location %q, want %q", ent.ID, args.Location, want)
		}
		if ent.Tool != "get_current_weather" || ent.Source != contract.SourceMCP || !json.Valid(ent.Result) ||
			!strings.Contains(string(ent.Result), fmt.Sprintf("City %d-", n)) {
			t.Fatalf("entry %d (call %d): tool %q source %q result %.300s", ent.ID, n, ent.Tool, ent.Source, ent.Result)
		}
	}

	// The general path (taken while someone watches traffic) records a call
	// with one copy of its arguments and result: both whole in the entry.
	wctx, wcancel := context.WithCancel(context.Background())
	defer wcancel()
	if _, err := e.Subscribe(wctx); err != nil {
		t.Fatal(err)
	}
	before = host.FastForwarded(srv)
	c.roundTrip(t, []byte(`{"jsonrpc":"2.0","id":7000,"method":"tools/call","params":{"name":"get_current_weather","arguments":{"location":"Watched-1"}}}`+"\n"), []byte(`"id":7000,`))
	if host.FastForwarded(srv) != before {
		t.Fatal("the watched call took the fast path")
	}
	testenv.Until(30*time.Second, func() bool {
		if page, err = e.History(context.Background(), contract.HistoryQuery{Tool: "get_current_weather", Limit: 1}); err != nil {
			t.Fatal(err)
		}
		return page.Matching > total
	})
	ent, err := e.HistoryEntry(context.Background(), page.Entries[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if string(ent.Arguments) != `{"location":"Watched-1"}` || !strings.Contains(string(ent.Result), `"location":"Watched-1"`) {
		t.Fatalf("the general path's entry: arguments %s result %.300s", ent.Arguments, ent.Result)
	}
}
