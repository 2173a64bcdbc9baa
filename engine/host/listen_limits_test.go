package host_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/upstream"
	"github.com/genui-dev/genui/internal/testenv"
)

// subsUpstream is an upstream with resource subscriptions that counts
// every resources/subscribe and resources/unsubscribe genui sends, and
// sends resources/updated on demand.
type subsUpstream struct {
	mu          sync.Mutex
	subscribe   int            // resources/subscribe requests received
	unsubscribe int            // resources/unsubscribe requests received
	active      map[string]int // uri -> subscribes minus unsubscribes
	out         func([]byte)
}

func newSubsUpstream() *subsUpstream { return &subsUpstream{active: map[string]int{}} }

func (u *subsUpstream) counts() (sub, unsub, active int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, n := range u.active {
		if n != 0 {
			active++
		}
	}
	return u.subscribe, u.unsubscribe, active
}

func (u *subsUpstream) updated(uri string) {
	u.mu.Lock()
	out := u.out
	u.mu.Unlock()
	params, _ := json.Marshal(map[string]string{"uri": uri})
	out(jsonrpc.NewNotification("notifications/resources/updated", params))
}

func (u *subsUpstream) serve(ctx context.Context, r io.Reader, w io.Writer) error {
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
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		m, err := jsonrpc.Parse(sc.Bytes())
		if err != nil || !m.IsRequest() {
			continue
		}
		var p struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(m.Params, &p)
		switch m.Method {
		case "initialize":
			out(jsonrpc.NewResult(m.ID, json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"resources":{"subscribe":true}},"serverInfo":{"name":"subs","version":"1"}}`)))
		case "tools/list":
			out(jsonrpc.NewResult(m.ID, json.RawMessage(`{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`)))
		case "resources/subscribe", "resources/unsubscribe":
			u.mu.Lock()
			if m.Method == "resources/subscribe" {
				u.subscribe++
				u.active[p.URI]++
			} else {
				u.unsubscribe++
				u.active[p.URI]--
			}
			u.mu.Unlock()
			out(jsonrpc.NewResult(m.ID, json.RawMessage(`{}`)))
		default:
			out(jsonrpc.NewErrorResponse(m.ID, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "no " + m.Method}))
		}
	}
	return sc.Err()
}

// rawListen sends a subscriptions/listen for uris over a raw connection
// and reads only the response head: an SSE stream is an open listen (the
// connection is returned, its body never read: a client that stopped
// reading); anything else is read, closed and returned as refused.
func rawListen(t *testing.T, base string, id int, uris []string) (net.Conn, string) {
	t.Helper()
	params, _ := json.Marshal(modern(map[string]any{"notifications": map[string]any{"resourceSubscriptions": uris}}, nil, ""))
	body := jsonrpc.NewRequest(json.RawMessage(fmt.Sprint(id)), "subscriptions/listen", params)
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
		"Mcp-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\nContent-Length: %d\r\n\r\n%s",
		strings.TrimPrefix(base, "http://"), len(body), body)
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		conn.Close()
		t.Fatalf("listen %d: %v", id, err)
	}
	if resp.Header.Get("Content-Type") == "text/event-stream" {
		return conn, ""
	}
	b, _ := io.ReadAll(resp.Body)
	conn.Close()
	return nil, fmt.Sprintf("%d %s", resp.StatusCode, b)
}

func openFDs(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	return len(ents)
}

func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// TestListenLimitsUnderLoad is the review's load with smaller caps: many
// listens that never read, each naming many resources, and one naming
// 30,000. Past mcp.listen.maxStreams and maxSubscriptions listens are
// refused with errors naming the limit; file handles and memory stay within
// what the caps allow; each URI is subscribed upstream once however many
// listeners name it; and once the listeners are gone every upstream
// subscription is released.
func TestListenLimitsUnderLoad(t *testing.T) {
	const maxStreams, maxSubs, attempts, perListen = 20, 50, 200, 40
	up := newSubsUpstream()
	ts, srv := startHTTPUpOpts(t, upstream.Config{Transport: "inprocess", InProcess: up.serve},
		host.Options{MaxListens: maxStreams, MaxListenSubscriptions: maxSubs}, nil)
	fds0, heap0 := openFDs(t), heapInUse()

	huge := make([]string, 30000)
	for i := range huge {
		huge[i] = fmt.Sprintf("res://huge/%d", i)
	}
	if conn, refused := rawListen(t, ts.URL, 0, huge); conn != nil || !strings.Contains(refused, "mcp.listen.maxSubscriptions") {
		t.Fatalf("a listen naming 30,000 resources: %q, want a refusal naming mcp.listen.maxSubscriptions", refused)
	}
	if sub, _, _ := up.counts(); sub != 0 {
		t.Fatalf("the refused 30,000-resource listen made %d upstream subscriptions", sub)
	}

	var open []net.Conn
	var refusals []string
	for i := 1; i <= attempts; i++ {
		uris := []string{"res://shared"}
		for j := 1; j < perListen; j++ {
			uris = append(uris, fmt.Sprintf("res://l%d/%d", i, j))
		}
		conn, refused := rawListen(t, ts.URL, i, uris)
		if conn != nil {
			open = append(open, conn)
		} else {
			refusals = append(refusals, refused)
		}
	}
	defer func() {
		for _, c := range open {
			c.Close()
		}
	}()
	if len(open) != maxStreams || len(refusals) != attempts-maxStreams {
		t.Fatalf("%d listens open, %d refused; want %d open (mcp.listen.maxStreams)", len(open), len(refusals), maxStreams)
	}
	if !strings.Contains(refusals[0], "mcp.listen.maxStreams") {
		t.Errorf("a listen past the stream cap: %s, want an error naming mcp.listen.maxStreams", refusals[0])
	}
	if n := host.OpenListens(srv); n != maxStreams {
		t.Errorf("%d listens registered, want %d", n, maxStreams)
	}
	fds, heap := openFDs(t), heapInUse()
	t.Logf("with %d of %d listens open: +%d file handles, heap +%d KiB", len(open), attempts+1, fds-fds0, (int64(heap)-int64(heap0))/1024)
	// Each open listen holds two handles here (the test's end and genui's).
	if fds-fds0 > 2*maxStreams+16 {
		t.Errorf("%d more file handles with %d listens open (cap %d)", fds-fds0, len(open), maxStreams)
	}
	if int64(heap)-int64(heap0) > 32<<20 {
		t.Errorf("heap grew by %d MiB with %d listens open", (heap-heap0)>>20, len(open))
	}
	wantSubs := 1 + maxStreams*(perListen-1) // res://shared once
	if sub, _, active := up.counts(); sub != wantSubs || active != wantSubs {
		t.Errorf("upstream saw %d resources/subscribe (%d active), want %d: one per URI", sub, active, wantSubs)
	}

	for _, c := range open {
		c.Close()
	}
	open = nil
	testenv.Until(20*time.Second, func() bool { _, _, active := up.counts(); return active == 0 && host.OpenListens(srv) == 0 })
	sub, unsub, active := up.counts()
	if active != 0 || unsub != sub || host.OpenListens(srv) != 0 {
		t.Errorf("after the listeners closed: %d subscribe, %d unsubscribe, %d upstream subscriptions active, %d listens; want all released",
			sub, unsub, active, host.OpenListens(srv))
	}
}

// smallSendBuffer makes every accepted connection's kernel send buffer
// small, so a client that stops reading blocks genui's writes after a few
// KiB instead of megabytes.
type smallSendBuffer struct{ net.Listener }

func (l smallSendBuffer) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(8 << 10)
	}
	return c, err
}

// TestListenerThatStopsReadingIsClosed: of two listens on one resource,
// one reads and one stopped reading. A burst of updates reaches the
// reader in full without a pause (the stalled one never holds up delivery:
// before, every notification waited for its write to time out), and the
// stalled listen is closed within the stall bound.
func TestListenerThatStopsReadingIsClosed(t *testing.T) {
	const stall = time.Second
	up := newSubsUpstream()
	ts, srv := startHTTPUpOpts(t, upstream.Config{Transport: "inprocess", InProcess: up.serve},
		host.Options{ListenStallTimeout: stall}, func(l net.Listener) net.Listener { return smallSendBuffer{l} })
	uri := "res://big/" + strings.Repeat("x", 2000)

	stalled, refused := rawListen(t, ts.URL, 1, []string{uri})
	if stalled == nil {
		t.Fatalf("listen: %s", refused)
	}
	defer stalled.Close()
	if tc, ok := stalled.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(4 << 10)
	}
	params, _ := json.Marshal(modern(map[string]any{"notifications": map[string]any{"resourceSubscriptions": []string{uri}}}, nil, ""))
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(string(jsonrpc.NewRequest(json.RawMessage(`"R"`), "subscriptions/listen", params))))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	events, _, resp := openSSE(t, req)
	if events == nil {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("reading listen: %d %s", resp.StatusCode, b)
	}
	nextEvent(t, events, "the acknowledgement")

	const burst = 2000 // ~4 MB for each listener
	start := time.Now()
	go func() {
		for i := 0; i < burst; i++ {
			up.updated(uri)
		}
	}()
	var gap time.Duration
	last := time.Now()
	for i := 0; i < burst; i++ {
		ev := nextEvent(t, events, fmt.Sprintf("update %d of %d", i+1, burst))
		if !strings.Contains(ev.data, "notifications/resources/updated") {
			t.Fatalf("event %d: %.200s", i, ev.data)
		}
		gap, last = max(gap, time.Since(last)), time.Now()
	}
	t.Logf("the reading listener got %d updates in %s, longest pause %s", burst, time.Since(start).Round(time.Millisecond), gap.Round(time.Millisecond))
	if gap > 4*time.Second {
		t.Errorf("the reading listener waited %s between two updates: the stalled one held delivery up", gap.Round(time.Millisecond))
	}
	testenv.Until(stall+10*time.Second, func() bool { return host.OpenListens(srv) == 1 })
	if n := host.OpenListens(srv); n != 1 {
		t.Errorf("%d listens open %s after the burst; want the stalled one closed", n, time.Since(start).Round(time.Millisecond))
	}
}
