// Command coldbuild times `go build ./cmd/genui` with an empty build cache
// and prints the packages that took longest to build, so the cost of a new
// dependency shows (bench/README.md). It runs the build with a fresh
// GOCACHE and -debug-actiongraph, whose actions carry their start and end
// times; -graph reads a graph such a build wrote instead of building.
//
//	go run ./bench/coldbuild [-top 10] [-graph FILE]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"
)

// action is what the action graph says of one step.
type action struct {
	Mode      string
	Package   string
	NeedBuild bool
	TimeStart time.Time
	TimeDone  time.Time
}

func main() {
	top := flag.Int("top", 10, "how many packages to list")
	graph := flag.String("graph", "", "read this -debug-actiongraph file instead of building")
	flag.Parse()
	if err := run(*graph, *top); err != nil {
		fmt.Fprintln(os.Stderr, "coldbuild:", err)
		os.Exit(1)
	}
}

func run(graph string, top int) error {
	var wall time.Duration
	if graph == "" {
		dir, err := os.MkdirTemp("", "genui-coldbuild-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		graph = filepath.Join(dir, "graph.json")
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "genui"), "-debug-actiongraph="+graph, "./cmd/genui")
		cmd.Env = append(os.Environ(), "GOCACHE="+filepath.Join(dir, "cache"))
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		t0 := time.Now()
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go build: %w", err)
		}
		wall = time.Since(t0)
	}
	data, err := os.ReadFile(graph)
	if err != nil {
		return err
	}
	var actions []action
	if err := json.Unmarshal(data, &actions); err != nil {
		return fmt.Errorf("%s: %w", graph, err)
	}
	per := map[string]time.Duration{}
	var first, last time.Time
	var total time.Duration
	for _, a := range actions {
		if a.TimeStart.IsZero() || a.TimeDone.IsZero() {
			continue
		}
		if first.IsZero() || a.TimeStart.Before(first) {
			first = a.TimeStart
		}
		if a.TimeDone.After(last) {
			last = a.TimeDone
		}
		d := a.TimeDone.Sub(a.TimeStart)
		total += d
		name := a.Package
		if a.Mode == "link" {
			name = "(link) " + name
		}
		if a.Mode == "build" || a.Mode == "link" {
			per[name] += d
		}
	}
	if wall == 0 {
		wall = last.Sub(first)
	}
	names := make([]string, 0, len(per))
	for n := range per {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return per[names[i]] > per[names[j]] })
	fmt.Printf("cold go build ./cmd/genui: %v wall, %v summed over %d actions (%d packages)\n",
		wall.Round(time.Second), total.Round(time.Second), len(actions), len(per))
	for _, n := range names[:min(top, len(names))] {
		fmt.Printf("  %6.1fs %4.1f%%  %s\n", per[n].Seconds(), 100*float64(per[n])/float64(total), n)
	}
	return nil
}
