//go:build unix

package jsonrpc

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestFrameWriterNeverBlocksOnAPeerThatStopsReading: on a pipe, writes go
// out at once as far as the pipe takes them; the rest waits in order and
// is written once the peer reads; past the queue limit whole frames are
// dropped and reported, and the stream stays intact.
func TestFrameWriterNeverBlocksOnAPeerThatStopsReading(t *testing.T) {
	for _, kind := range []string{"pollable file", "NonBlockingFD"} {
		t.Run(kind, func(t *testing.T) { testFrameWriterNeverBlocks(t, kind == "NonBlockingFD") })
	}
}

func testFrameWriterNeverBlocks(t *testing.T, raw bool) {
	r, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer pw.Close()
	var w io.Writer = pw
	if raw {
		nw, restore := MakeNonBlocking(pw, nil)
		if _, ok := nw.(*NonBlockingFD); !ok {
			t.Fatalf("MakeNonBlocking on a pipe gave %T", nw)
		}
		defer restore()
		w = nw
	}
	fw := NewFrameWriter(w)
	if !fw.NonBlocking() {
		t.Fatal("a FrameWriter on os.Pipe should not block")
	}
	var dropped atomic.Int64
	fw.SetQueueLimit(1<<20, func(frame, queued int) { dropped.Add(1) })
	big := bytes.Repeat([]byte("b"), 100<<10) // written part by part
	done := make(chan int)
	go func() {
		n := 0
		for i := 0; i < 40; i++ {
			frame := fmt.Appendf(nil, `{"n":%d,"pad":"%s"}`, i, big[:(i%3)*40<<10])
			if err := fw.WriteParts(frame[:5], frame[5:]); err == nil {
				n++
			} else if err != ErrFrameDropped {
				t.Errorf("frame %d: %v", i, err)
			}
		}
		done <- n
	}()
	var written int
	select {
	case written = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("writes blocked on a peer that does not read")
	}
	if dropped.Load() == 0 || written+int(dropped.Load()) != 40 {
		t.Fatalf("written %d, dropped %d: want some dropped past the 1 MiB queue limit", written, dropped.Load())
	}
	if q := fw.Queued(); q == 0 || q > 1<<20+200<<10 {
		t.Fatalf("queued %d bytes, want some, bounded near the limit", q)
	}
	// The peer reads again: every frame not dropped arrives whole, in order.
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	last := -1
	for i := 0; i < written; i++ {
		if !sc.Scan() {
			t.Fatalf("frame %d of %d: %v", i, written, sc.Err())
		}
		var n int
		if _, err := fmt.Sscanf(sc.Text(), `{"n":%d,`, &n); err != nil || n <= last || !strings.HasSuffix(sc.Text(), `"}`) {
			t.Fatalf("frame %d broken or out of order: %.40q", i, sc.Text())
		}
		last = n
	}
	if !fw.Drain(5 * time.Second) {
		t.Fatal("queue not drained after the peer read everything")
	}
}
