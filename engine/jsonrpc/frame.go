package jsonrpc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Newline-delimited JSON-RPC framing (the MCP stdio transport), shared by
// every stdio speaker in genui: the host's stdio server, the upstream line
// transport, the demo server and the test client.

// DefaultMaxFrame bounds one frame when a FrameReader is given no limit.
const DefaultMaxFrame = 32 << 20

// FrameTooLargeError is returned by ReadFrame for a line longer than the
// limit; the rest of that line has been skipped, so reading can go on.
type FrameTooLargeError struct{ Limit int }

func (e *FrameTooLargeError) Error() string {
	return fmt.Sprintf("frame larger than %d bytes discarded", e.Limit)
}

// IsFrameTooLarge reports whether err is a *FrameTooLargeError.
func IsFrameTooLarge(err error) bool {
	var e *FrameTooLargeError
	return errors.As(err, &e)
}

// FrameReader reads newline-delimited frames with a size limit.
type FrameReader struct {
	br   *bufio.Reader
	max  int
	buf  []byte
	stop bool // FailOnOversized
	// parts are the full blocks of a line longer than bufio's buffer, in
	// order, and partLen their bytes: such a line grows block by block and
	// is joined once when it ends (growing one slice copied a 36 MB
	// tools/list answer again on every doubling, 70-110 ms of the time to
	// genui's first tools/list).
	parts   [][]byte
	partLen int
	// watcher sees the bytes of each long line as they are read (Watch);
	// watching is set while it does.
	watcher  LineWatcher
	watching bool
}

// LineWatcher follows the lines longer than a FrameReader's buffer while
// they are read (through a ResultArrayStream): Reset at the start of each
// such line, then Write with each piece of it in order, the line's end
// included, then End. The pieces are the reader's own copy of the line:
// they stay valid and unchanged, so the watcher may keep slices of them.
// End reports whether the watcher took the line: ReadFrame then does not
// join it into one slice (a 36 MB copy) and goes on to the next line.
type LineWatcher interface {
	Reset()
	Write(p []byte)
	End() (taken bool)
}

// Watch hands each line longer than the reader's buffer to w as it is
// read, so that work on it can run while the rest arrives.
func (fr *FrameReader) Watch(w LineWatcher) { fr.watcher = w }

// NewFrameReader reads frames from r; max <= 0 means DefaultMaxFrame.
func NewFrameReader(r io.Reader, max int) *FrameReader {
	if max <= 0 {
		max = DefaultMaxFrame
	}
	if pr := newPollReader(r); pr != nil {
		r = pr
	}
	return &FrameReader{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

// FailOnOversized makes an over-long line final: ReadFrame returns
// *FrameTooLargeError as soon as the limit is passed, without reading the
// rest of the line (a peer that sends gigabytes is not waited for), and the
// reader must not be used again.
func (fr *FrameReader) FailOnOversized() { fr.stop = true }

// ReadFrame returns the next non-blank line without its line ending (CR LF
// or LF). The slice is valid until the next call; callers that keep it copy
// it. A line over the limit is skipped whole and reported as
// *FrameTooLargeError (reading may continue). A last line without a
// newline is returned before io.EOF.
func (fr *FrameReader) ReadFrame() ([]byte, error) {
	for {
		line, err := fr.readLine()
		if errors.Is(err, errLineTaken) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(line)) > 0 {
			return line, nil
		}
	}
}

// keepBuf is the most line buffer a FrameReader keeps between frames: a
// reader that once took a 36 MB tools/list answer does not hold 36 MB for
// the rest of the connection.
const keepBuf = 1 << 20

// Own returns the frame b that ReadFrame just returned as memory the
// caller keeps: a line that did not fit bufio's buffer is handed over
// without a copy (the reader starts a new buffer); a short one is copied.
func (fr *FrameReader) Own(b []byte) []byte {
	if len(fr.buf) > 0 && len(b) > 0 && &b[0] == &fr.buf[0] {
		fr.buf = nil
		return b[:len(b):len(b)]
	}
	return bytes.Clone(b)
}

// errLineTaken: the line went to the LineWatcher, which kept it.
var errLineTaken = errors.New("line taken by its watcher")

func (fr *FrameReader) readLine() ([]byte, error) {
	if cap(fr.buf) > keepBuf || fr.watching {
		fr.buf = nil // a watched line's blocks may be kept by its watcher
	}
	fr.buf = fr.buf[:0]
	fr.watching = false
	clear(fr.parts)
	fr.parts, fr.partLen = fr.parts[:0], 0
	for {
		chunk, err := fr.br.ReadSlice('\n')
		content := fr.partLen + len(fr.buf) + len(chunk)
		if err == nil {
			content-- // the newline does not count
		}
		if content > fr.max {
			if fr.stop {
				return nil, &FrameTooLargeError{Limit: fr.max}
			}
			for errors.Is(err, bufio.ErrBufferFull) { // skip the rest of the line
				_, err = fr.br.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
			return nil, &FrameTooLargeError{Limit: fr.max}
		}
		switch {
		case err == nil:
			if len(fr.buf) == 0 {
				// The common case: the whole line is in bufio's buffer.
				return bytes.TrimRight(chunk, "\r\n"), nil
			}
			fr.add(chunk)
		case errors.Is(err, bufio.ErrBufferFull):
			if fr.watcher != nil && len(fr.buf) == 0 && len(fr.parts) == 0 {
				fr.watching = true // a long line starts
				fr.watcher.Reset()
			}
			fr.add(chunk)
			continue
		case errors.Is(err, io.EOF) && content > 0:
			fr.add(chunk)
		default:
			return nil, err
		}
		if fr.watching && fr.watcher.End() {
			clear(fr.parts) // the watcher keeps them
			fr.parts, fr.partLen, fr.buf = fr.parts[:0], 0, nil
			return nil, errLineTaken
		}
		if len(fr.parts) > 0 {
			// One allocation of the line's size, one copy (bytes.Join
			// does not zero what it then overwrites).
			fr.parts = append(fr.parts, fr.buf)
			fr.buf = bytes.Join(fr.parts, nil)
			clear(fr.parts) // the blocks are garbage now
			fr.parts, fr.partLen = fr.parts[:0], 0
		}
		return bytes.TrimRight(fr.buf, "\r\n"), nil
	}
}

// Blocks of a long line: the first is bufio's size, each next one twice
// the last, up to maxBlock.
const (
	firstBlock = 64 << 10
	maxBlock   = 4 << 20
)

// add appends chunk to the line being read: to buf while it has room,
// else buf becomes a part and a new block starts.
func (fr *FrameReader) add(chunk []byte) {
	for len(chunk) > 0 {
		if len(fr.buf) == cap(fr.buf) {
			if len(fr.buf) > 0 {
				fr.parts = append(fr.parts, fr.buf)
				fr.partLen += len(fr.buf)
			}
			fr.buf = make([]byte, 0, min(max(2*cap(fr.buf), firstBlock), maxBlock))
		}
		n := copy(fr.buf[len(fr.buf):cap(fr.buf)], chunk)
		fr.buf = fr.buf[:len(fr.buf)+n]
		if fr.watching {
			fr.watcher.Write(fr.buf[len(fr.buf)-n : len(fr.buf) : len(fr.buf)])
		}
		chunk = chunk[n:]
	}
}
