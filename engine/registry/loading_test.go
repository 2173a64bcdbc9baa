package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/testenv"
)

// rawTools are n tools named prefix0..prefix(n-1) from the offset on.
func rawTools(prefix string, from, n int) []json.RawMessage {
	out := make([]json.RawMessage, n)
	for i := range out {
		out[i] = json.RawMessage(fmt.Sprintf(`{"name":"%s%d","inputSchema":{"type":"object"}}`, prefix, from+i))
	}
	return out
}

// bound is every wait's limit in these tests (a bound, not a timing).
const bound = 30 * time.Second

// refreshing runs RefreshParsed with fetch on its own goroutine; the
// channel gets its error.
func refreshing(r *Registry, fetch func(context.Context) (*Parser, error)) <-chan error {
	done := make(chan error, 1)
	go func() {
		_, err := r.RefreshParsed(context.Background(), fetch)
		done <- err
	}()
	return done
}

func waitErr(t *testing.T, c <-chan error) error {
	t.Helper()
	select {
	case err := <-c:
		return err
	case <-time.After(bound):
		t.Fatal("refresh did not end")
		return nil
	}
}

// waitingOn returns once n WaitTools calls wait for more of l's tools.
func waitingOn(t *testing.T, l *Loading, n int) {
	t.Helper()
	testenv.Eventually(t, bound, fmt.Sprintf("%d waits on the load", n), func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.waiting == n
	})
}

