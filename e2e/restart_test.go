package e2e_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/internal/testenv"
)

// TestUpstreamKilledMidCall SIGKILLs genui's stdio upstream (`genui
// demo-server`) while a run_battery tools/call is in flight: the host gets
// an error response that names the upstream's exit (not a timeout), and
// after genui restarts the upstream (backoff about 1 s) calls succeed again.
func TestUpstreamKilledMidCall(t *testing.T) {
	bin := testenv.GenuiBinary(t)
	c, _ := genuiMCP(t, "--", bin, "demo-server")
	ctx := bounded(t, 2*time.Minute)
	if _, err := c.Initialize(ctx, protocol, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	child := waitDemoChild(ctx, t, c.Pid(), 0)

	// Freeze the child first so the call is certainly still in flight when
	// it dies, however loaded the machine is: genui forwards the request into
	// the stopped child's stdin and waits.
	if err := syscall.Kill(child, syscall.SIGSTOP); err != nil {
		t.Fatalf("stop demo-server %d: %v", child, err)
	}
	type reply struct {
		res    json.RawMessage
		rpcErr *jsonrpc.Error
		err    error
		at     time.Time
	}
	done := make(chan reply, 1)
	go func() {
		res, rpcErr, err := c.Request(ctx, "tools/call", map[string]any{
			"name":      "run_battery",
			"arguments": map[string]any{"cells": 16},
			"_meta":     map[string]any{"progressToken": "kill-me"},
		})
		done <- reply{res, rpcErr, err, time.Now()}
	}()
	select {
	case r := <-done:
		t.Fatalf("run_battery answered while its upstream was stopped: %+v", r)
	case <-time.After(300 * time.Millisecond):
	}
	if err := syscall.Kill(child, syscall.SIGKILL); err != nil {
		t.Fatalf("kill demo-server %d: %v", child, err)
	}
	killed := time.Now()

	// The in-flight call fails because its upstream died, which the error
	// says: one left to a request timeout would say nothing of the exit. How
	// soon is no claim here (the test's bound only stops a hang).
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("in-flight call: %v", r.err)
		}
		switch {
		case r.rpcErr != nil:
			t.Logf("in-flight call failed after %v with %v", r.at.Sub(killed), r.rpcErr)
			if r.rpcErr.Code != jsonrpc.CodeUpstreamUnavailable || !strings.Contains(r.rpcErr.Message, "upstream exited") {
				t.Errorf("in-flight call failed with %v, want code %d naming the upstream's exit", r.rpcErr, jsonrpc.CodeUpstreamUnavailable)
			}
		case isErrorResult(r.res):
			t.Errorf("in-flight call failed with an isError result, want the upstream-unavailable error: %s", clip(r.res))
		default:
			t.Fatalf("in-flight call succeeded although its upstream was killed: %s", clip(r.res))
		}
	case <-ctx.Done():
		t.Fatal("no response to the in-flight call after killing the upstream")
	}

	// genui restarts the upstream (backoff about 1 s); a cheap call works
	// again.
	var last string
	works := func() bool {
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		res, rpcErr, err := c.Request(rctx, "tools/call", map[string]any{
			"name": "get_current_weather", "arguments": map[string]any{"location": "Berlin"},
		})
		cancel()
		if err == nil && rpcErr == nil && !isErrorResult(res) {
			return true
		}
		last = clip(res)
		if rpcErr != nil {
			last = rpcErr.Error()
		} else if err != nil {
			last = err.Error()
		}
		return false
	}
	if !testenv.Until(time.Until(deadlineOf(ctx)), works) {
		t.Fatalf("tools/call never worked again after the upstream was killed: %s", last)
	}
	if again := waitDemoChild(ctx, t, c.Pid(), child); again == child {
		t.Errorf("demo-server pid unchanged (%d) after the kill", child)
	}
	if err := c.CheckStdout(); err != nil {
		t.Errorf("genui stdout is not pure JSON-RPC: %v", err)
	}
}

// waitDemoChild returns the pid of genui's `demo-server` child (other than
// not), polling /proc/<genui>/task/*/children while ctx lasts.
func waitDemoChild(ctx context.Context, t *testing.T, genuiPid, not int) int {
	t.Helper()
	found := 0
	demoChild := func() bool {
		for _, pid := range children(genuiPid) {
			cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
			if err == nil && pid != not && strings.Contains(string(cmdline), "demo-server") {
				found = pid
				return true
			}
		}
		return false
	}
	if !testenv.Until(time.Until(deadlineOf(ctx)), demoChild) {
		t.Fatalf("no demo-server child of genui (pid %d) found", genuiPid)
	}
	return found
}

// children lists the direct child pids of pid (Linux /proc).
func children(pid int) []int {
	files, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	var out []int
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, field := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(field); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}
