package tui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

// Finding the genui that serves DIR, and knowing it again. DIR/mcp-port
// names the API port and DIR/genui.lock the genui instance that wrote it
// (a random id per process, which its /state reports too); the TUI reads
// neither file itself: Options.Locate does (the command injects
// engine/httpapi's reader: regular files only, bounded, never blocking on a
// FIFO). A genui counts only when the process answering at the port
// reports the instance the lock file names: ports are reused, and any
// local user can bind a loopback port, so a port alone proves nothing.
// Attached, the workbench re-attaches only to the instance it watched, or
// to one that took DIR's lock over (a restarted genui); otherwise the genui
// on DIR is gone, and it says so and keeps looking. Pids are never trusted.

// ProbeTimeout bounds the check that a port file's genui is alive.
const ProbeTimeout = 1500 * time.Millisecond

// DirGenui is what DIR's port and lock files say about the genui serving
// DIR.
type DirGenui struct {
	// Base is the API base URL DIR/mcp-port names.
	Base string
	// Instance is the genui instance DIR/genui.lock names.
	Instance string
	// Held reports whether a live process holds DIR/genui.lock.
	Held bool
}

// pinned is the engine of one genui instance: its State fails when the
// process answering at its address is another one.
type pinned struct {
	contract.API
	base, instance string
}

// State is the engine's state, or an error when another genui (or no
// genui) answers at the address.
func (p *pinned) State(ctx context.Context) (contract.State, error) {
	st, err := p.API.State(ctx)
	if err == nil && st.Instance != p.instance {
		return contract.State{}, fmt.Errorf("another process answers at %s (genui instance %q, not %q)", p.base, st.Instance, p.instance)
	}
	return st, err
}

// instanceOf is the genui instance api is pinned to ("" when unknown).
func instanceOf(api contract.API) string {
	if p, ok := api.(*pinned); ok {
		return p.instance
	}
	return ""
}

// connect dials the genui g names and checks it is that instance.
func connect(ctx context.Context, dir string, g DirGenui, dial func(base string) contract.API) (contract.API, error) {
	api := &pinned{API: dial(g.Base), base: g.Base, instance: g.Instance}
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	if _, err := api.State(ctx); err != nil {
		return nil, fmt.Errorf("%s names %s, which does not answer as the genui of %s: %w", filepath.Join(dir, "mcp-port"), g.Base, dir, err)
	}
	return api, nil
}

// Discover returns the base URL and engine of the genui serving DIR (the
// process at DIR/mcp-port's port reporting the instance DIR/genui.lock
// names), or an error saying why there is none.
func Discover(ctx context.Context, dir string, locate func(dir string) (DirGenui, error), dial func(base string) contract.API) (string, contract.API, error) {
	if locate == nil || dial == nil {
		return "", nil, errors.New("no way to look for a genui (Options.Locate and Dial)")
	}
	g, err := locate(dir)
	if err != nil {
		return "", nil, err
	}
	api, err := connect(ctx, dir, g, dial)
	if err != nil {
		return "", nil, err
	}
	return g.Base, api, nil
}

// goneError says the genui the workbench watched is no longer DIR's.
type goneError struct{ dir, why string }

func (e *goneError) Error() string { return "the genui on " + e.dir + " is gone: " + e.why }

// follow finds the genui to re-attach to after the one watched (instance
// cur) went away: the same instance, or the one that took DIR's lock over.
func follow(ctx context.Context, dir, cur string, locate func(string) (DirGenui, error), dial func(string) contract.API) (string, contract.API, error) {
	g, err := locate(dir)
	switch {
	case err != nil:
		return "", nil, &goneError{dir, err.Error()}
	case g.Instance == cur && cur != "":
		// Still the one we watched (a dropped stream, or busy): it must
		// answer as itself.
	case g.Held:
		// A genui that took DIR's lock over (restarted): follow it.
	default:
		return "", nil, &goneError{dir, "it stopped and no genui has taken " + dir + " over"}
	}
	api, err := connect(ctx, dir, g, dial)
	if err != nil {
		if !g.Held {
			return "", nil, &goneError{dir, "it stopped (" + errors.Unwrap(err).Error() + ")"}
		}
		return "", nil, err
	}
	return g.Base, api, nil
}

// discover looks for a genui started later on the same DIR (in-process):
// one holding DIR's lock, answering as the instance the lock names.
func (m *Model) discover() tea.Cmd {
	dir, locate, dial, own, ctx := m.opts.Dir, m.opts.Locate, m.opts.Dial, m.base, m.ctx
	return func() tea.Msg {
		if locate == nil || dial == nil {
			return discoverMsg{}
		}
		g, err := locate(dir)
		if err != nil || !g.Held || g.Base == own {
			return discoverMsg{}
		}
		if _, err := connect(ctx, dir, g, dial); err == nil {
			return discoverMsg{base: g.Base}
		}
		return discoverMsg{}
	}
}

func (m *Model) handleDiscover(msg discoverMsg) tea.Cmd {
	if m.mode != InProcess || m.attaching {
		return nil
	}
	if msg.base == m.other {
		return nil
	}
	m.other = msg.base
	m.keys.Attach.SetEnabled(msg.base != "")
	if msg.base != "" {
		m.setStatus("a genui started on "+m.opts.Dir+" ("+msg.base+"): press a to attach to it", false)
	}
	return nil
}

