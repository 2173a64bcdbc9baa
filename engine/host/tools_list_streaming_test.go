package host_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/upstream"
	"github.com/genui-dev/genui/internal/manytools"
	"github.com/genui-dev/genui/internal/testenv"
)

// The first load's tools/list pages go out as the upstream's answer
// streams in (registry.Registry.WaitTools): these tests run a real child
// process (pausingChild) that writes the first pausingFirst tools of its
// answer and then waits for the test to say how it goes on.

// pausingSetup starts the engine and the MCP host (pages of pageSize) in
// front of the pausing child; go_ tells the child how to go on.
func pausingSetup(t *testing.T, pageSize int) (e *engine.Engine, srv *host.Server, goOn func(how string)) {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	log := slog.New(slog.DiscardHandler)
	up := upstream.Config{Transport: upstream.TransportStdio, Command: os.Args[0], Args: []string{"-test.run=^$"},
		Env: []string{pausingChildEnv + "=" + dir}, Logger: log}
	e, err := engine.New(engine.Options{Upstream: up, Dir: t.TempDir(), Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	srv = host.New(host.Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry(), Logger: log, ToolsPageSize: pageSize})
	done := make(chan struct{})
	go func() { _ = e.Run(ctx); close(done) }()
	t.Cleanup(func() {
		goOn := filepath.Join(dir, "go")
		if _, err := os.Stat(goOn); err != nil {
			_ = os.WriteFile(goOn, []byte("die"), 0o600) // a paused child ends
		}
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("engine did not stop within 30 s")
		}
	})
	return e, srv, func(how string) {
		tmp := filepath.Join(dir, "go.tmp")
		if err := os.WriteFile(tmp, []byte(how), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(dir, "go")); err != nil {
			t.Fatal(err)
		}
	}
}

// page is one tools/list answer.
type page struct {
	names  []string
	cursor string
	err    *jsonrpc.Error
}

type pageSink struct{ frames chan []byte }

func (s pageSink) Send(b []byte) error {
	s.frames <- append([]byte(nil), b...)
	return nil
}

// sessionPage asks sess for the page at cursor ("" the first).
func sessionPage(t *testing.T, sess *host.Session, cursor string) page {
	params := "{}"
	if cursor != "" {
		params = `{"cursor":` + strconv.Quote(cursor) + `}`
	}
	sink := pageSink{make(chan []byte, 1)}
	sess.HandleFrame(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":`+params+`}`), sink)
	var ans struct {
		Result struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
			NextCursor string `json:"nextCursor"`
		} `json:"result"`
		Error *jsonrpc.Error `json:"error"`
	}
	select {
	case b := <-sink.frames:
		if err := json.Unmarshal(b, &ans); err != nil {
			t.Errorf("tools/list answer %.200s: %v", b, err)
		}
	default:
		t.Error("tools/list: no answer")
	}
	p := page{cursor: ans.Result.NextCursor, err: ans.Error}
	for _, tool := range ans.Result.Tools {
		p.names = append(p.names, tool.Name)
	}
	return p
}

