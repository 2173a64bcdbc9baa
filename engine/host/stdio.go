package host

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
)

// MaxFrameBytes bounds one incoming JSON-RPC frame.
const MaxFrameBytes = 32 << 20

// lineWriter writes newline-delimited frames, one at a time.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (lw *lineWriter) Send(frame []byte) error {
	if bytes.IndexByte(frame, '\n') >= 0 {
		// Our encoder never emits raw newlines; refuse rather than corrupt
		// the stream.
		return errors.New("frame contains a newline")
	}
	lw.mu.Lock()
	defer lw.mu.Unlock()
	buf := make([]byte, 0, len(frame)+1)
	buf = append(append(buf, frame...), '\n')
	_, err := lw.w.Write(buf)
	return err
}

// ServeStdio serves one host session over newline-delimited JSON-RPC until r
// ends or ctx is cancelled. Only JSON-RPC frames are ever written to w.
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	out := &lineWriter{w: w}
	sess := s.NewSession("stdio", out)
	defer sess.Close()
	var wg sync.WaitGroup
	defer func() {
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
	}()
	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go func() {
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			line, err := readLine(br, MaxFrameBytes)
			if len(bytes.TrimSpace(line)) > 0 || errors.Is(err, errFrameTooLarge) {
				if errors.Is(err, errFrameTooLarge) {
					_ = out.Send(jsonrpc.NewErrorResponse(nil, jsonrpc.Errorf(jsonrpc.CodeParseError,
						"frame larger than %d bytes discarded", MaxFrameBytes)))
					continue
				}
				select {
				case lines <- line:
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				readErr <- err
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-readErr:
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("reading stdin: %w", err)
		case line := <-lines:
			if isRequestFrame(line) {
				wg.Add(1)
				go func() {
					defer wg.Done()
					sess.HandleFrame(ctx, line, out)
				}()
				continue
			}
			sess.HandleFrame(ctx, line, out)
		}
	}
}

var errFrameTooLarge = errors.New("frame too large")

// readLine reads one line, discarding the rest of a line longer than max.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > max {
			// Skip to the end of this line.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
				return nil, err
			}
			return nil, errFrameTooLarge
		}
		buf = append(buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return buf, err
	}
}

// isRequestFrame is a cheap check used to run requests concurrently while
// notifications and responses are handled in order.
func isRequestFrame(line []byte) bool {
	m, err := jsonrpc.Parse(line)
	return err == nil && m.IsRequest()
}
