package tui

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/genui-dev/genui/engine/contract"
)

// TestAttachedNeverFollowsAnotherGenui: attached to one genui instance,
// whose process dies and whose port another genui (serving another DIR)
// takes. DIR's lock file still names the dead instance and nothing holds
// it: the workbench says the genui on DIR is gone, never subscribes to the
// stranger nor shows its tools; when a genui takes DIR's lock over it
// follows that one.
func TestAttachedNeverFollowsAnotherGenui(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const dir = "proj/.ui"
		watched := newStub()
		watched.state.Instance = "i-watched"
		stranger := newStub()
		stranger.state.Instance = "i-stranger"
		stranger.state.Tools = []contract.ToolStatus{{Name: "stranger_tool"}}
		restarted := newStub()
		restarted.base = "http://127.0.0.1:50009"
		restarted.state.Instance = "i-restarted"
		var mu sync.Mutex
		onDir := DirGenui{Base: watched.base, Instance: "i-watched", Held: false} // the dead one's stale lock
		d := newDriver(t, watched, func(o *Options) {
			o.Mode, o.Dir = Attached, dir
			o.API = &pinned{API: watched, base: watched.base, instance: "i-watched"}
			o.Dial = func(base string) contract.API {
				if base == restarted.base {
					return restarted
				}
				return stranger // the old port now answers with another genui
			}
			o.Locate = func(string) (DirGenui, error) {
				mu.Lock()
				defer mu.Unlock()
				return onDir, nil
			}
		})
		defer d.finish()
		close(watched.events)
		synctest_wait(d)
		for attempt := 0; attempt < 3; attempt++ {
			d.send(reconnectMsg{gen: d.m.subGen})
			if !d.m.lost || !strings.HasPrefix(d.m.lostErr, "the genui on proj/.ui is gone: it stopped") {
				t.Fatalf("attempt %d: lost %v, %q", attempt, d.m.lost, d.m.lostErr)
			}
		}
		if n := len(stranger.called("Subscribe")); n != 0 {
			t.Fatalf("subscribed to the stranger %d times", n)
		}
		mustNotContain(t, d.screen(), "stranger_tool")
		mustContain(t, d.screen(), "the genui on proj/.ui is gone")

		// A genui that takes DIR's lock but whose port answers as another
		// instance is not followed either.
		mu.Lock()
		onDir = DirGenui{Base: watched.base, Instance: "i-new", Held: true}
		mu.Unlock()
		d.send(reconnectMsg{gen: d.m.subGen})
		if !d.m.lost || len(stranger.called("Subscribe")) != 0 {
			t.Fatalf("followed a port that answers as another instance: lost %v %q", d.m.lost, d.m.lostErr)
		}

		// The genui restarted on DIR: followed.
		mu.Lock()
		onDir = DirGenui{Base: restarted.base, Instance: "i-restarted", Held: true}
		mu.Unlock()
		d.send(reconnectMsg{gen: d.m.subGen})
		if d.m.lost || d.m.base != restarted.base || instanceOf(d.m.api) != "i-restarted" {
			t.Fatalf("the restarted genui was not followed: lost %v %q base %s", d.m.lost, d.m.lostErr, d.m.base)
		}
		mustContain(t, d.screen(), "reconnected to http://127.0.0.1:50009")
		d.stub.mu.Lock()
		d.stub.events = make(chan contract.Event) // finish closes it
		d.stub.mu.Unlock()
		close(restarted.events)
		synctest.Wait()
	})
}

// TestDiscoverChecksTheInstance: Discover trusts a port only when the
// process answering there reports the instance DIR's lock names; a
// Locate error (a FIFO or a device where a port file should be) is
// returned as is.
func TestDiscoverChecksTheInstance(t *testing.T) {
	a := newStub()
	a.state.Instance = "i-a"
	dial := func(string) contract.API { return a }
	locate := func(inst string) func(string) (DirGenui, error) {
		return func(string) (DirGenui, error) { return DirGenui{Base: a.base, Instance: inst}, nil }
	}
	if _, api, err := Discover(t.Context(), "d", locate("i-a"), dial); err != nil || instanceOf(api) != "i-a" {
		t.Fatalf("the right instance: %v", err)
	}
	if _, _, err := Discover(t.Context(), "d", locate("i-other"), dial); err == nil || !strings.Contains(err.Error(), `another process answers at http://127.0.0.1:50001`) {
		t.Fatalf("another instance at the port: %v", err)
	}
	bad := errors.New("d/mcp-port: not a regular file (named pipe)")
	if _, _, err := Discover(t.Context(), "d", func(string) (DirGenui, error) { return DirGenui{}, bad }, dial); !errors.Is(err, bad) {
		t.Fatalf("locate error: %v", err)
	}
}
