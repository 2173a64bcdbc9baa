package host_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/upstream"
)

// pipeClient talks to a host.Server over in-memory pipes, the way a stdio
// host would.
type pipeClient struct {
	t      *testing.T
	w      io.WriteCloser
	mu     sync.Mutex
	nextID int
	resp   map[string]chan *jsonrpc.Message
	notifs []*jsonrpc.Message
	reqs   chan *jsonrpc.Message // server-to-client requests
	raw    []string
	change chan struct{}
}

type harness struct {
	e   *engine.Engine
	srv *host.Server
	c   *pipeClient
}

// startHost runs an engine over the given upstream and a stdio host session.
func startHost(t *testing.T, up upstream.Config, mode string) *harness {
	t.Helper()
	return startHostOpts(t, up, host.Options{UIMetadata: mode})
}

// startHostOpts is startHost with host options (Engine and Logger are
// filled in) and changes to the engine's options.
func startHostOpts(t *testing.T, up upstream.Config, hopts host.Options, eopts ...func(*engine.Options)) *harness {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if os.Getenv("GENUI_TEST_LOG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	up.BackoffMin, up.BackoffMax = 50*time.Millisecond, 200*time.Millisecond
	o := engine.Options{Upstream: up, Dir: t.TempDir(), Logger: log}
	for _, f := range eopts {
		f(&o)
	}
	e, err := engine.New(o)
	if err != nil {
		t.Fatal(err)
	}
	hopts.Engine, hopts.Upstream, hopts.Tools, hopts.Logger = e, e.Relay(), e.Registry(), log
	srv := host.New(hopts)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{}, 2)
	go func() { _ = e.Run(ctx); done <- struct{}{} }()
	go func() { _ = srv.ServeStdio(ctx, inR, outW); _ = outW.Close(); done <- struct{}{} }()
	c := &pipeClient{t: t, w: inW, resp: map[string]chan *jsonrpc.Message{}, reqs: make(chan *jsonrpc.Message, 16), change: make(chan struct{})}
	go c.read(outR)
	t.Cleanup(func() {
		_ = inW.Close()
		cancel()
		for i := 0; i < 2; i++ {
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Error("engine or host did not stop within 5s")
				return
			}
		}
	})
	return &harness{e: e, srv: srv, c: c}
}

func (c *pipeClient) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Text()
		m, err := jsonrpc.Parse([]byte(line))
		c.mu.Lock()
		c.raw = append(c.raw, line)
		if err != nil {
			c.mu.Unlock()
			continue
		}
		switch {
		case m.IsResponse():
			if ch, ok := c.resp[string(m.ID)]; ok {
				ch <- m
				delete(c.resp, string(m.ID))
			}
		case m.IsRequest():
			c.reqs <- m
		default:
			c.notifs = append(c.notifs, m)
		}
		close(c.change)
		c.change = make(chan struct{})
		c.mu.Unlock()
	}
}

func (c *pipeClient) send(frame []byte) {
	c.t.Helper()
	if _, err := c.w.Write(append(frame, '\n')); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// call sends a request and waits (bounded) for its response.
func (c *pipeClient) call(method string, params any) *jsonrpc.Message {
	c.t.Helper()
	m, id := c.start(method, params)
	select {
	case r := <-m:
		return r
	case <-time.After(20 * time.Second):
		c.t.Fatalf("no response to %s (id %s) within 20s", method, id)
		return nil
	}
}

func (c *pipeClient) start(method string, params any) (chan *jsonrpc.Message, string) {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := strconv.Itoa(c.nextID)
	ch := make(chan *jsonrpc.Message, 1)
	c.resp[id] = ch
	c.mu.Unlock()
	var raw json.RawMessage
	if params != nil {
		b, err := json.Marshal(params)
		if err != nil {
			c.t.Fatal(err)
		}
		raw = b
	}
	c.send(jsonrpc.NewRequest(json.RawMessage(id), method, raw))
	return ch, id
}

// result calls and fails the test on a JSON-RPC error.
func (c *pipeClient) result(method string, params any, out any) {
	c.t.Helper()
	r := c.call(method, params)
	if r.Error != nil {
		c.t.Fatalf("%s: %v", method, r.Error)
	}
	if out != nil {
		if err := json.Unmarshal(r.Result, out); err != nil {
			c.t.Fatalf("%s: decode %s: %v", method, r.Result, err)
		}
	}
}

func (c *pipeClient) initialize(caps any) {
	c.t.Helper()
	if caps == nil {
		caps = map[string]any{}
	}
	c.result("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": caps,
		"clientInfo": map[string]any{"name": "test", "version": "1"}}, nil)
	c.send(jsonrpc.NewNotification("notifications/initialized", nil))
}

// waitNotif waits (bounded) for a notification matching pred.
func (c *pipeClient) waitNotif(pred func(*jsonrpc.Message) bool, d time.Duration) (*jsonrpc.Message, error) {
	deadline := time.After(d)
	seen := 0
	for {
		c.mu.Lock()
		for ; seen < len(c.notifs); seen++ {
			if pred(c.notifs[seen]) {
				m := c.notifs[seen]
				c.mu.Unlock()
				return m, nil
			}
		}
		ch := c.change
		c.mu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			return nil, fmt.Errorf("no matching notification within %s", d)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
