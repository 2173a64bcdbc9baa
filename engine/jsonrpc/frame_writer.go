package jsonrpc

import (
	"bytes"
	"errors"
	"io"
	"sync"
	"time"
)

// FrameWriter writes newline-delimited frames, one whole frame at a time,
// so concurrent writers never interleave.
//
// On a pollable pipe or socket (an *os.File from os.Pipe) or a
// NonBlockingFD (MakeNonBlocking) a write never waits for the peer:
// the frame goes out at once as far as the pipe takes it, and what the peer
// has not made room for yet waits, in order, in a queue that one goroutine
// writes as the peer reads. A frame that would grow that queue past the
// limit (SetQueueLimit, default DefaultQueueLimit) is dropped whole and
// reported to the drop handler; a frame partly written is always finished,
// so the stream stays intact. A peer that stops reading therefore never
// stalls the goroutine that writes (the proxy's read loops write answers
// themselves). On any other writer a write blocks until the writer takes
// it.
type FrameWriter struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
	nb  nbDest // non-blocking writes; nil means blocking

	q        [][]byte // unwritten bytes, in order (non-blocking mode)
	qBytes   int
	flushing bool
	drained  chan struct{} // closed when the current flush ends
	limit    int
	onDrop   func(frame, queued int)
	err      error // sticky write error (non-blocking mode)
	byRef    bool  // the frame being written may wait by reference
}

// DefaultQueueLimit bounds the bytes a FrameWriter holds for a slow peer.
const DefaultQueueLimit = 64 << 20

// smallFrame: frames up to this size are assembled in one buffer and
// written with one system call; bigger ones are written part by part
// (nothing big is copied).
const smallFrame = 64 << 10

// ErrFrameDropped is returned for a frame the writer dropped because its
// queue for a peer that does not read is full.
var ErrFrameDropped = errors.New("frame dropped: the peer is not reading and the write queue is full")

// NewFrameWriter writes frames to w, without blocking when w is a pollable
// *os.File or a NonBlockingFD.
func NewFrameWriter(w io.Writer) *FrameWriter {
	return &FrameWriter{w: w, nb: newNBWriter(w), limit: DefaultQueueLimit}
}

// SetQueueLimit sets the bound of the queue for a slow peer (bytes; <= 0:
// DefaultQueueLimit) and the function told about each dropped frame (its
// size and the bytes queued); it is called with the writer's lock held and
// must not write. Without effect on a blocking writer.
func (fw *FrameWriter) SetQueueLimit(limit int, onDrop func(frame, queued int)) {
	if limit <= 0 {
		limit = DefaultQueueLimit
	}
	fw.mu.Lock()
	fw.limit, fw.onDrop = limit, onDrop
	fw.mu.Unlock()
}

// NonBlocking reports whether writes never wait for the peer.
func (fw *FrameWriter) NonBlocking() bool { return fw.nb != nil }

// ErrFrameHasNewline is returned for a frame that would break the stream.
var ErrFrameHasNewline = errors.New("frame contains a raw newline")

// WriteFrame writes frame and a newline. A frame containing a raw newline
// is refused (JSON never needs one; writing it would corrupt the stream).
func (fw *FrameWriter) WriteFrame(frame []byte) error {
	if bytes.IndexByte(frame, '\n') >= 0 {
		return ErrFrameHasNewline
	}
	return fw.WriteParts(frame)
}

// Send implements the host's Sender.
func (fw *FrameWriter) Send(frame []byte) error { return fw.WriteFrame(frame) }

// WriteParts writes the concatenation of parts and a newline as one frame,
// without copying big parts. The caller guarantees that no part holds a
// raw newline. The parts may be reused once it returns.
func (fw *FrameWriter) WriteParts(parts ...[]byte) error {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if fw.nb == nil {
		return fw.writeBlocking(parts)
	}
	return fw.writeNB(parts)
}

// WritePartsRef is WriteParts for parts that stay unchanged until they are
// written (memoized results): when the peer is slow they wait in the queue
// by reference instead of being copied.
func (fw *FrameWriter) WritePartsRef(parts ...[]byte) error {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if fw.nb == nil {
		return fw.writeBlocking(parts)
	}
	fw.byRef = true
	err := fw.writeNB(parts)
	fw.byRef = false
	return err
}

var newline = []byte{'\n'}