// TestToolsListPagesWhileUpstreamStillWrites: a host's first pages are
// answered while the upstream's answer is still being written (the child
// writes the rest only once the test has them), from the tools in so far,
// without any of them reaching the registry; the whole listing paged
// through afterwards is every upstream tool once, in order, then genui's
// own.
func TestToolsListPagesWhileUpstreamStillWrites(t *testing.T) {
	e, srv, goOn := pausingSetup(t, 50)
	sess := srv.NewSession("paging", pageSink{make(chan []byte, 64)})
	defer sess.Close()
	up := &manytools.Server{N: pausingTools}

	var names []string
	p := sessionPage(t, sess, "")
	for range 3 { // 150 of the 400 tools written so far
		if p.err != nil || len(p.names) != 50 || p.cursor == "" {
			t.Fatalf("a page while the upstream writes: %d tools, cursor %q, err %v", len(p.names), p.cursor, p.err)
		}
		names = append(names, p.names...)
		p = sessionPage(t, sess, p.cursor)
	}
	if n := len(e.Registry().List()); n != 0 {
		t.Fatalf("the registry holds %d tools of a load in progress", n)
	}
	if _, ok := e.Registry().Get(up.Name(0)); ok {
		t.Fatal("a tool of a load in progress is in the registry's index")
	}
	goOn("rest")
	for {
		if p.err != nil {
			t.Fatalf("page after %d tools: %v", len(names), p.err)
		}
		names = append(names, p.names...)
		if p.cursor == "" {
			break
		}
		p = sessionPage(t, sess, p.cursor)
	}
	own := 0
	for i, name := range names {
		switch {
		case i < pausingTools && name != up.Name(i):
			t.Fatalf("tool %d is %q, want %q", i, name, up.Name(i))
		case i >= pausingTools && strings.HasPrefix(name, "_ui_"):
			own++
		case i >= pausingTools:
			t.Fatalf("tool %d is %q after the upstream's", i, name)
		}
	}
	if own == 0 || len(names) != pausingTools+own {
		t.Fatalf("listed %d tools (%d of genui's own), want %d and genui's", len(names), own, pausingTools)
	}
	if n := len(e.Registry().List()); n != pausingTools {
		t.Fatalf("the registry holds %d tools, want %d", n, pausingTools)
	}
}

// TestToolsListUpstreamFailsAfterFirstPages: when the upstream dies, or
// its answer turns out not to be JSON, after a host got pages of it, the
// host's next page is a clear error, the host is told
// notifications/tools/list_changed, and the registry is left as it was
// (nothing of the failed load in it); listing again from the start once
// the restarted upstream answers whole works.
func TestToolsListUpstreamFailsAfterFirstPages(t *testing.T) {
	for _, how := range []string{"die", "invalid"} {
		t.Run(how, func(t *testing.T) {
			e, srv, goOn := pausingSetup(t, 50)
			notes := make(chan []byte, 64)
			sess := srv.NewSession("failing", pageSink{notes})
			defer sess.Close()
			p := sessionPage(t, sess, "")
			if p.err != nil || len(p.names) != 50 || p.cursor == "" {
				t.Fatalf("first page: %d tools, err %v", len(p.names), p.err)
			}
			// Page on in the background: it waits where the tools written
			// so far end (or finds the load failed already).
			failed := make(chan *jsonrpc.Error, 1)
			go func(cursor string) {
				for cursor != "" {
					p := sessionPage(t, sess, cursor)
					if p.err != nil {
						failed <- p.err
						return
					}
					cursor = p.cursor
				}
				failed <- nil
			}(p.cursor)
			goOn(how)
			select {
			case err := <-failed:
				if err == nil || err.Code != jsonrpc.CodeUpstreamUnavailable || !strings.Contains(err.Message, "failed part way") {
					t.Fatalf("the page after the failure: %v", err)
				}
			case <-time.After(60 * time.Second):
				t.Fatal("no answer to the page after the failure")
			}
			for told := false; !told; {
				select {
				case b := <-notes:
					told = strings.Contains(string(b), `"notifications/tools/list_changed"`)
				case <-time.After(60 * time.Second):
					t.Fatal("the host was not told tools/list_changed")
				}
			}
			if n := len(e.Registry().List()); n != 0 {
				t.Fatalf("the registry holds %d tools of a failed load", n)
			}
			if how != "die" {
				return
			}
			// The restarted upstream answers whole: listing again from the
			// start pages through every tool.
			goOn("rest")
			// (WaitReady fails at once while the last load's error is the
			// dead upstream's cut-off answer: watch the registry instead.)
			testenv.Eventually(t, time.Minute, "the restarted upstream's tools", func() bool { return len(e.Registry().List()) == pausingTools })
			names := 0
			for p := sessionPage(t, sess, ""); ; p = sessionPage(t, sess, p.cursor) {
				if p.err != nil {
					t.Fatalf("listing again, after %d tools: %v", names, p.err)
				}
				names += len(p.names)
				if p.cursor == "" {
					break
				}
			}
			if names < pausingTools {
				t.Fatalf("listing again gave %d tools, want %d and genui's own", names, pausingTools)
			}
		})
	}
}
