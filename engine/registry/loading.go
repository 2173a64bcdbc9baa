package registry

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
)

// The first load's tools while its answer streams in. An upstream with
// 100,000 tools sends them in one 36 MB tools/list answer; a host asks for
// them 1,000 at a time (the MCP host's pages), so its first page can go
// out once the first 1,000 tools are parsed instead of after the last
// byte. Nothing of a load in progress reaches the registry's list (List,
// Snapshot, Get, /state, UI generation): WaitTools alone hands it out, as
// a Loading, and a load that fails, or ends with another list than the
// one handed out, says so (Loading.Kept) so that the hosts that got pages
// of it can be told to list again.

// ErrLoadFailed is WaitTools' error when the load whose tools it waited
// for failed part way (the error wraps the load's own).
var ErrLoadFailed = errors.New("the upstream's tools/list answer failed part way")

// Loading is the registry's first load while it runs: the tools parsed so
// far, in the order of the final list, each name once (a Parser's, see
// Parser.Publish).
type Loading struct {
	mu    sync.Mutex
	tools []*Tool
	from  *Parser       // the parser tools come from
	grew  chan struct{} // closed and replaced when tools change or the load ends
	// shown is the longest list WaitTools handed out since tools last
	// started over; broken is set when they started over after one was
	// handed out (another answer began: what was shown is not a prefix).
	shown  []*Tool
	broken bool
	// waiting counts the WaitTools calls waiting for more of its tools.
	waiting int

	done  chan struct{} // closed when the load ended
	err   error         // why it failed (after done)
	final []*Tool       // the list it ended with (after done; nil on failure)
}

func newLoading() *Loading {
	return &Loading{grew: make(chan struct{}), done: make(chan struct{})}
}

// Done is closed when the load has ended (the registry holds its list, or
// kept the one before).
func (l *Loading) Done() <-chan struct{} { return l.done }

// Err is why the load failed (nil before Done and after a success).
func (l *Loading) Err() error {
	select {
	case <-l.done:
		return l.err
	default:
		return nil
	}
}

// Kept reports, once Done, whether the tools handed out from this load
// are where the registry now holds them: the load succeeded and its list
// begins with them (same tools, same JSON). False before Done.
func (l *Loading) Kept() bool {
	select {
	case <-l.done:
	default:
		return false
	}
	l.mu.Lock()
	shown, broken, final := l.shown, l.broken, l.final
	l.mu.Unlock()
	if l.err != nil || broken || len(final) < len(shown) {
		return false
	}
	for i, t := range shown {
		if final[i] != t && (final[i].Name != t.Name || !bytes.Equal(final[i].Raw, t.Raw)) {
			return false
		}
	}
	return true
}

// publish replaces the tools so far with p's (the caller's parser keeps
// appending to its list: the first len(tools) entries never change).
func (l *Loading) publish(p *Parser) {
	l.mu.Lock()
	if p != l.from && len(l.shown) > 0 {
		l.broken = true
	}
	l.from, l.tools = p, p.tools[:len(p.tools):len(p.tools)]
	close(l.grew)
	l.grew = make(chan struct{})
	l.mu.Unlock()
}

// end records the load's outcome and wakes every waiter.
func (l *Loading) end(final []*Tool, err error) {
	l.mu.Lock()
	l.final, l.err = final, err
	close(l.done)
	close(l.grew)
	l.grew = make(chan struct{})
	l.mu.Unlock()
}

// Publish shows the tools parsed so far to WaitTools while the registry's
// first load runs (a no-op otherwise). The parser must hold the beginning
// of the list being loaded: the first page of the upstream's answer, as
// it streams in. A parser published after another one (the answer
// started over) replaces it.
func (p *Parser) Publish() {
	p.r.mu.RLock()
	l := p.r.loading
	p.r.mu.RUnlock()
	if l != nil {
		l.publish(p)
	}
}

// WaitTools waits, bounded by ctx, until the tools [0, need) can be
// listed: the registry's list once its first load succeeded (l nil: the
// whole list, however long), or while that load's answer still streams
// in, the tools parsed so far once there are at least need of them (l is
// the load: see Loading.Kept; the list is read-only). A load that fails
// while it is waited on is ErrLoadFailed (wrapping why); otherwise it
// fails as WaitReady does: at once when the upstream answered tools/list
// with an error or an unusable result, or when ctx ends first.
func (r *Registry) WaitTools(ctx context.Context, need int) (tools []*Tool, l *Loading, err error) {
	for {
		r.mu.RLock()
		cur, failed, started := r.loading, r.loadFailed, r.loadStarted
		fatal, ferr := r.fatal, r.err
		r.mu.RUnlock()
		select {
		case <-r.loaded:
			return r.Snapshot(), nil, nil
		default:
		}
		if cur == nil && fatal && ferr != nil {
			return nil, nil, fmt.Errorf("upstream not ready: %w", ferr)
		}
		var grew, done <-chan struct{}
		if cur != nil {
			done = cur.done
			cur.mu.Lock()
			if len(cur.tools) >= need {
				tools = cur.tools
				if len(tools) > len(cur.shown) {
					cur.shown = tools
				}
				cur.mu.Unlock()
				return tools, cur, nil
			}
			grew = cur.grew
			cur.waiting++
			cur.mu.Unlock()
		}
		select {
		case <-r.loaded:
		case <-failed:
		case <-started:
		case <-grew:
		case <-done:
		case <-ctx.Done():
		}
		if cur != nil {
			cur.mu.Lock()
			cur.waiting--
			cur.mu.Unlock()
			if err := cur.Err(); err != nil {
				return nil, nil, fmt.Errorf("%w: %w", ErrLoadFailed, err)
			}
		}
		select {
		case <-ctx.Done():
			if err := r.WaitReady(ctx); err != nil { // ctx is done: WaitReady's error
				return nil, nil, err
			}
		default:
		}
	}
}
