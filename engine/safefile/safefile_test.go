package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestRead: regular files within the limit are read; a FIFO, /dev/zero, a
// too-big file are refused at once as *BadFileError; a directory and a
// missing file are plain errors.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok")
	if err := os.WriteFile(ok, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 100), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	if b, err := Read(ok, 10); err != nil || string(b) != "hello" {
		t.Fatalf("Read(ok) = %q, %v", b, err)
	}
	for _, p := range []string{big, fifo, zero} {
		start := time.Now()
		_, err := Read(p, 10)
		var bad *BadFileError
		if !errors.As(err, &bad) || time.Since(start) > 5*time.Second {
			t.Errorf("Read(%s) = %v after %v, want a *BadFileError at once", filepath.Base(p), err, time.Since(start))
		}
	}
	var bad *BadFileError
	if _, err := Read(dir, 10); err == nil || errors.As(err, &bad) {
		t.Errorf("Read(dir) = %v, want a plain error", err)
	}
	if _, err := Read(filepath.Join(dir, "missing"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Read(missing) = %v, want ErrNotExist", err)
	}
}
