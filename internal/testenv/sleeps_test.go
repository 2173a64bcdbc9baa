package testenv

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxTestSleeps is the ratchet on time.Sleep calls in the repository's
// tests: it may only go down (lower it when you remove sleeps). A test
// waits on an event, a channel, synctest or, for a condition nothing
// announces, Until/Eventually; a sleep as synchronisation is a flaky test
// on a loaded machine. The goal (issue 37) is at most 40.
const maxTestSleeps = 13

// sleepCall is what countSleeps counts (spelt so that this file holds none).
var sleepCall = []byte("time." + "Sleep(")

// countSleeps counts calls of time.Sleep in the _test.go files under root.
func countSleeps(t *testing.T, root string) (total int, byFile map[string]int) {
	t.Helper()
	byFile = map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if n := bytes.Count(b, sleepCall); n > 0 {
			rel, _ := filepath.Rel(root, path)
			byFile[rel] = n
			total += n
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return total, byFile
}

// TestSleepsInTestsRatchet: the tests hold no more time.Sleep calls than
// maxTestSleeps.
func TestSleepsInTestsRatchet(t *testing.T) {
	total, byFile := countSleeps(t, "../..")
	if total > maxTestSleeps {
		t.Errorf("%d time.Sleep calls in tests, more than %d: synchronise on an event, a channel, synctest or testenv.Until instead. By file: %v",
			total, maxTestSleeps, byFile)
	}
	t.Logf("%d time.Sleep calls in tests (ratchet %d, goal 40)", total, maxTestSleeps)
}

// TestSleepCountBites: the count sees sleeps in test files only, and
// skips node_modules.
func TestSleepCountBites(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	call := string(sleepCall) + "1)\n"
	write("a/x_test.go", call+call)
	write("a/x.go", call)
	write("node_modules/y_test.go", call)
	if total, _ := countSleeps(t, dir); total != 2 {
		t.Errorf("counted %d sleeps, want 2", total)
	}
}
