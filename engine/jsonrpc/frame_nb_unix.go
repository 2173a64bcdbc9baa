//go:build unix

package jsonrpc

import (
	"io"
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// nbDest is a descriptor a FrameWriter writes without waiting: try writes
// what the descriptor takes now, Write waits until everything is written
// (the flushing goroutine).
type nbDest interface {
	try(p []byte) (int, error)
	io.Writer
}

// newNBWriter returns the non-blocking side of w: a NonBlockingFD, or a
// pollable *os.File (its descriptor in the runtime's poller: os.Pipe,
// sockets), else nil (writes block).
func newNBWriter(w io.Writer) nbDest {
	switch f := w.(type) {
	case *NonBlockingFD:
		return f
	case *os.File:
		if f.SetWriteDeadline(time.Time{}) != nil {
			return nil
		}
		rc, err := f.SyscallConn()
		if err != nil {
			return nil
		}
		return newPollWriter(f, rc)
	}
	return nil
}

// pollWriter tries writes on a pollable *os.File without waiting.
type pollWriter struct {
	*os.File // Write waits in the poller
	rc       syscall.RawConn
	fn       func(fd uintptr) bool // built once: a closure per write would allocate
	p        []byte
	n        int
	e        error
}

func newPollWriter(f *os.File, rc syscall.RawConn) *pollWriter {
	nb := &pollWriter{File: f, rc: rc}
	nb.fn = func(fd uintptr) bool {
		nb.n, nb.e = writeSome(int(fd), nb.p)
		return true
	}
	return nb
}

// writeSome writes as much of p as fd takes now.
func writeSome(fd int, p []byte) (int, error) {
	n := 0
	for n < len(p) {
		m, err := rawWrite(fd, p[n:])
		if m > 0 {
			n += m
		}
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return n, nil // full: the rest waits in the queue
		case err != nil:
			return n, err
		case m <= 0:
			return n, nil
		}
	}
	return n, nil
}

// try writes as much of p as the descriptor takes now (the FrameWriter's
// lock is held, so nb's fields are not shared).
func (nb *pollWriter) try(p []byte) (int, error) {
	nb.p, nb.n, nb.e = p, 0, nil
	if err := nb.rc.Write(nb.fn); err != nil && nb.e == nil {
		nb.e = err
	}
	n, err := nb.n, nb.e
	nb.p = nil
	return n, err
}

// NonBlockingFD is a descriptor in non-blocking mode that is not in the
// runtime's poller (MakeNonBlocking): it is written with plain system
// calls, and a write that would block waits in poll(2) on the goroutine
// that flushes a FrameWriter's queue. Unlike a pollable file it costs no
// wake-up of the poller each time the peer reads and the descriptor turns
// writable again (a stdio host reads after every answer).
type NonBlockingFD struct {
	fd     int
	mu     sync.RWMutex // read-held around each system call, held by Close
	closed bool
}

func (f *NonBlockingFD) try(p []byte) (int, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	if f.closed {
		return 0, os.ErrClosed
	}
	return writeSome(f.fd, p)
}

// Write writes all of p, waiting (in poll(2), a tenth of a second at a
// time, so Close is noticed) while the descriptor is full.
func (f *NonBlockingFD) Write(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		m, err := f.try(p[n:])
		n += m
		if err != nil || n == len(p) {
			return n, err
		}
		f.mu.RLock()
		if f.closed {
			f.mu.RUnlock()
			return n, os.ErrClosed
		}
		fds := []unix.PollFd{{Fd: int32(f.fd), Events: unix.POLLOUT}}
		_, err = unix.Poll(fds, 100)
		f.mu.RUnlock()
		if err != nil && err != unix.EINTR {
			return n, err
		}
	}
	return n, nil
}

// close puts the descriptor back into blocking mode (the mode is shared
// with whoever else holds it) and closes it.
func (f *NonBlockingFD) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return
	}
	f.closed = true
	_ = syscall.SetNonblock(f.fd, false)
	_ = syscall.Close(f.fd)
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

// MakeNonBlocking returns a NonBlockingFD duplicating f when f is a pipe
// or socket whose descriptor blocks (os.Stdout as inherited from a host),
// so a FrameWriter on it never blocks; restore puts the descriptor back
// into blocking mode and closes the duplicate. Anything else comes back
// unchanged. avoid is the other stdio file: when it is the same pipe or
// socket as f, f is left alone (both would change mode).
func MakeNonBlocking(f *os.File, avoid *os.File) (out io.Writer, restore func()) {
	noop := func() {}
	rc, err := f.SyscallConn()
	if err != nil {
		return f, noop
	}
	var st syscall.Stat_t
	dup := -1
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
		d, err := syscall.Dup(int(fd))
		if err != nil {
			return
		}
		syscall.CloseOnExec(d)
		if syscall.SetNonblock(d, true) != nil {
			_ = syscall.Close(d)
			return
		}
		dup = d
	})
	if dup < 0 {
		return f, noop
	}
	nb := &NonBlockingFD{fd: dup}
	return nb, nb.close
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
