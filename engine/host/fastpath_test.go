package host_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/internal/testenv"
)

// TestFastPathTakesPlainRequestsOnly: plain requests from the stdio host
// are forwarded by the stdin reader and answered byte for byte; anything
// genui rewrites or answers itself (progress tokens, escaped keys, wrapper
// tools, resources, its own methods) and everything while someone watches
// traffic takes the general path.
func TestFastPathTakesPlainRequestsOnly(t *testing.T) {
	h := startHost(t, scriptedUpstream(newScripted()), host.UIMetaAlways)
	h.c.initialize(nil)
	const customResult = `{"content":[{"type":"hologram","data":"zz","x-extra":[1]},{"type":"text","text":"hi"}],` +
		`"structuredContent":{"ok":true,"n":1.50},"_meta":{"com.example/trace":"t1"},"isError":false}`
	raw := func(id, method, params string) string {
		t.Helper()
		h.c.mu.Lock()
		ch := make(chan *jsonrpc.Message, 1)
		h.c.resp[id] = ch
		h.c.mu.Unlock()
		frame := `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `"`
		if params != "" {
			frame += `,"params":` + params
		}
		h.c.send([]byte(frame + "}"))
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer to %s", frame)
		}
		h.c.mu.Lock()
		defer h.c.mu.Unlock()
		for i := len(h.c.raw) - 1; i >= 0; i-- {
			if strings.Contains(h.c.raw[i], `"id":`+id+`,`) {
				return h.c.raw[i]
			}
		}
		t.Fatalf("no raw answer line for id %s", id)
		return ""
	}
	for _, tc := range []struct {
		name, id, method, params string
		fast                     bool
		want                     string // the whole answer line, when checked
	}{
		{"plain call", `7`, "tools/call", `{"name":"custom","arguments":{"a":"x"}}`, true,
			`{"jsonrpc":"2.0","id":7,"result":` + customResult + `}`},
		{"escaped string id", `"a\"b\\c"`, "tools/call", `{"arguments":{},"name":"custom"}`, true,
			`{"jsonrpc":"2.0","id":"a\"b\\c","result":` + customResult + `}`},
		{"prompts/list", `8`, "prompts/list", ``, true, `{"jsonrpc":"2.0","id":8,"result":{"prompts":[{"name":"p","x-extra":true}]}}`},
		{"upstream error", `9`, "foo/bar", `{}`, true, `{"jsonrpc":"2.0","id":9,"error":{"code":-32601,"message":"Method not found: foo/bar"}}`},
		{"progress token", `10`, "tools/call", `{"name":"custom","_meta":{"progressToken":"p1"}}`, false, ""},
		{"escaped _meta key", `11`, "tools/call", `{"name":"custom","\u005fmeta":{"progressToken":"p2"}}`, false, ""},
		{"wrapper tool", `12`, "tools/call", `{"name":"_ui_status","arguments":{}}`, false, ""},
		{"resources", `13`, "resources/list", `{}`, false, ""},
		{"ping", `14`, "ping", ``, false, `{"jsonrpc":"2.0","id":14,"result":{}}`},
		{"array params", `15`, "tools/call", `["custom"]`, false, ""},
		{"name escaped", `16`, "tools/call", `{"name":"cust\u006fm"}`, false, ""},
	} {
		before := host.FastForwarded(h.srv)
		line := raw(tc.id, tc.method, tc.params)
		if fast := host.FastForwarded(h.srv) > before; fast != tc.fast {
			t.Errorf("%s: fast path %v, want %v (answer %.120s)", tc.name, fast, tc.fast, line)
		}
		if tc.want != "" && line != tc.want {
			t.Errorf("%s: answer\n got %s\nwant %s", tc.name, line, tc.want)
		}
	}

	// Someone watches traffic: the general path reports it.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events, err := h.e.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	before := host.FastForwarded(h.srv)
	if line := raw(`20`, "tools/call", `{"name":"custom"}`); line != `{"jsonrpc":"2.0","id":20,"result":`+customResult+`}` {
		t.Errorf("watched call answered %s", line)
	}
	if host.FastForwarded(h.srv) != before {
		t.Error("a call made while someone watches traffic took the fast path (its traffic would not be reported)")
	}
	deadline := time.After(5 * time.Second)
	for seen := false; !seen; {
		select {
		case ev := <-events:
			if tr, ok := ev.Detail.(*contract.Traffic); ok && tr.Direction == contract.GenuiToUpstream && tr.Method == "tools/call" {
				seen = true
			}
		case <-deadline:
			t.Fatal("no traffic event for the watched call")
		}
	}
}

// TestFastPathHostThatStopsReading: a stdio host that stops reading its
// stdout does not stall the upstream connection (whose read loop writes
// the fast path's answers): what does not fit waits in a bounded queue,
// frames past it are dropped with a warning, the engine keeps talking to
// the upstream, and what was written stays whole lines.
func TestFastPathHostThatStopsReading(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("pipes are not pollable on Windows")
	}
	var logBuf syncBuf
	log := slog.New(slog.NewTextHandler(&logBuf, nil))
	e, err := engine.New(engine.Options{Upstream: scriptedUpstream(newScripted()), Dir: t.TempDir(), Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	srv := host.New(host.Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry(), Logger: log, StdoutQueueLimit: 32 << 10})
	inR, inW := io.Pipe()
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = e.Run(ctx) })
	wg.Go(func() { _ = srv.ServeStdio(ctx, inR, outW) })
	t.Cleanup(func() {
		cancel()
		_ = inW.Close()
		_ = outR.Close()
		wg.Wait()
		_ = outW.Close()
	})
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	if err := e.Registry().WaitReady(wctx); err != nil {
		t.Fatal(err)
	}
	// 3,000 calls whose answers (about 250 bytes each) fill the pipe and
	// the 32 KiB queue many times over; nobody reads stdout.
	var frames bytes.Buffer
	for i := range 3000 {
		frames.Write(jsonrpc.NewRequest(json.RawMessage(jsonInt(i+1)), "tools/call", json.RawMessage(`{"name":"custom"}`)))
		frames.WriteByte('\n')
	}
	go func() { _, _ = inW.Write(frames.Bytes()) }()
	if !testenv.Until(20*time.Second, func() bool { return strings.Contains(logBuf.String(), "the host is not reading genui's stdout") }) {
		t.Fatalf("no warning about dropped frames; log:\n%.2000s", logBuf.String())
	}
	// The upstream connection still works.
	fctx, fcancel := context.WithTimeout(ctx, 5*time.Second)
	defer fcancel()
	if _, err := e.Relay().Forward(fctx, "tools/call", json.RawMessage(`{"name":"custom"}`)); err != nil {
		t.Fatalf("the upstream connection stalled behind a host that does not read: %v", err)
	}
	// What reached the pipe is whole frames.
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for i := 0; i < 100 && sc.Scan(); i++ {
		if _, err := jsonrpc.Parse(sc.Bytes()); err != nil {
			t.Fatalf("line %d is not a whole frame: %.100q (%v)", i, sc.Text(), err)
		}
	}
}

func jsonInt(i int) string { b, _ := json.Marshal(i); return string(b) }

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
