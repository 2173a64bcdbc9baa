package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

// Finding a live genui in DIR: DIR/mcp-port names its API port (the port on
// the first line; anything after it is ignored), and a genui is live when
// its API answers GET /state quickly. The pid a port file may carry is never
// trusted: ports and pids are reused.

// ProbeTimeout bounds the check that a port file's genui is alive.
const ProbeTimeout = 1500 * time.Millisecond

// PortFileURL reads DIR/mcp-port and returns the API base URL it names.
func PortFileURL(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "mcp-port"))
	if err != nil {
		return "", err
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "", fmt.Errorf("%s is empty", filepath.Join(dir, "mcp-port"))
	}
	port, err := strconv.Atoi(f[0])
	if err != nil || port <= 0 || port > 65535 {
		return "", fmt.Errorf("%s: not a port: %q", filepath.Join(dir, "mcp-port"), f[0])
	}
	return "http://127.0.0.1:" + strconv.Itoa(port), nil
}

// Discover returns the base URL and engine of the live genui DIR/mcp-port
// names, or an error saying why there is none.
func Discover(ctx context.Context, dir string, dial func(base string) contract.API) (string, contract.API, error) {
	base, err := PortFileURL(dir)
	if err != nil {
		return "", nil, err
	}
	api := dial(base)
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	if _, err := api.State(ctx); err != nil {
		return "", nil, fmt.Errorf("%s names %s, which does not answer: %w", filepath.Join(dir, "mcp-port"), base, err)
	}
	return base, api, nil
}

// discover looks for a genui started later on the same DIR (in-process).
func (m *Model) discover() tea.Cmd {
	dir, dial, own, ctx := m.opts.Dir, m.opts.Dial, m.base, m.ctx
	return func() tea.Msg {
		base, err := PortFileURL(dir)
		if err != nil || base == own {
			return discoverMsg{}
		}
		if b, _, err := Discover(ctx, dir, dial); err == nil {
			return discoverMsg{base: b}
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

// attach switches to the genui found in DIR: check it answers, release the
// in-process engine, then follow the new one.
func (m *Model) attach() tea.Cmd {
	if m.mode != InProcess || m.other == "" || m.attaching || m.opts.Dial == nil {
		return nil
	}
	m.attaching = true
	m.setStatus("attaching to "+m.other+"…", false)
	base, dial, release, ctx := m.other, m.opts.Dial, m.opts.Release, m.ctx
	return tea.Batch(m.spinTick(), func() tea.Msg {
		api := dial(base)
		cctx, cancel := context.WithTimeout(ctx, ProbeTimeout*2)
		defer cancel()
		if _, err := api.State(cctx); err != nil {
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
	return tea.Batch(m.subscribe(), m.fetchState(), m.fetchTools(), m.fetchPending())
}

// resubscribe is a reconnect attempt: follow DIR/mcp-port to a restarted
// server when it moved, then subscribe again.
func (m *Model) resubscribe() tea.Cmd {
	if m.subCancel != nil {
		m.subCancel()
	}
	m.subGen++
	gen, api, base, dir, dial := m.subGen, m.api, m.base, m.opts.Dir, m.opts.Dial
	ctx, cancel := context.WithCancel(m.ctx)
	m.subCancel = cancel
	return func() tea.Msg {
		if dir != "" && dial != nil {
			if b, a, err := Discover(ctx, dir, dial); err == nil && b != base {
				api, base = a, b
			}
		}
		sctx, scancel := context.WithTimeout(ctx, ProbeTimeout*2)
		_, err := api.State(sctx)
		scancel()
		if err != nil {
			return subscribedMsg{gen: gen, err: err}
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
	if m.lost {
		m.lost, m.retry, m.lostErr = false, 0, ""
		m.setStatus("reconnected to "+m.base, false)
		m.forgetUIs(false)
		// It may be another process (a restarted genui numbers its queue
		// from 1 again): take its pending events as new.
		m.seenQueue, m.lastTaken = map[int64]int{}, 0
		m.events.Push(eventRow{time: m.now(), kind: "reconnected", text: "the events below come from the genui at " + m.base})
		cmds = append(cmds, m.fetchState(), m.fetchTools(), m.fetchPending(), m.fetchInspect(m.selected()))
	}
	return tea.Batch(cmds...)
}
