package contract_test

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/genui-dev/genui/engine/contract"
)

// figure is a number docs/architecture.md states: found by pattern (its
// first group), and what it must be.
type figure struct {
	what    string
	pattern *regexp.Regexp
	want    int
}

// checkFigures reports each figure doc does not state, or states wrong.
func checkFigures(doc string, figures []figure) []string {
	var problems []string
	for _, f := range figures {
		m := f.pattern.FindStringSubmatch(doc)
		if m == nil {
			problems = append(problems, fmt.Sprintf("%s: not stated (want %d; pattern %s)", f.what, f.want, f.pattern))
			continue
		}
		if n, _ := strconv.Atoi(m[1]); n != f.want {
			problems = append(problems, fmt.Sprintf("%s: the doc says %d, it is %d", f.what, n, f.want))
		}
	}
	return problems
}

// tuiPackages is how many packages the TUI compiles (go list -deps ./tui).
func tuiPackages(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "./tui")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./tui: %v", err)
	}
	return len(strings.Fields(string(out)))
}

func architectureFigures(t *testing.T) []figure {
	return []figure{
		{"the API's methods", regexp.MustCompile(`the ` + "`API`" + ` interface \((\d+)\s+methods`), len(contract.Methods)},
		{"packages the TUI compiles", regexp.MustCompile(`the TUI compiles (\d+) packages`), tuiPackages(t)},
	}
}

// TestArchitectureFigures: the figures docs/architecture.md states are
// today's: the API's method count (contract.Methods, which
// TestMethodTable ties to the interface) and the packages the TUI compiles.
func TestArchitectureFigures(t *testing.T) {
	doc, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range checkFigures(string(doc), architectureFigures(t)) {
		t.Error(p)
	}
}

// TestArchitectureFiguresCheckBites: a doc with a stale count, or without
// the figure, is reported.
func TestArchitectureFiguresCheckBites(t *testing.T) {
	doc, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	figures := architectureFigures(t)
	stale := strings.Replace(string(doc), fmt.Sprintf("the TUI compiles %d packages", figures[1].want), "the TUI compiles 171 packages", 1)
	if p := checkFigures(stale, figures); len(p) != 1 || !strings.Contains(p[0], "the doc says 171") {
		t.Errorf("a stale package count: %q", p)
	}
	if p := checkFigures("nothing", figures); len(p) != 2 {
		t.Errorf("a doc without the figures: %q", p)
	}
}
