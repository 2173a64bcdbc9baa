package host_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/history"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/upstream"
)

// The benchmarks drive genui's stdio host the way a host does, with a raw
// client that writes prepared frames and reads lines without decoding
// them (so they measure genui, not the client), over OS pipes, with the
// demo as a child process: the upstream is a real stdio server, and the
// allocations counted in this process are genui's own plus the client's.

// rawConn is a minimal JSON-RPC client over a pipe pair.
type rawConn struct {
	w  io.Writer
	fr *jsonrpc.FrameReader
}

// roundTrip writes frame (newline included) and returns the line that
// answers id (a prefix like `"id":1,`), skipping notifications.
func (c *rawConn) roundTrip(tb testing.TB, frame, id []byte) []byte {
	if _, err := c.w.Write(frame); err != nil {
		tb.Fatal(err)
	}
	for {
		line, err := c.fr.ReadFrame()
		if err != nil {
			tb.Fatal(err)
		}
		if bytes.Contains(line[:min(len(line), 48)], id) {
			return line
		}
	}
}

var (
	benchCall = []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_current_weather","arguments":{"location":"Berlin"}}}` + "\n")
	benchRead = []byte(`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"ui://get_current_weather"}}` + "\n")
	benchPing = []byte(`{"jsonrpc":"2.0","id":3,"method":"ping"}` + "\n")
	id1       = []byte(`"id":1,`)
	id2       = []byte(`"id":2,`)
	id3       = []byte(`"id":3,`)
)

// startDemoChild starts this test binary as the demo server (demoChildEnv)
// and returns it with its stdin and stdout; the caller waits for it.
func startDemoChild(tb testing.TB) (*exec.Cmd, io.WriteCloser, io.ReadCloser) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), demoChildEnv+"=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	return cmd, in, out
}

// demoChild starts the demo server as a child process and returns a client
// talking to it directly.
func demoChild(tb testing.TB) *rawConn {
	cmd, in, out := startDemoChild(tb)
	tb.Cleanup(func() { _ = in.Close(); _ = cmd.Wait() })
	c := &rawConn{w: in, fr: jsonrpc.NewFrameReader(out, 0)}
	c.handshake(tb)
	return c
}

// relayChild starts the demo child behind a byte relay in this process
// (two goroutines copying both pipes, as bench/'s relay does) and returns
// a client talking to the relay.
func relayChild(tb testing.TB) *rawConn {
	cmd, childIn, childOut := startDemoChild(tb)
	inR, inW, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	go func() { _, _ = io.Copy(childIn, inR); _ = childIn.Close() }()
	go func() { _, _ = io.Copy(outW, childOut) }()
	tb.Cleanup(func() { _ = inW.Close(); _ = cmd.Wait(); _ = outW.Close(); _ = outR.Close(); _ = inR.Close() })
	c := &rawConn{w: inW, fr: jsonrpc.NewFrameReader(outR, 0)}
	c.handshake(tb)
	return c
}

// genuiHost starts an engine whose stdio upstream is the demo child, and
// genui's stdio host on OS pipes; it returns a client talking to genui.
func genuiHost(tb testing.TB) *rawConn { return genuiHostWith(tb, history.Options{}) }

// genuiHostWith is genuiHost with the call history's options (its
// default, as genui runs: enabled, in a temporary DIR).
func genuiHostWith(tb testing.TB, hist history.Options) *rawConn {
	ctx, cancel := context.WithCancel(context.Background())
	log := slog.New(slog.DiscardHandler)
	up := upstream.Config{Transport: upstream.TransportStdio, Command: os.Args[0], Args: []string{"-test.run=^$"},
		Env: []string{demoChildEnv + "=1"}, Logger: log}
	e, err := engine.New(engine.Options{Upstream: up, Dir: tb.TempDir(), Logger: log, History: hist})
	if err != nil {
		tb.Fatal(err)
	}
	srv := host.New(host.Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry(), Logger: log})
	inR, inW, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	done := make(chan struct{}, 2)
	go func() { _ = e.Run(ctx); done <- struct{}{} }()
	go func() { _ = srv.ServeStdio(ctx, inR, outW); done <- struct{}{} }()
	tb.Cleanup(func() {
		_ = inW.Close()
		cancel()
		for range 2 {
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				tb.Error("genui did not stop within 10s")
				return
			}
		}
		_ = outR.Close()
		_ = outW.Close()
		_ = inR.Close()
	})
	c := &rawConn{w: inW, fr: jsonrpc.NewFrameReader(outR, 0)}
	c.handshake(tb)
	c.roundTrip(tb, []byte(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`+"\n"), []byte(`"id":9,`))
	return c
}

func (c *rawConn) handshake(tb testing.TB) {
	c.roundTrip(tb, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",`+
		`"capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`+"\n"), []byte(`"id":0,`))
	if _, err := c.w.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")); err != nil {
		tb.Fatal(err)
	}
}

