package llmtest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestKey is a fake API key shaped like a real one; tests configure it and
// then prove it appears nowhere (NoKey, NoKeyInDir).
const TestKey = "sk-ant-test-0123456789abcdefSECRET"

// NoKey fails the test when key occurs in data (what names it: a response,
// a log, stderr).
func NoKey(t testing.TB, key, what string, data []byte) {
	t.Helper()
	if key == "" {
		t.Fatal("NoKey: empty key")
	}
	if i := bytes.Index(data, []byte(key)); i >= 0 {
		lo, hi := max(0, i-80), min(len(data), i+len(key)+80)
		t.Errorf("the API key appears in %s: ...%s...", what, data[lo:hi])
	}
}

// NoKeyInDir fails the test when key occurs in any file under dir.
func NoKeyInDir(t testing.TB, key, dir string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		NoKey(t, key, path, b)
		return nil
	})
	if err != nil {
		t.Errorf("scanning %s for the key: %v", dir, err)
	}
	if n == 0 {
		t.Errorf("scanning %s for the key: no files (wrong directory?)", dir)
	}
}
