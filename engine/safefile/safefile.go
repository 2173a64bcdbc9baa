// Package safefile reads the files genui keeps under DIR (cache entries,
// refinements.json, port and lock files) without trusting them: only
// regular files, never blocking on a FIFO, never reading more than a limit
// whatever size a device or link reports.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// BadFileError is a path that exists but is not a readable regular file
// of at most the limit (a FIFO, a device, a socket, or too big).
type BadFileError struct{ Reason string }

func (e *BadFileError) Error() string { return e.Reason }

// Read reads path if it is (or links to) a regular file of at most limit
// bytes. It opens non-blocking (a FIFO is refused, not waited on) and stops
// reading after limit bytes (a /dev/zero link is refused, not drained). A
// directory is an ordinary error; the other refusals are *BadFileError.
func Read(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s: %w", path, errors.New("is a directory"))
	}
	if !fi.Mode().IsRegular() {
		return nil, &BadFileError{fmt.Sprintf("not a regular file (%s)", kind(fi.Mode()))}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &BadFileError{fmt.Sprintf("more than %d bytes", limit)}
	}
	return data, nil
}

// kind names a file's type for a person.
func kind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
}
