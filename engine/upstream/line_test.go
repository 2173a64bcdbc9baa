package upstream

// Tests of the line transport (stdio and in-process): byte-exact payloads in
// both directions, large lines, the line limit, malformed lines.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// lineKinds are the transports that use lineLink.
var lineKinds = []string{TransportStdio, TransportInProcess}

// rawClient returns a Client for the raw test server over kind; the
// server's report lines go to report.
func rawClient(t *testing.T, kind string, report io.Writer) *Client {
	t.Helper()
	switch kind {
	case TransportStdio:
		return New(stdioConfig(t, "raw", report))
	case TransportInProcess:
		return New(Config{
			InProcess: func(_ context.Context, r io.Reader, w io.Writer) error {
				serveRaw(r, w, report)
				return nil
			},
			Logger:     testLogger(t),
			BackoffMin: 50 * time.Millisecond,
			BackoffMax: 200 * time.Millisecond,
		})
	}
	t.Fatalf("no raw client for %s", kind)
	return nil
}

func TestLineExactPassthrough(t *testing.T) {
	t.Parallel()
	for _, kind := range lineKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			report := &syncBuffer{}
			c := rawClient(t, kind, report)
			var got notes
			c.SetNotificationHandler(got.handle)
			var seen struct {
				sync.Mutex
				method string
				params json.RawMessage
			}
			const answer = `{"z":1,"a":12345678901234567,"s":"\u00e9","_meta":{}}`
			c.SetRequestHandler(func(_ context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
				seen.Lock()
				seen.method, seen.params = method, params
				seen.Unlock()
				return json.RawMessage(answer), nil
			})
			runClient(t, c)
			waitReady(t, c, 10*time.Second)

			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			res, err := callTool(ctx, c, "exact", nil, nil)
			if err != nil {
				t.Fatal(err)
			}

			// The notification sent before the response is delivered before
			// Request returns, byte for byte.
			msgs := got.byMethod("notifications/message")
			if len(msgs) != 1 {
				t.Fatalf("got %d notifications/message before Request returned, want 1", len(msgs))
			}
			if string(msgs[0].params) != rawExact {
				t.Errorf("notification params changed:\n got %s\nwant %s", msgs[0].params, rawExact)
			}

			// The server-to-client request's params reach the handler byte
			// for byte; its answer goes back with the id echoed verbatim.
			seen.Lock()
			method, params := seen.method, seen.params
			seen.Unlock()
			if method != "sampling/createMessage" || string(params) != rawExact {
				t.Errorf("request handler got %s %s, want sampling/createMessage %s", method, params, rawExact)
			}
			wantAnswer := `RAW got exact answer {"jsonrpc":"2.0","id":` + rawExactID + `,"result":` + answer + `}`
			waitFor(t, 5*time.Second, "the exact answer upstream", func() bool { return strings.Contains(report.String(), wantAnswer) })
			if !strings.Contains(string(res), `"answer":`+answer) {
				t.Errorf("tools/call result = %s, want the answer %s in it", res, answer)
			}

			// Outgoing notifications are not re-encoded either.
			const out = `{"zeta":12345678901234567,"alpha":"\u00e9 <&>","_meta":{},"n":1.50}`
			if err := c.Notify(ctx, "notifications/roots/list_changed", json.RawMessage(out)); err != nil {
				t.Fatal(err)
			}
			waitFor(t, 5*time.Second, "the exact notification upstream", func() bool {
				return strings.Contains(report.String(), "RAW notification notifications/roots/list_changed "+out+"\n")
			})

			// A notification whose params are not an object is refused
			// without harming the connection.
			err = c.Notify(ctx, "notifications/x", json.RawMessage(`[1]`))
			if je := asRPCError(t, err); je.Code != jsonrpc.CodeInvalidParams {
				t.Errorf("Notify with array params = %+v, want invalid params", je)
			}
			if !c.State().Connected {
				t.Errorf("bad notification params broke the connection: %+v", c.State())
			}
		})
	}
}

func TestLineTenMiBNotification(t *testing.T) {
	t.Parallel()
	for _, kind := range lineKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			c := rawClient(t, kind, &syncBuffer{})
			var got notes
			c.SetNotificationHandler(got.handle)
			runClient(t, c)
			waitReady(t, c, 10*time.Second)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			const n = 10 << 20
			if _, err := callTool(ctx, c, "big", map[string]any{"bytes": n}, nil); err != nil {
				t.Fatal(err)
			}
			msgs := got.byMethod("notifications/message")
			if len(msgs) != 1 {
				t.Fatalf("got %d notifications before Request returned, want 1", len(msgs))
			}
			if want := bigParams(n); string(msgs[0].params) != want {
				t.Errorf("10 MiB notification changed: got %d bytes, want %d", len(msgs[0].params), len(want))
			}
			if st := c.State(); !st.Connected || st.Restarts != 0 {
				t.Errorf("state after a 10 MiB line = %+v", st)
			}
		})
	}
}

