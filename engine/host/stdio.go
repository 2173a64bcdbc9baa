package host

import (
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

// ServeStdio serves one host session over newline-delimited JSON-RPC until r
// ends or ctx is cancelled. Only JSON-RPC frames are ever written to w.
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	out := jsonrpc.NewFrameWriter(w)
	sess := s.NewSession("stdio", out)
	sess.mu.Lock()
	sess.stdio = true
	sess.mu.Unlock()
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
			select {
			case lines <- bytes.Clone(frame):
			case <-ctx.Done():
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

// isRequestFrame is a cheap check used to run requests concurrently while
// notifications and responses are handled in order.
func isRequestFrame(line []byte) bool {
	m, err := jsonrpc.Parse(line)
	return err == nil && m.IsRequest()
}