// TestWaitToolsHandsOutTheFirstLoadAsItComes: during the first load the
// tools published so far are handed out once there are enough of them,
// while the registry's own list (List, Get, Snapshot) stays empty; a wait
// for more wakes when more come; the finished load keeps them.
func TestWaitToolsHandsOutTheFirstLoadAsItComes(t *testing.T) {
	r, _ := New(Options{})
	more, finish := make(chan struct{}), make(chan struct{})
	done := refreshing(r, func(context.Context) (*Parser, error) {
		p := r.NewParser()
		p.Add(rawTools("t", 0, 10))
		p.Publish()
		<-more
		p.Add(rawTools("t", 10, 10))
		p.Publish()
		<-finish
		p.Add(rawTools("t", 20, 5))
		return p, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	tools, l, err := r.WaitTools(ctx, 5)
	if err != nil || l == nil || len(tools) != 10 || tools[9].Name != "t9" {
		t.Fatalf("first wait: %d tools, loading %v, err %v", len(tools), l != nil, err)
	}
	if len(r.List()) != 0 || len(r.Snapshot()) != 0 {
		t.Fatal("a load in progress reached the registry's list")
	}
	if _, ok := r.Get("t0"); ok {
		t.Fatal("a load in progress reached the registry's index")
	}
	got := make(chan []*Tool, 1)
	go func() {
		tools, _, _ := r.WaitTools(ctx, 15)
		got <- tools
	}()
	waitingOn(t, l, 1)
	close(more)
	if tools := <-got; len(tools) != 20 || tools[19].Name != "t19" {
		t.Fatalf("second wait: %d tools", len(tools))
	}
	close(finish)
	if err := waitErr(t, done); err != nil {
		t.Fatal(err)
	}
	<-l.Done()
	if !l.Kept() || l.Err() != nil {
		t.Fatalf("a successful load: kept %v, err %v", l.Kept(), l.Err())
	}
	tools, l2, err := r.WaitTools(ctx, 1000)
	if err != nil || l2 != nil || len(tools) != 25 {
		t.Fatalf("after the load: %d tools, loading %v, err %v", len(tools), l2 != nil, err)
	}
}

// TestWaitToolsLoadFailsPartWay: a load that fails after some of its
// tools were handed out fails the waits on it with ErrLoadFailed, says it
// was not kept, and leaves the registry as it was (empty, not ready).
func TestWaitToolsLoadFailsPartWay(t *testing.T) {
	r, _ := New(Options{})
	fail := make(chan struct{})
	cause := errors.New("upstream closed its output")
	done := refreshing(r, func(context.Context) (*Parser, error) {
		p := r.NewParser()
		p.Add(rawTools("t", 0, 10))
		p.Publish()
		<-fail
		return nil, cause
	})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	_, l, err := r.WaitTools(ctx, 10)
	if err != nil || l == nil {
		t.Fatalf("first wait: loading %v, err %v", l != nil, err)
	}
	waiting := make(chan error, 1)
	go func() {
		_, _, err := r.WaitTools(ctx, 11)
		waiting <- err
	}()
	waitingOn(t, l, 1)
	close(fail)
	if err := waitErr(t, waiting); !errors.Is(err, ErrLoadFailed) || !errors.Is(err, cause) {
		t.Fatalf("a wait on the failed load: %v", err)
	}
	if err := waitErr(t, done); !errors.Is(err, cause) {
		t.Fatal(err)
	}
	if l.Kept() || !errors.Is(l.Err(), cause) {
		t.Fatalf("a failed load: kept %v, err %v", l.Kept(), l.Err())
	}
	if len(r.List()) != 0 {
		t.Fatal("a failed load reached the registry")
	}
	short, cancelShort := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancelShort()
	if r.WaitReady(short) == nil {
		t.Fatal("the registry is ready after a failed first load")
	}
}

// TestWaitToolsAnswerStartedOver: when the load's tools start over (the
// stream turned out to be another answer) after some were handed out,
// the load is not kept even though it succeeds.
func TestWaitToolsAnswerStartedOver(t *testing.T) {
	r, _ := New(Options{})
	over := make(chan struct{})
	done := refreshing(r, func(context.Context) (*Parser, error) {
		p := r.NewParser()
		p.Add(rawTools("a", 0, 10))
		p.Publish()
		<-over
		q := r.NewParser()
		q.Publish()
		q.Add(rawTools("b", 0, 10))
		q.Publish()
		return q, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	tools, l, err := r.WaitTools(ctx, 5)
	if err != nil || l == nil || tools[0].Name != "a0" {
		t.Fatalf("first wait: loading %v, err %v", l != nil, err)
	}
	close(over)
	if err := waitErr(t, done); err != nil {
		t.Fatal(err)
	}
	if l.Kept() {
		t.Fatal("a load that started over after handing tools out counts as kept")
	}
}

// TestWaitToolsLaterRefreshShowsTheOldList: only the first load is handed
// out while it runs; during a later refresh WaitTools gives the list the
// registry holds, and the refresh's tools stay out of sight until it is
// done (concurrent waits while it publishes: run with -race).
func TestWaitToolsLaterRefreshShowsTheOldList(t *testing.T) {
	r, _ := New(Options{})
	if _, err := r.Refresh(context.Background(), func(context.Context) ([]json.RawMessage, error) {
		return rawTools("old", 0, 3), nil
	}); err != nil {
		t.Fatal(err)
	}
	finish := make(chan struct{})
	published := make(chan struct{})
	done := refreshing(r, func(context.Context) (*Parser, error) {
		p := r.NewParser()
		for i := range 10 {
			p.Add(rawTools("new", i*10, 10))
			p.Publish()
		}
		close(published)
		<-finish
		return p, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	<-published
	for range 4 {
		tools, l, err := r.WaitTools(ctx, 50)
		if err != nil || l != nil || len(tools) != 3 || tools[0].Name != "old0" {
			t.Fatalf("during a later refresh: %d tools, loading %v, err %v", len(tools), l != nil, err)
		}
	}
	close(finish)
	if err := waitErr(t, done); err != nil {
		t.Fatal(err)
	}
	if tools, _, _ := r.WaitTools(ctx, 1); len(tools) != 100 {
		t.Fatalf("after the refresh: %d tools", len(tools))
	}
}