func TestLineOverLimitFailsAndReconnects(t *testing.T) {
	t.Parallel()
	for _, kind := range lineKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			c := rawClient(t, kind, &syncBuffer{})
			c.maxLine = 1 << 20
			var errs struct {
				sync.Mutex
				list []string
			}
			c.SetStateHandler(func(s contract.UpstreamState) {
				errs.Lock()
				errs.list = append(errs.list, s.LastError)
				errs.Unlock()
			})
			runClient(t, c)
			waitReady(t, c, 10*time.Second)
			pid := c.State().PID

			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			// It fails with the line-limit error below, not the context's
			// deadline: it did not wait.
			_, err := callTool(ctx, c, "big", map[string]any{"bytes": 2 << 20}, nil)
			je := asRPCError(t, err)
			const reason = "upstream sent a JSON-RPC line longer than the 1 MiB limit; dropping the connection"
			if je.Code != jsonrpc.CodeUpstreamUnavailable || !strings.Contains(je.Message, reason+" while handling tools/call; restarting") {
				t.Errorf("error = %+v, want %q", je, reason)
			}

			// The connection is rebuilt and works; the state said why.
			waitFor(t, 10*time.Second, "reconnect", func() bool { st := c.State(); return st.Connected && st.Restarts >= 1 })
			if got := mustCall(t, c, "echo", nil); got != "ok" {
				t.Errorf("call after reconnect = %q", got)
			}
			if kind == TransportStdio && c.State().PID == pid {
				t.Errorf("PID %d unchanged after reconnect", pid)
			}
			errs.Lock()
			defer errs.Unlock()
			if !strings.Contains(strings.Join(errs.list, "\n"), reason) {
				t.Errorf("no state carried LastError %q: %q", reason, errs.list)
			}
		})
	}
}

func TestLineMalformedLinesSkipped(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	cfg := stdioConfig(t, "raw", &syncBuffer{})
	cfg.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := New(cfg)
	runClient(t, c)
	waitReady(t, c, 10*time.Second)
	pid := c.State().PID
	if got := mustCall(t, c, "junk", nil); got != "after junk" {
		t.Fatalf("junk = %q", got)
	}
	if st := c.State(); !st.Connected || st.PID != pid || st.Restarts != 0 {
		t.Errorf("malformed lines disturbed the connection: %+v (pid was %d)", st, pid)
	}
	for _, want := range []string{
		`"msg":"upstream sent a malformed line; skipped"`, `"line":"this is not json"`,
		`"line":"[\"not\",\"an\",\"object\"]"`,
		`"msg":"upstream sent a line that is no JSON-RPC message; skipped"`,
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %s:\n%s", want, logs.String())
		}
	}
}

// TestLineUnusableReplyFailsTheCallAtOnce: a reply genui cannot use (not
// valid JSON after its id, nested deeper than the decoder allows, the id
// echoed as a string, an id nobody sent while one call is in flight) fails
// the call at once with a clear error instead of leaving it to its
// timeout; the connection stays up.
func TestLineUnusableReplyFailsTheCallAtOnce(t *testing.T) {
	t.Parallel()
	for _, kind := range lineKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			c := rawClient(t, kind, &syncBuffer{})
			runClient(t, c)
			waitReady(t, c, 10*time.Second)
			for tool, want := range map[string]string{
				"garbled":   "unreadable reply",
				"deep":      "exceeded max depth",
				"string-id": `with id "`,
				"wrong-id":  "987654321",
			} {
				ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
				_, err := callTool(ctx, c, tool, nil, nil)
				cancel()
				// The named failure, not the context's deadline: it did not wait.
				if err == nil || !strings.Contains(err.Error(), want) || errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("%s: err %v, want one mentioning %q", tool, err, want)
				}
			}
			if got := mustCall(t, c, "echo", nil); got != "ok" {
				t.Errorf("after the bad replies: %q", got)
			}
			if st := c.State(); !st.Connected || st.Restarts != 0 {
				t.Errorf("bad replies disturbed the connection: %+v", st)
			}
		})
	}
}

func TestReadLine(t *testing.T) {
	long := strings.Repeat("y", 200<<10) // longer than the 64 KiB buffer
	cases := []struct {
		name  string
		in    string
		max   int
		lines []string
		err   string
	}{
		{"lines", "a\nbb\r\n\nccc", 10, []string{"a", "bb", "ccc"}, "EOF"},
		{"exactly max", "12345\n", 5, []string{"12345"}, "EOF"},
		{"one over max", "123456\n", 5, nil, "longer than the 5 bytes limit"},
		{"last line over max", "123456", 5, nil, "longer than the 5 bytes limit"},
		{"long line", long + "\nz\n", len(long), []string{long, "z"}, "EOF"},
		{"long line over max", "a\n" + long + "\n", 100 << 10, []string{"a"}, "longer than the 100 KiB limit"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fr := newFrameReader(strings.NewReader(tc.in), tc.max)
			var lines []string
			var err error
			for {
				var b []byte
				if b, err = readLine(fr); err != nil {
					break
				}
				lines = append(lines, string(b))
			}
			if strings.Join(lines, "|") != strings.Join(tc.lines, "|") {
				t.Errorf("lines = %.80q, want %.80q", lines, tc.lines)
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("err = %v, want one containing %q", err, tc.err)
			}
			var tooLong *lineTooLongError
			if errors.As(err, &tooLong) != strings.Contains(tc.err, "longer") {
				t.Errorf("err %v: *lineTooLongError = %v", err, errors.As(err, &tooLong))
			}
		})
	}
}

