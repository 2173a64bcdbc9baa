package app

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/config"
)

// TestStartRaisesTheGCTargetUntilTheToolsAreIn: a serving command's start
// runs with the GC's target raised (no collection on the CPU the upstream
// needs to boot), and the running App puts it back once the upstream's
// tools are in, well before the start's bound (startGCBound).
func TestStartRaisesTheGCTargetUntilTheToolsAreIn(t *testing.T) {
	s, err := ConfigureInput(nil, config.Input{File: writeConfig(t, `{"dir": "`+t.TempDir()+`"}`), LookupEnv: env{}.lookup})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a, err := s.NewApp() // the built-in demo, in-process
	if err != nil {
		t.Fatal(err)
	}
	putBack, restore := make(chan struct{}), a.startGC
	var once sync.Once
	a.startGC = func() {
		restore()
		once.Do(func() { close(putBack) })
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, nil) }()
	defer func() {
		cancel()
		<-done
	}()
	wctx, wcancel := context.WithTimeout(ctx, 30*time.Second)
	defer wcancel()
	if err := a.Engine.Registry().WaitReady(wctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-putBack:
	case <-time.After(startGCBound - 5*time.Second):
		t.Fatal("the GC's target was not put back after the tools were in")
	}
}

// TestFailedConfigurePutsTheGCTargetBack: a configuration that does not
// resolve leaves no raise behind.
func TestFailedConfigurePutsTheGCTargetBack(t *testing.T) {
	_, err := config.ResolveInput(nil, config.Input{File: writeConfig(t, `{"dir": 7}`), LookupEnv: env{}.lookup})
	if err == nil {
		t.Fatal("a dir of 7 was accepted")
	}
	putBack := false
	if _, err := configured(nil, err, func() { putBack = true }); err == nil || !putBack {
		t.Fatalf("a failed Configure: %v, GC target put back %v", err, putBack)
	}
}

// TestConfigureTakesOverTheProcessStartRaise: the raise main makes before
// the commands are built (BeginStart) is the one Configure hands to the
// App, not a second one left for its timer.
func TestConfigureTakesOverTheProcessStartRaise(t *testing.T) {
	BeginStart()
	s, err := ConfigureInput(nil, config.Input{File: writeConfig(t, `{"dir": "`+t.TempDir()+`"}`), LookupEnv: env{}.lookup})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	processStart.mu.Lock()
	left := processStart.restore != nil
	processStart.mu.Unlock()
	if left || s.startGC == nil {
		t.Fatalf("process start raise left pending: %v; Setup holds one: %v", left, s.startGC != nil)
	}
}
