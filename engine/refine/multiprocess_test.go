package refine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/genui-dev/genui/internal/testenv"
)

// TestMain lets the test binary run as a helper process that adds
// refinements to a store (GENUI_REFINE_HELPER=path:tool:count).
func TestMain(m *testing.M) {
	if spec := os.Getenv("GENUI_REFINE_HELPER"); spec != "" {
		os.Exit(helper(spec))
	}
	os.Exit(m.Run())
}

func helper(spec string) int {
	var path, tool string
	var n int
	for i := len(spec) - 1; i >= 0; i-- { // path may contain ':'; the last two fields may not
		if spec[i] == ':' {
			if n == 0 {
				n, _ = strconv.Atoi(spec[i+1:])
				spec = spec[:i]
				i = len(spec)
				continue
			}
			path, tool = spec[:i], spec[i+1:]
			break
		}
	}
	s, err := Open(path, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for i := range n {
		if _, err := s.Add(tool, fmt.Sprintf("%s-%d", tool, i), "helper"); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// TestTwoStoresKeepEachOthersRefinements: two stores on one file (two
// genui processes on one DIR) each save what the other added: a save
// merges with the file instead of overwriting it from memory.
func TestTwoStoresKeepEachOthersRefinements(t *testing.T) {
	path := filepath.Join(t.TempDir(), "refinements.json")
	a, b := open(t, path), open(t, path)
	mustAdd(t, a, "weather", "dark theme")
	mustAdd(t, b, "search", "25 per page")
	mustAdd(t, a, "weather", "show only name")
	if err := b.Clear("nothing-there"); err != nil {
		t.Fatal(err)
	}
	mustAdd(t, b, "weather", "bigger font")
	c := open(t, path)
	if got := feedbacks(c.History("weather")); !slices.Equal(got, []string{"dark theme", "show only name", "bigger font"}) {
		t.Errorf("weather on disk = %v", got)
	}
	if got := feedbacks(c.History("search")); !slices.Equal(got, []string{"25 per page"}) {
		t.Errorf("search on disk = %v", got)
	}
	// Each store sees the other's refinements (the cache key follows),
	// once its next reload is due.
	if !testenv.Until(10*reloadEvery, func() bool {
		return slices.Equal(feedbacks(a.History("search")), []string{"25 per page"}) && a.Hash("weather") == c.Hash("weather")
	}) {
		t.Fatalf("a does not see b's refinements: search %v, weather %v (the file's: %v)", feedbacks(a.History("search")),
			feedbacks(a.History("weather")), feedbacks(c.History("weather")))
	}
	// Clearing in one store clears for both, and the other's later add
	// does not bring the cleared history back.
	if err := a.Clear("weather"); err != nil {
		t.Fatal(err)
	}
	mustAdd(t, b, "search", "dark theme")
	if got := feedbacks(open(t, path).History("weather")); len(got) != 0 {
		t.Errorf("weather after a cleared it and b saved: %v", got)
	}
}

// TestConcurrentProcessesLoseNothing: four processes adding 25
// refinements each to one file at the same time lose none.
func TestConcurrentProcessesLoseNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "refinements.json")
	const procs, each = 4, 25
	var wg sync.WaitGroup
	for p := range procs {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), fmt.Sprintf("GENUI_REFINE_HELPER=%s:tool%d:%d", path, p, each))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("helper %d: %v\n%s", p, err, out)
			}
		})
	}
	wg.Wait()
	s := open(t, path)
	for p := range procs {
		if got := len(s.History(fmt.Sprintf("tool%d", p))); got != each {
			t.Errorf("tool%d has %d refinements, want %d", p, got, each)
		}
	}
}
