package engine

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/upstream"
)

// deepListUpstream answers tools/list with a result nested deeper than
// encoding/json decodes.
func deepListUpstream(_ context.Context, r io.Reader, w io.Writer) error {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m, err := jsonrpc.Parse(sc.Bytes())
		if err != nil || !m.IsRequest() {
			continue
		}
		var res string
		switch m.Method {
		case "initialize":
			res = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"deep","version":"1"}}`
		case "tools/list":
			res = `{"tools":[{"name":"t","inputSchema":{"type":"object","x":` + strings.Repeat("[", 12000) + strings.Repeat("]", 12000) + `}}]}`
		default:
			res = `{}`
		}
		if _, err := w.Write(append(jsonrpc.NewResult(m.ID, json.RawMessage(res)), '\n')); err != nil {
			return err
		}
	}
	return sc.Err()
}

// TestUnusableToolsListFailsFast: when the upstream's tools/list answer
// cannot be used, requests waiting for the tools fail at once with that
// reason instead of after their whole wait.
func TestUnusableToolsListFailsFast(t *testing.T) {
	e, err := New(Options{Upstream: upstream.Config{Transport: "inprocess", InProcess: deepListUpstream,
		BackoffMin: 50 * time.Millisecond, BackoffMax: 200 * time.Millisecond}, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = e.Run(ctx); close(done) }()
	defer func() {
		cancel()
		<-done
	}()
	wctx, wcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer wcancel()
	// It fails with the tools/list failure, not its context's deadline:
	// it did not wait (the 30 s bound only stops a hang).
	err = e.tools.WaitReady(wctx)
	if err == nil || !strings.Contains(err.Error(), "exceeded max depth") || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitReady: %v, want the tools/list failure", err)
	}
}
