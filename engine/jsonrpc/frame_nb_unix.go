//go:build unix

package jsonrpc

import (
	"io"
	"os"
	"syscall"
	"time"
)

// nbWriter tries writes on a non-blocking descriptor without waiting.
type nbWriter struct {
	f  *os.File
	rc syscall.RawConn
	fn func(fd uintptr) bool // built once: a closure per write would allocate
	p  []byte
	n  int
	e  error
}

// newNBWriter returns a non-blocking writer for a pollable *os.File (its
// descriptor is in the runtime's poller: os.Pipe, sockets, files made
// pollable with MakePollable), else nil.
func newNBWriter(w io.Writer) *nbWriter {
	f, ok := w.(*os.File)
	if !ok || f.SetWriteDeadline(time.Time{}) != nil {
		return nil // not pollable: writes block
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	nb := &nbWriter{f: f, rc: rc}
	nb.fn = func(fd uintptr) bool {
		for nb.n < len(nb.p) {
			m, err := rawWrite(int(fd), nb.p[nb.n:])
			if m > 0 {
				nb.n += m
			}
			switch {
			case err == syscall.EINTR:
				continue
			case err == syscall.EAGAIN:
				return true // full: the rest waits in the queue
			case err != nil:
				nb.e = err
				return true
			case m <= 0:
				return true
			}
		}
		return true
	}
	return nb
}

// try writes as much of p as the descriptor takes now (the FrameWriter's
// lock is held, so nb's fields are not shared).
func (nb *nbWriter) try(p []byte) (int, error) {
	nb.p, nb.n, nb.e = p, 0, nil
	if err := nb.rc.Write(nb.fn); err != nil && nb.e == nil {
		nb.e = err
	}
	n, err := nb.n, nb.e
	nb.p = nil
	return n, err
}

// pollReader reads a pollable *os.File with system calls that do not
// enter the scheduler's syscall state (they never block: the descriptor is
// non-blocking and an empty pipe waits in the runtime's poller), which
// spares a futex wake-up of the runtime's monitor thread per read.
type pollReader struct {
	rc syscall.RawConn
	fn func(fd uintptr) bool
	p  []byte
	n  int
	e  error
}

// newPollReader returns a pollReader for a pollable *os.File, else nil.
func newPollReader(r io.Reader) io.Reader {
	f, ok := r.(*os.File)
	if !ok || f.SetReadDeadline(time.Time{}) != nil {
		return nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	pr := &pollReader{rc: rc}
	pr.fn = func(fd uintptr) bool {
		for {
			n, err := rawRead(int(fd), pr.p)
			switch {
			case err == syscall.EINTR:
				continue
			case err == syscall.EAGAIN:
				return false // wait in the poller
			case err != nil:
				pr.e = err
			case n == 0:
				pr.e = io.EOF
			default:
				pr.n = n
			}
			return true
		}
	}
	return pr
}

// Read is called by one goroutine at a time (the FrameReader's).
func (pr *pollReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	pr.p, pr.n, pr.e = p, 0, nil
	if err := pr.rc.Read(pr.fn); err != nil && pr.e == nil {
		pr.e = err
	}
	n, err := pr.n, pr.e
	pr.p = nil
	return n, err
}

// MakePollable returns a pollable *os.File for f when f is a pipe or
// socket whose descriptor blocks (os.Stdin and os.Stdout as inherited from
// a host): a FrameWriter on it never blocks, a FrameReader on it waits in
// the runtime's poller instead of a thread blocked in read. restore puts
// the descriptor back into blocking mode (the mode is shared with whoever
// else holds it) and closes the duplicate (which also ends a read blocked
// on it). Anything else comes back unchanged. avoid is the other stdio
// file: when it is the same pipe or socket as f, f is left alone (both
// would change mode).
func MakePollable(f *os.File, avoid *os.File) (out *os.File, restore func()) {
	noop := func() {}
	if f.SetWriteDeadline(time.Time{}) == nil {
		return f, noop // pollable already
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return f, noop
	}
	var st syscall.Stat_t
	var dup int
	ok := false
	_ = rc.Control(func(fd uintptr) {
		if syscall.Fstat(int(fd), &st) != nil {
			return
		}
		if m := st.Mode & syscall.S_IFMT; m != syscall.S_IFIFO && m != syscall.S_IFSOCK {
			return
		}
		if avoid != nil && sameFile(avoid, st) {
			return
		}
		if dup, err = syscall.Dup(int(fd)); err != nil {
			return
		}
		syscall.CloseOnExec(dup)
		if syscall.SetNonblock(dup, true) != nil {
			_ = syscall.Close(dup)
			return
		}
		ok = true
	})
	if !ok {
		return f, noop
	}
	nf := os.NewFile(uintptr(dup), f.Name())
	if nf == nil || nf.SetWriteDeadline(time.Time{}) != nil {
		_ = syscall.SetNonblock(dup, false)
		if nf != nil {
			_ = nf.Close()
		}
		return f, noop
	}
	return nf, func() {
		if c, err := nf.SyscallConn(); err == nil {
			_ = c.Control(func(fd uintptr) { _ = syscall.SetNonblock(int(fd), false) })
		}
		_ = nf.Close()
	}
}

func sameFile(f *os.File, st syscall.Stat_t) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	same := false
	_ = rc.Control(func(fd uintptr) {
		var o syscall.Stat_t
		if syscall.Fstat(int(fd), &o) == nil {
			same = o.Dev == st.Dev && o.Ino == st.Ino
		}
	})
	return same
}
