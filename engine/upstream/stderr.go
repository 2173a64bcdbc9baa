package upstream

import (
	"bytes"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// maxLogLine caps one logged stderr line; longer output is split.
const maxLogLine = 16 * 1024

// lineLogger is an io.Writer that logs a child's stderr line by line at info
// level. It is what Config.Stderr defaults to.
type lineLogger struct {
	log *slog.Logger
	mu  sync.Mutex
	buf []byte
}

func newLineLogger(log *slog.Logger) *lineLogger { return &lineLogger{log: log} }

func (l *lineLogger) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			if len(l.buf) >= maxLogLine {
				l.emit(l.buf[:maxLogLine])
				l.buf = append(l.buf[:0], l.buf[maxLogLine:]...)
				continue
			}
			return len(p), nil
		}
		l.emit(l.buf[:i])
		l.buf = append(l.buf[:0], l.buf[i+1:]...)
	}
}

func (l *lineLogger) emit(line []byte) {
	line = bytes.TrimRight(line, "\r")
	if len(line) > 0 {
		l.log.Info("upstream stderr", "line", string(line))
	}
}

// drainWriter forwards a child's stderr to w but never reports a failure:
// if the copy stopped, the child would block once the pipe (about 64 KiB)
// is full and stop answering. After w fails once, output is discarded.
type drainWriter struct {
	w      io.Writer
	log    *slog.Logger
	failed bool // only the single exec copy goroutine writes
}

func (d *drainWriter) Write(p []byte) (int, error) {
	if !d.failed {
		if _, err := d.w.Write(p); err != nil {
			d.failed = true
			d.log.Warn("upstream stderr writer failed; discarding the child's stderr from now on", "err", err)
		}
	}
	return len(p), nil
}

// What a child's stderr tail keeps: its last lines, each clipped. They go
// into the reason a connection failed ("upstream exited (exit status 1);
// its stderr ended with: ..."), so the host, the serve console and the TUI
// see why a server would not start without opening genui's log.
const (
	tailLines     = 8
	tailLineBytes = 400
	// stderrSettle bounds the wait for a child's last stderr bytes after
	// it exited (a grandchild may hold the pipe open).
	stderrSettle = 500 * time.Millisecond
)

// stderrTail is an io.Writer keeping the last tailLines lines written to
// it (a partial last line included). It never fails.
type stderrTail struct {
	mu      sync.Mutex
	lines   []string
	partial []byte
	clipped bool // partial was cut at tailLineBytes; drop the rest of the line
}

func (t *stderrTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	rest := p
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		chunk := rest
		if i >= 0 {
			chunk = rest[:i]
		}
		if room := tailLineBytes - len(t.partial); len(chunk) > room {
			chunk, t.clipped = chunk[:room], true
		}
		t.partial = append(t.partial, chunk...)
		if i < 0 {
			break
		}
		t.push()
		rest = rest[i+1:]
	}
	return len(p), nil
}

// push ends the partial line (under mu).
func (t *stderrTail) push() {
	line := string(bytes.TrimRight(t.partial, "\r"))
	if t.clipped {
		line += "…"
	}
	t.partial, t.clipped = t.partial[:0], false
	if strings.TrimSpace(line) == "" {
		return
	}
	if len(t.lines) == tailLines {
		copy(t.lines, t.lines[1:])
		t.lines = t.lines[:tailLines-1]
	}
	t.lines = append(t.lines, line)
}

// Lines are the kept lines, oldest first, the partial last one included.
func (t *stderrTail) Lines() []string {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.lines...)
	if p := bytes.TrimSpace(t.partial); len(p) > 0 {
		if len(out) == tailLines {
			out = out[1:]
		}
		out = append(out, string(bytes.TrimRight(t.partial, "\r")))
	}
	return out
}

// withStderr adds a child's last stderr lines to the reason its
// connection failed.
func withStderr(reason string, lines []string) string {
	if len(lines) == 0 {
		return reason
	}
	return reason + "; its stderr ended with:\n  " + strings.Join(lines, "\n  ")
}