func (fw *FrameWriter) writeBlocking(parts [][]byte) error {
	size := 1
	for _, p := range parts {
		size += len(p)
	}
	if size <= smallFrame || len(parts) == 1 {
		fw.buf = appendParts(fw.buf[:0], parts)
		_, err := fw.w.Write(fw.buf)
		if cap(fw.buf) > 1<<20 {
			fw.buf = nil // do not pin a huge frame's buffer
		}
		return err
	}
	for _, p := range parts {
		if len(p) == 0 {
			continue
		}
		if _, err := fw.w.Write(p); err != nil {
			return err
		}
	}
	_, err := fw.w.Write(newline)
	return err
}

func appendParts(b []byte, parts [][]byte) []byte {
	for _, p := range parts {
		b = append(b, p...)
	}
	return append(b, '\n')
}

// writeNB writes a frame on a non-blocking descriptor (lock held).
func (fw *FrameWriter) writeNB(parts [][]byte) error {
	if fw.err != nil {
		return fw.err
	}
	size := 1
	for _, p := range parts {
		size += len(p)
	}
	if fw.flushing { // keep the order: behind what waits
		return fw.enqueue(withNewline(parts), 0, size, false)
	}
	if size <= smallFrame && !fw.byRef {
		fw.buf = appendParts(fw.buf[:0], parts)
		n, err := fw.nb.try(fw.buf)
		if err != nil {
			fw.err = err
			return err
		}
		if n == len(fw.buf) {
			return nil
		}
		return fw.enqueue([][]byte{fw.buf}, n, size, n > 0)
	}
	written := 0
	for i := 0; i <= len(parts); i++ {
		p := newline
		if i < len(parts) {
			p = parts[i]
		}
		if len(p) == 0 {
			continue
		}
		n, err := fw.nb.try(p)
		written += n
		if err != nil {
			fw.err = err
			return err
		}
		if n < len(p) {
			return fw.enqueue(withNewline(parts), written, size, written > 0)
		}
	}
	return nil
}

func withNewline(parts [][]byte) [][]byte { return append(parts[:len(parts):len(parts)], newline) }

// enqueue queues the frame made of pieces (its newline included) from
// byte skip on and starts the flusher. A frame not started may be dropped
// when the queue is full; a started one never is.
func (fw *FrameWriter) enqueue(pieces [][]byte, skip, size int, started bool) error {
	rest := size - skip
	if !started && fw.qBytes+rest > fw.limit {
		if fw.onDrop != nil {
			fw.onDrop(size, fw.qBytes)
		}
		return ErrFrameDropped
	}
	if fw.byRef {
		for _, p := range pieces {
			if skip >= len(p) {
				skip -= len(p)
				continue
			}
			if len(p)-skip > 256 {
				fw.q = append(fw.q, p[skip:])
			} else {
				fw.q = append(fw.q, bytes.Clone(p[skip:])) // small, maybe the caller's scratch
			}
			skip = 0
		}
	} else {
		b := make([]byte, 0, rest)
		for _, p := range pieces {
			if skip >= len(p) {
				skip -= len(p)
				continue
			}
			b = append(b, p[skip:]...)
			skip = 0
		}
		fw.q = append(fw.q, b)
	}
	fw.qBytes += rest
	if !fw.flushing {
		fw.flushing = true
		fw.drained = make(chan struct{})
		go fw.flush()
	}
	return nil
}

// flush writes the queue, waiting for the peer, until it is empty.
func (fw *FrameWriter) flush() {
	fw.mu.Lock()
	for len(fw.q) > 0 && fw.err == nil {
		b := fw.q[0]
		fw.q[0] = nil
		fw.q = fw.q[1:]
		fw.mu.Unlock()
		_, err := fw.nb.Write(b) // waits until the peer reads or the file closes
		fw.mu.Lock()
		fw.qBytes -= len(b)
		if err != nil {
			fw.err = err
		}
	}
	fw.q, fw.qBytes = nil, 0
	fw.flushing = false
	close(fw.drained)
	fw.mu.Unlock()
}

// Queued is the number of bytes waiting for a slow peer.
func (fw *FrameWriter) Queued() int {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	return fw.qBytes
}

// Drain waits until nothing waits for the peer, at most d, and reports
// whether the queue is empty.
func (fw *FrameWriter) Drain(d time.Duration) bool {
	fw.mu.Lock()
	flushing, ch := fw.flushing, fw.drained
	fw.mu.Unlock()
	if !flushing {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}
