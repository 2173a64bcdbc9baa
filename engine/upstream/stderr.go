package upstream

import (
	"bytes"
	"io"
	"log/slog"
	"sync"
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
