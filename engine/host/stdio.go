package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
)

// MaxFrameBytes bounds one incoming JSON-RPC frame.
const MaxFrameBytes = 32 << 20

// ServeStdio serves one host session over newline-delimited JSON-RPC until r
// ends or ctx is cancelled. Only JSON-RPC frames are ever written to w.
//
// The reader forwards plain requests itself (fastpath.go) and handles
// notifications and responses in order; other requests run concurrently.
// When w is a pipe or socket, writing never waits for the host: what it
// has not read yet waits in a queue bounded by Options.StdoutQueueLimit,
// past which frames are dropped with a warning, so a host that stops
// reading cannot stall the upstream connection (whose read loop writes
// the answers).
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	if fo, ok := w.(*os.File); ok {
		// stdout (a pipe or socket) becomes non-blocking, so writes never
		// wait for the host; it stays out of the runtime's poller, which
		// would wake up each time the host reads. stdin keeps its mode: a
		// blocking read is as quick, and the host's end of it stays as the
		// host set it.
		fi, _ := r.(*os.File)
		nw, restore := jsonrpc.MakeNonBlocking(fo, fi)
		defer restore()
		w = nw
	}
	out := jsonrpc.NewFrameWriter(w)
	out.SetQueueLimit(s.opts.StdoutQueueLimit, s.noteDroppedOutput)
	sess := s.NewSession("stdio", out)
	sess.mu.Lock()
	sess.stdio = true
	sess.mu.Unlock()
	defer func() {
		// Answers already queued for the host go out (bounded) first.
		if !out.Drain(2 * time.Second) {
			s.log.Warn("the host did not read the last answers within 2s", "bytes", out.Queued())
		}
	}()
	defer sess.Close()
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		stopped bool
	)
	defer func() {
		mu.Lock()
		stopped = true
		mu.Unlock()
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
	}()
	readErr := make(chan error, 1)
	go func() {
		fr := jsonrpc.NewFrameReader(r, MaxFrameBytes)
		for {
			frame, err := fr.ReadFrame()
			if jsonrpc.IsFrameTooLarge(err) {
				_ = out.Send(jsonrpc.NewErrorResponse(nil, jsonrpc.Errorf(jsonrpc.CodeParseError,
					"frame larger than %d bytes discarded", MaxFrameBytes)))
				continue
			}
			if err != nil {
				readErr <- err
				return
			}
			if ctx.Err() != nil {
				return
			}
			if sess.forwardFast(frame, out) {
				continue
			}
			line := bytes.Clone(frame)
			mu.Lock()
			if stopped {
				mu.Unlock()
				return
			}
			if !isRequestFrame(line) {
				mu.Unlock()
				sess.HandleFrame(ctx, line, out) // notifications and responses in order
				continue
			}
			wg.Add(1)
			mu.Unlock()
			go func() {
				defer wg.Done()
				sess.HandleFrame(ctx, line, out)
			}()
		}
	}()
	select {
	case <-ctx.Done():
		return nil
	case err := <-readErr:
		if errors.Is(err, io.EOF) {
			return nil
		}
		return fmt.Errorf("reading stdin: %w", err)
	}
}

// isRequestFrame is a cheap check used to run requests concurrently while
// notifications and responses are handled in order: a method and an id
// that is not null.
func isRequestFrame(line []byte) bool {
	top, ok := jsonrpc.Scan(line)
	return ok && top.Method != nil && len(top.ID) > 0 && string(top.ID) != "null"
}

// noteDroppedOutput warns about a frame dropped because the stdio host has
// not read its stdout for a long while (the queue is full), at most once a
// second with a count.
func (s *Server) noteDroppedOutput(frame, queued int) {
	n := s.droppedOutput.Add(1)
	now := time.Now().UnixNano()
	last := s.droppedOutputAt.Load()
	if now-last < int64(time.Second) || !s.droppedOutputAt.CompareAndSwap(last, now) {
		return
	}
	s.droppedOutput.Add(-n)
	// Not under the writer's lock forever: logging never writes to stdout.
	s.log.Warn("the host is not reading genui's stdout: frames dropped", "dropped", n, "frameBytes", frame, "queuedBytes", queued)
}
