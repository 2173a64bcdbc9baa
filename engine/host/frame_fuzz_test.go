package host_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// frameSink collects what the host sends.
type frameSink struct {
	mu     sync.Mutex
	frames [][]byte
}

func (s *frameSink) Send(b []byte) error {
	s.mu.Lock()
	s.frames = append(s.frames, bytes.Clone(b))
	s.mu.Unlock()
	return nil
}

func (s *frameSink) take() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.frames
	s.frames = nil
	return out
}

// FuzzHandleFrame feeds arbitrary frames to a host session over the demo
// upstream (the corpus under testdata/fuzz/FuzzHandleFrame holds requests
// of every kind genui serves and the inputs that once broke it). A frame
// must never panic (HandleFrame recovers, so a "genui bug" answer is the
// failure), every frame genui writes must be one valid JSON-RPC line, and a
// request gets at most one answer, carrying its id.
//
// CI runs it briefly (make test: 60,000 inputs, a count because a -fuzztime
// duration can fail on Go 1.26's coordinator race, go.dev/issue/75804); locally:
//
//	go test -run '^$' -fuzz FuzzHandleFrame -fuzztime 60s ./engine/host/
func FuzzHandleFrame(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		dupMeta,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"ui://get_forecast"}}`,
	} {
		f.Add([]byte(seed))
	}
	e, err := engine.New(engine.Options{Upstream: demoUpstream(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		f.Fatal(err)
	}
	srv := host.New(host.Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry(), OpenBrowser: func(string) error { return nil },
		ReadyTimeout: 2 * time.Second, ClientRequestTimeout: time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = e.Run(ctx); close(done) }()
	f.Cleanup(func() {
		cancel()
		<-done
	})
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	if err := e.Registry().WaitReady(wctx); err != nil {
		f.Fatal(err)
	}
	out := &frameSink{}
	sess := srv.NewSession("fuzz", out)
	f.Fuzz(func(t *testing.T, frame []byte) {
		reply := &frameSink{}
		rctx, rcancel := context.WithTimeout(ctx, time.Second)
		defer rcancel()
		sess.HandleFrame(rctx, frame, reply)
		in, inErr := jsonrpc.Parse(frame)
		answers := 0
		for _, b := range append(reply.take(), out.take()...) {
			if bytes.IndexByte(b, '\n') >= 0 {
				t.Fatalf("frame with a raw newline: %q", b)
			}
			m, err := jsonrpc.Parse(b)
			if err != nil {
				t.Fatalf("invalid frame %q for input %q: %v", b, frame, err)
			}
			if m.Error != nil && strings.Contains(m.Error.Message, "genui bug") {
				t.Fatalf("input %q panicked: %s", frame, m.Error.Message)
			}
			if m.IsResponse() {
				answers++
				if inErr == nil && in.IsRequest() && string(m.ID) != string(in.ID) {
					t.Fatalf("answer %q to request id %s", b, in.ID)
				}
			}
		}
		if answers > 1 {
			t.Fatalf("input %q got %d answers", frame, answers)
		}
	})
}