// measure runs f n times and returns the time and the allocations made in
// this process meanwhile.
func measure(n int, f func()) (time.Duration, uint64) {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	t0 := time.Now()
	for range n {
		f()
	}
	d := time.Since(t0)
	runtime.ReadMemStats(&m1)
	return d, m1.Mallocs - m0.Mallocs
}

// BenchmarkProxiedCall: one tools/call (get_current_weather) through
// genui's stdio host, through a byte relay, and to the demo directly, in
// one run, in alternating chunks. added-ns/op is the latency genui adds,
// relay-added-ns/op the relay's, x-relay their ratio; genui-allocs/op is
// what the proxied call allocates in this process minus what the direct
// one does (the client's share; the relay's copies allocate nothing).
func BenchmarkProxiedCall(b *testing.B) {
	direct, relay, proxied := demoChild(b), relayChild(b), genuiHost(b)
	unrecorded := genuiHostWith(b, history.Options{Disabled: true}) // the history's share
	// Warm up all four.
	for range 200 {
		direct.roundTrip(b, benchCall, id1)
		relay.roundTrip(b, benchCall, id1)
		proxied.roundTrip(b, benchCall, id1)
		unrecorded.roundTrip(b, benchCall, id1)
	}
	var dT, rT, pT, uT time.Duration
	var dA, pA, uA uint64
	b.ResetTimer()
	const chunk = 250
	for i := 0; i < b.N; i += chunk {
		n := min(chunk, b.N-i)
		t, a := measure(n, func() { direct.roundTrip(b, benchCall, id1) })
		dT, dA = dT+t, dA+a
		t, _ = measure(n, func() { relay.roundTrip(b, benchCall, id1) })
		rT += t
		t, a = measure(n, func() { proxied.roundTrip(b, benchCall, id1) })
		pT, pA = pT+t, pA+a
		t, a = measure(n, func() { unrecorded.roundTrip(b, benchCall, id1) })
		uT, uA = uT+t, uA+a
	}
	n := float64(b.N)
	b.ReportMetric(float64(dT.Nanoseconds())/n, "direct-ns/op")
	b.ReportMetric(float64(pT.Nanoseconds())/n, "genui-ns/op")
	b.ReportMetric(float64((pT-dT).Nanoseconds())/n, "added-ns/op")
	b.ReportMetric(float64((rT-dT).Nanoseconds())/n, "relay-added-ns/op")
	if rT > dT {
		b.ReportMetric(float64(pT-dT)/float64(rT-dT), "x-relay")
	}
	b.ReportMetric(float64(dA)/n, "client-allocs/op")
	b.ReportMetric((float64(pA)-float64(dA))/n, "genui-allocs/op")
	// What recording a call in the history adds on the proxy path (goal:
	// at most one small allocation): genui with the history on, as above,
	// against genui with it off, in the same chunks.
	b.ReportMetric((float64(pA)-float64(uA))/n, "history-allocs/op")
	b.ReportMetric(float64((pT-uT).Nanoseconds())/n, "history-ns/op")
}

// BenchmarkReadCachedUI measures resources/read of a cached UI through
// genui's stdio host; ping through the same session, interleaved, is the
// baseline (x-ping = read time / ping time). Allocations are genui's
// (the raw client allocates nothing per round trip).
func BenchmarkReadCachedUI(b *testing.B) {
	c := genuiHost(b)
	for range 20 {
		c.roundTrip(b, benchRead, id2)
	}
	var readT, pingT time.Duration
	var readA, pingA uint64
	b.ResetTimer()
	const chunk = 100
	for i := 0; i < b.N; i += chunk {
		n := min(chunk, b.N-i)
		t, a := measure(n, func() { c.roundTrip(b, benchRead, id2) })
		readT, readA = readT+t, readA+a
		t, a = measure(n, func() { c.roundTrip(b, benchPing, id3) })
		pingT, pingA = pingT+t, pingA+a
	}
	n := float64(b.N)
	b.ReportMetric(float64(readT.Nanoseconds())/n, "read-ns/op")
	b.ReportMetric(float64(pingT.Nanoseconds())/n, "ping-ns/op")
	if pingT > 0 {
		b.ReportMetric(float64(readT)/float64(pingT), "x-ping")
	}
	b.ReportMetric(float64(readA)/n, "read-allocs/op")
	b.ReportMetric(float64(pingA)/n, "ping-allocs/op")
}
