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
	if err == nil {
		return false // asked for every frame read: errors.As's target would escape
	}
	var e *FrameTooLargeError
	return errors.As(err, &e)
}

// FrameReader reads newline-delimited frames with a size limit.
type FrameReader struct {
	br *bufio.Reader
	// src is what br reads: the reader given, after the bytes a direct
	// read took past a long line's end (readDirect) when there are some.
	src  io.Reader
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
	// lent: bufio reads bytes from a block of the last line (readDirect
	// read past its end), so the next line must not reuse buf.
	lent bool
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
	return &FrameReader{br: bufio.NewReaderSize(r, 64<<10), src: r, max: max}
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
	if cap(fr.buf) > keepBuf || fr.watching || fr.lent {
		fr.buf = nil // a watched line's blocks may be kept by its watcher
	}
	fr.buf = fr.buf[:0]
	fr.watching, fr.lent = false, false
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
			if errors.Is(err, bufio.ErrBufferFull) { // skip the rest of the line
				err = fr.skipLine()
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
			switch done, err := fr.readDirect(); {
			case err != nil:
				return nil, err
			case !done:
				continue
			}
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

// readDirect reads on in a long line straight into its blocks (called
// after ReadSlice's ErrBufferFull, with bufio's buffer empty): bufio hands
// a read at least its buffer's size to the reader underneath, so the
// reads are as long as the block's free room (up to maxBlock; the pipe
// holds up to 1 MiB) instead of 64 KiB, and the bytes are not copied
// through bufio's buffer. done: the line ended (at a newline, or at the
// end of the input); the bytes read past its newline go back in front of
// what bufio reads next. done is false when the block's room is under
// bufio's size (ReadSlice goes on there).
func (fr *FrameReader) readDirect() (done bool, err error) {
	for empty := 0; fr.br.Buffered() == 0; {
		if len(fr.buf) == cap(fr.buf) {
			fr.grow()
		}
		room := fr.buf[len(fr.buf):cap(fr.buf)]
		if len(room) < fr.br.Size() {
			return false, nil // bufio would read into its buffer and copy
		}
		n, rerr := fr.br.Read(room)
		got := room[:n]
		end := bytes.IndexByte(got, '\n')
		if end >= 0 {
			if rest := got[end+1:]; len(rest) > 0 {
				// The block is never changed (the watcher may keep it):
				// bufio can read the rest from there.
				fr.src = io.MultiReader(bytes.NewReader(rest), fr.src)
				fr.br.Reset(fr.src)
				fr.lent = true
			}
			got = got[:end+1]
		}
		if fr.partLen+len(fr.buf)+len(got)-min(end+1, 1) > fr.max {
			switch {
			case fr.stop || end >= 0 || errors.Is(rerr, io.EOF):
			case rerr != nil:
				return false, rerr
			default:
				if err := fr.skipLine(); err != nil {
					return false, err
				}
			}
			return false, &FrameTooLargeError{Limit: fr.max}
		}
		fr.buf = fr.buf[:len(fr.buf)+len(got)]
		if fr.watching && len(got) > 0 {
			fr.watcher.Write(got[:len(got):len(got)])
		}
		switch {
		case end >= 0 || errors.Is(rerr, io.EOF):
			return true, nil
		case rerr != nil:
			return false, rerr
		case n == 0:
			if empty++; empty >= 100 {
				return false, io.ErrNoProgress
			}
		default:
			empty = 0
		}
	}
	return false, nil
}

// skipLine reads to the end of the current line, dropping it.
func (fr *FrameReader) skipLine() error {
	_, err := fr.br.ReadSlice('\n')
	for errors.Is(err, bufio.ErrBufferFull) {
		_, err = fr.br.ReadSlice('\n')
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
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
			fr.grow()
		}
		n := copy(fr.buf[len(fr.buf):cap(fr.buf)], chunk)
		fr.buf = fr.buf[:len(fr.buf)+n]
		if fr.watching {
			fr.watcher.Write(fr.buf[len(fr.buf)-n : len(fr.buf) : len(fr.buf)])
		}
		chunk = chunk[n:]
	}
}

// grow makes the full block buf a part of the line and starts the next.
func (fr *FrameReader) grow() {
	if len(fr.buf) > 0 {
		fr.parts = append(fr.parts, fr.buf)
		fr.partLen += len(fr.buf)
	}
	fr.buf = make([]byte, 0, min(max(2*cap(fr.buf), firstBlock), maxBlock))
}