func TestRequestFrame(t *testing.T) {
	cases := []struct {
		id, method, params, want string
	}{
		{"7", "tools/call", `{"b":1,"a":12345678901234567,"s":"\u00e9<"}`,
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"b":1,"a":12345678901234567,"s":"\u00e9<"}}`},
		{"", "notifications/initialized", ``, `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{"8", "ping", ` null `, `{"jsonrpc":"2.0","id":8,"method":"ping"}`},
		{"9", "x", "{\n  \"a\": [1,\n 2]\n}", `{"jsonrpc":"2.0","id":9,"method":"x","params":{"a":[1,2]}}`},
	}
	for _, tc := range cases {
		b, err := requestFrame(tc.id, tc.method, json.RawMessage(tc.params))
		if err != nil || string(b) != tc.want {
			t.Errorf("requestFrame(%s, %s, %s) = %s, %v; want %s", tc.id, tc.method, tc.params, b, err, tc.want)
		}
	}
	_, err := requestFrame("1", "x", json.RawMessage(`{"a":`))
	if je := asRPCError(t, err); je.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("invalid params: %+v", je)
	}
}

func TestLineOutputClosedRestarts(t *testing.T) {
	t.Parallel()
	for _, kind := range lineKinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			c := rawClient(t, kind, &syncBuffer{})
			runClient(t, c)
			waitReady(t, c, 10*time.Second)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			// It fails with the closed-output error below, not the
			// context's deadline: it did not wait.
			_, err := callTool(ctx, c, "close-output", nil, nil)
			je := asRPCError(t, err)
			if je.Code != jsonrpc.CodeUpstreamUnavailable || !strings.Contains(je.Message, "upstream closed its output") ||
				!strings.Contains(je.Message, "while handling tools/call; restarting") {
				t.Errorf("error = %+v", je)
			}
			waitFor(t, 10*time.Second, "reconnect", func() bool { st := c.State(); return st.Connected && st.Restarts >= 1 })
			if got := mustCall(t, c, "echo", nil); got != "ok" {
				t.Errorf("call after reconnect = %q", got)
			}
		})
	}
}

type failingWriter struct{ calls int }

func (f *failingWriter) Write([]byte) (int, error) {
	f.calls++
	return 0, errors.New("disk full")
}

func TestDrainWriterNeverFails(t *testing.T) {
	var logs syncBuffer
	fw := &failingWriter{}
	d := &drainWriter{w: fw, log: slog.New(slog.NewJSONHandler(&logs, nil))}
	for i := 0; i < 3; i++ {
		if n, err := d.Write([]byte("abc")); n != 3 || err != nil {
			t.Fatalf("Write = %d, %v; want 3, nil", n, err)
		}
	}
	if fw.calls != 1 {
		t.Errorf("broken writer called %d times, want 1", fw.calls)
	}
	if strings.Count(logs.String(), "upstream stderr writer failed") != 1 {
		t.Errorf("log = %s", logs.String())
	}
}

// readLine returns the next non-blank frame, in memory the caller owns. A
// line longer than the limit gives *lineTooLongError without reading (or
// buffering) the rest of it. A last line without a newline is returned
// before io.EOF.
func readLine(fr *jsonrpc.FrameReader) ([]byte, error) {
	b, err := fr.ReadFrame()
	if err != nil {
		return nil, lineError(err)
	}
	return bytes.Clone(b), nil
}

// TestOwnResultCopiesOnlyFromAFrameWithMuchElse: a response that is
// mostly its result is handed on as a slice of the frame (no copy of a
// 36 MB tools/list answer); one whose frame carries much else (a 1 MB id)
// gets its result copied, so keeping the result does not keep the rest.
func TestOwnResultCopiesOnlyFromAFrameWithMuchElse(t *testing.T) {
	big := []byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[` + strings.Repeat(`{"name":"a"},`, 10000) + `{"name":"b"}]}}`)
	f, err := decodeFrame(big)
	if err != nil {
		t.Fatal(err)
	}
	if got := ownResult(big, f.Result); &got[0] != &f.Result[0] {
		t.Fatal("a result that is most of its frame was copied")
	}
	padded := []byte(`{"jsonrpc":"2.0","id":"` + strings.Repeat("9", 1<<20) + `","result":{"tools":[]}}`)
	if f, err = decodeFrame(padded); err != nil {
		t.Fatal(err)
	}
	got := ownResult(padded, f.Result)
	if string(got) != `{"tools":[]}` || &got[0] == &f.Result[0] {
		t.Fatalf("a small result in a 1 MB frame: %q, copied %v", got, &got[0] != &f.Result[0])
	}
}
