package upstream

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/internal/manytools"
)

// TestListToolsStreamed: a tools/list answer longer than the read buffer
// is split while it is read; ListTools hands out exactly the tools an
// ordinary split of the same answer (Request) finds, its hook got them
// in batches before, and the result with an empty tools array keeps
// nextCursor. A page short enough for one buffer is not split.
func TestListToolsStreamed(t *testing.T) {
	srv := &manytools.Server{N: 3000, PageSize: 2500}
	c := New(Config{InProcess: srv.Serve, Logger: testLogger(t)})
	defer runClient(t, c)()
	waitReady(t, c, 5*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var early []json.RawMessage // what the hook got while the answer streamed in
	starts, batches := 0, 0
	rest, tools, split, err := c.ListTools(ctx, nil, func(batch []json.RawMessage) {
		if batch == nil {
			starts++
			early = nil
			return
		}
		batches++
		early = append(early, batch...)
	})
	if err != nil {
		t.Fatal(err)
	}
	if !split {
		t.Fatal("a 900 KB tools/list answer was not split as it streamed in")
	}
	res, err := c.Request(ctx, "tools/list", nil) // the same answer, read the ordinary way
	if err != nil {
		t.Fatal(err)
	}
	var want []json.RawMessage
	var cursor string
	found, aok := jsonrpc.ArrayMember(res, "tools", func(v []byte) { want = append(want, v) }, func(k, v []byte) {
		if string(k) == "nextCursor" {
			_ = json.Unmarshal(v, &cursor)
		}
	})
	if !found || !aok || len(want) != 2500 || cursor != "2500" {
		t.Fatalf("ordinary split: found %v ok %v, %d tools, cursor %q", found, aok, len(want), cursor)
	}
	if len(tools) != len(want) {
		t.Fatalf("streamed %d tools, want %d", len(tools), len(want))
	}
	for i := range want {
		if !bytes.Equal(tools[i], want[i]) {
			t.Fatalf("tool %d: %.80s, want %.80s", i, tools[i], want[i])
		}
	}
	if starts != 1 || batches < 2 || len(early) != len(tools) {
		t.Fatalf("hook: %d starts, %d batches, %d tools; want 1, several, %d", starts, batches, len(early), len(tools))
	}
	for i := range early {
		if !bytes.Equal(early[i], tools[i]) {
			t.Fatalf("hook's tool %d: %.80s, want %.80s", i, early[i], tools[i])
		}
	}
	if string(rest) != `{"tools":[],"nextCursor":"2500"}` {
		t.Fatalf("rest = %.200s", rest)
	}
	small, tools, split, err := c.ListTools(ctx, json.RawMessage(`{"cursor":"2999"}`), nil)
	if err != nil || split || tools != nil || !strings.Contains(string(small), "tool_003000") {
		t.Fatalf("one-tool page: split %v, %d tools, err %v, %.100s", split, len(tools), err, small)
	}
}

// TestListToolsBrokenAnswer: a long tools/list answer that is not valid
// JSON (or has a member twice) is not taken by the stream: the call gets
// the ordinary read's answer (a clear error for broken JSON, the answer
// encoding/json makes of duplicates), nothing split, and the link goes on.
func TestListToolsBrokenAnswer(t *testing.T) {
	srv := &manytools.Server{N: 1000}
	var tools []string
	for i := range 1000 {
		tools = append(tools, string(srv.Tool(i)))
	}
	all := strings.Join(tools, ",")
	answers := map[string]string{
		"broken": `{"jsonrpc":"2.0","id":ID,"result":{"tools":[` + all + `,{"name":"x",}]}}`,
		"dup":    `{"jsonrpc":"2.0","id":ID,"result":{"tools":[` + all + `]},"result":{"tools":[]}}`,
	}
	for name, answer := range answers {
		t.Run(name, func(t *testing.T) {
			c := New(Config{InProcess: func(ctx context.Context, r io.Reader, w io.Writer) error {
				sc := bufio.NewScanner(r)
				for sc.Scan() {
					var m struct {
						ID     json.RawMessage `json:"id"`
						Method string          `json:"method"`
					}
					if json.Unmarshal(sc.Bytes(), &m) != nil || len(m.ID) == 0 {
						continue
					}
					out := `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"b","version":"1"}}}`
					switch m.Method {
					case "tools/list":
						out = strings.Replace(answer, "ID", string(m.ID), 1)
					case "ping":
						out = `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{}}`
					}
					if _, err := io.WriteString(w, out+"\n"); err != nil {
						return err
					}
				}
				return sc.Err()
			}, Logger: testLogger(t)})
			defer runClient(t, c)()
			waitReady(t, c, 5*time.Second)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			res, tools, split, err := c.ListTools(ctx, nil, nil)
			switch name {
			case "broken":
				if err == nil || !strings.Contains(err.Error(), "unreadable reply to tools/list") {
					t.Fatalf("broken answer: err %v, %d bytes", err, len(res))
				}
			case "dup": // encoding/json keeps the last result
				if err != nil || string(res) != `{"tools":[]}` || split || tools != nil {
					t.Fatalf("duplicate result: %v, split %v, %.80s", err, split, res)
				}
			}
			if _, err := c.Request(ctx, "ping", nil); err != nil {
				t.Fatalf("the link did not go on: %v", err)
			}
		})
	}
}

// BenchmarkToolsListRead100k: an in-process upstream's 100,000-tool
// tools/list answer (36 MB) from the request to the tools in hand, split
// as the answer streams in against the ordinary read (validate, then
// split, after the last byte), alternating. The server builds its answer
// in each op too (the same in both).
func BenchmarkToolsListRead100k(b *testing.B) {
	for _, streamed := range []bool{true, false} {
		name := map[bool]string{true: "streamed", false: "ordinary"}[streamed]
		b.Run(name, func(b *testing.B) {
			defer func(old bool) { streamLongLines = old }(streamLongLines)
			streamLongLines = streamed
			c := New(Config{InProcess: (&manytools.Server{N: 100_000}).Serve})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); _ = c.Run(ctx) }()
			defer func() { cancel(); <-done }()
			wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
			defer wcancel()
			if err := c.WaitReady(wctx); err != nil {
				b.Fatal(err)
			}
			cpu0 := cpuTime()
			for b.Loop() {
				res, tools, ok, err := c.ListTools(ctx, nil, nil)
				if err != nil {
					b.Fatal(err)
				}
				if !ok {
					found, _ := jsonrpc.ArrayMember(res, "tools", func(v []byte) { tools = append(tools, v) }, func(_, _ []byte) {})
					if !found {
						b.Fatal("no tools")
					}
				}
				if len(tools) != 100_000 || ok != streamed {
					b.Fatalf("%d tools, streamed %v", len(tools), ok)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
		})
	}
}

// cpuTime is the CPU time this process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