// attach switches to the genui found in DIR: check it is still DIR's and
// answers as itself, release the in-process engine, then follow the new
// one.
func (m *Model) attach() tea.Cmd {
	if m.mode != InProcess || m.other == "" || m.attaching || m.opts.Dial == nil || m.opts.Locate == nil {
		return nil
	}
	m.attaching = true
	m.setStatus("attaching to "+m.other+"…", false)
	base, dir, locate, dial, release, ctx := m.other, m.opts.Dir, m.opts.Locate, m.opts.Dial, m.opts.Release, m.ctx
	return tea.Batch(m.spinTick(), func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, ProbeTimeout*2)
		defer cancel()
		b, api, err := Discover(cctx, dir, locate, dial)
		if err == nil && b != base {
			err = fmt.Errorf("the genui on %s moved to %s", dir, b)
		}
		if err != nil {
			return attachedMsg{base: base, err: err}
		}
		if release != nil {
			release()
		}
		return attachedMsg{api: api, base: base}
	})
}

func (m *Model) handleAttached(msg attachedMsg) tea.Cmd {
	m.attaching = false
	if msg.err != nil {
		m.setStatus("attaching to "+msg.base+": "+errText(msg.err), true)
		return nil
	}
	m.api, m.base, m.mode = msg.api, msg.base, Attached
	m.other = ""
	m.keys.Attach.SetEnabled(false)
	m.forgetUIs(true)
	m.seenQueue = map[int64]int{}
	m.lastTaken = 0
	m.events.Push(eventRow{time: m.now(), kind: "attached", text: "now showing the genui at " + msg.base})
	m.setStatus("attached to "+msg.base, false)
	return tea.Batch(m.subscribe(), m.fetchState(), m.fetchTools(), m.fetchPending(), m.engineChanged())
}

// resubscribe is a reconnect attempt: find the genui watched (or the one
// that took DIR over) through DIR's files, then subscribe again. Without a
// way to look (no DIR, Locate or Dial) it retries the same engine.
func (m *Model) resubscribe() tea.Cmd {
	if m.subCancel != nil {
		m.subCancel()
	}
	m.subGen++
	gen, api, base, dir, locate, dial := m.subGen, m.api, m.base, m.opts.Dir, m.opts.Locate, m.opts.Dial
	ctx, cancel := context.WithCancel(m.ctx)
	m.subCancel = cancel
	return func() tea.Msg {
		if dir != "" && locate != nil && dial != nil {
			b, a, err := follow(ctx, dir, instanceOf(api), locate, dial)
			if err != nil {
				return subscribedMsg{gen: gen, err: err}
			}
			api, base = a, b
		} else {
			sctx, scancel := context.WithTimeout(ctx, ProbeTimeout*2)
			_, err := api.State(sctx)
			scancel()
			if err != nil {
				return subscribedMsg{gen: gen, err: err}
			}
		}
		ch, err := api.Subscribe(ctx)
		return subscribedMsg{gen: gen, ch: ch, api: api, base: base, err: err}
	}
}

// streamEnded handles the end of the event stream: attached, the server is
// gone (banner, reconnect with backoff); in-process, the engine stopped.
func (m *Model) streamEnded(why string) tea.Cmd {
	m.currentCh = nil
	if m.quitting || m.attaching {
		return nil // we end it: quitting, or leaving the in-process engine
	}
	if m.mode == Attached {
		if !m.lost {
			m.lost, m.retry = true, 0
			m.lostErr = why
		}
		return m.scheduleReconnect()
	}
	m.setStatus("the engine stopped: "+why, true)
	return nil
}

// backoff is the wait before reconnect attempt n: 250 ms doubling to 5 s.
func backoff(n int) time.Duration {
	d := 250 * time.Millisecond
	for i := 0; i < n && d < 5*time.Second; i++ {
		d *= 2
	}
	return min(d, 5*time.Second)
}

func (m *Model) scheduleReconnect() tea.Cmd {
	d := backoff(m.retry)
	m.retryAt = m.now().Add(d)
	gen := m.subGen
	return m.tick(d, func(time.Time) tea.Msg { return reconnectMsg{gen: gen} })
}

func (m *Model) handleReconnect(msg reconnectMsg) tea.Cmd {
	if msg.gen != m.subGen || !m.lost || m.quitting {
		return nil
	}
	m.retry++
	return m.resubscribe()
}

func (m *Model) handleSubscribed(msg subscribedMsg) tea.Cmd {
	if msg.gen != m.subGen {
		return nil
	}
	if msg.err != nil {
		if m.mode == Attached {
			if !m.lost {
				m.lost, m.retry = true, 0
			}
			m.lostErr = errText(msg.err)
			return m.scheduleReconnect()
		}
		m.setStatus("subscribing to engine events: "+errText(msg.err), true)
		return nil
	}
	m.currentCh = msg.ch
	cmds := []tea.Cmd{readEvents(msg.gen, msg.ch)}
	if msg.api != nil && msg.api != m.api {
		m.api, m.base = msg.api, msg.base
	}
	cmds = append(cmds, m.trafficSubscribed())
	if m.lost {
		m.lost, m.retry, m.lostErr = false, 0, ""
		m.setStatus("reconnected to "+m.base, false)
		m.forgetUIs(false)
		// It may be another process (a restarted genui numbers its queue
		// from 1 again): take its pending events as new.
		m.seenQueue, m.lastTaken = map[int64]int{}, 0
		m.events.Push(eventRow{time: m.now(), kind: "reconnected", text: "the events below come from the genui at " + m.base})
		cmds = append(cmds, m.fetchState(), m.fetchTools(), m.fetchPending(), m.fetchInspect(m.selected()), m.engineChanged())
	}
	return tea.Batch(cmds...)
}
