package host

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
)

// SSE resumability of streamable HTTP (2025-11-25 and older; the
// 2026-07-28 revision removed it). Every SSE stream of a session, a POST
// response or a GET stream, is a resumable: its events carry ids
// "<stream>-<seq>" (unique within the session, naming their stream), a
// stream opens with a priming event (an id and empty data) so the client
// can resume even before the first message, and the events stay in a
// bounded window. A client whose connection broke resumes with GET /mcp and
// Last-Event-ID: genui replays what followed that event on that stream
// only, and the stream goes on over the new connection. A dropped POST
// stream is not a cancellation (the spec says so): the request keeps
// running for the session, and its response waits in the window.

// Bounds of the replay window.
const (
	replayEventsPerStream = 256     // events kept per stream
	replayBytesPerStream  = 1 << 20 // bytes kept per stream (its newest event always)
	replayStreams         = 16      // streams kept per session besides connected ones
	replayKeep            = 5 * time.Minute
)

// Stream kinds, the first letter of a stream id.
const (
	streamPost = 'p'
	streamGet  = 'g'
)

type storedEvent struct {
	seq  int64
	data []byte
}

// resumable is one SSE stream of a session. It is the Sender requests and
// notifications write to; the connection under it may change.
type resumable struct {
	id string

	mu      sync.Mutex
	seq     int64
	events  []storedEvent
	bytes   int
	conn    *sseWriter
	ended   bool      // the stream is complete (a POST's response was sent)
	idle    time.Time // when it ended or lost its connection
	changed chan struct{}
}

// replayLog holds a session's resumable streams.
type replayLog struct {
	mu      sync.Mutex
	next    int64
	streams map[string]*resumable
}

// replayLog returns the session's log, creating it on first use.
func (sess *Session) replayLog() *replayLog {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.replay == nil {
		sess.replay = &replayLog{streams: map[string]*resumable{}}
	}
	return sess.replay
}

// open registers a new stream of the given kind, evicting streams that have
// been without a connection for replayKeep, and the oldest such ones beyond
// replayStreams.
func (l *replayLog) open(kind byte) *resumable {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.next++
	st := &resumable{id: string(kind) + strconv.FormatInt(l.next, 10), changed: make(chan struct{})}
	var idle []*resumable
	now := time.Now()
	for id, s := range l.streams {
		s.mu.Lock()
		detached, since := s.conn == nil, s.idle
		s.mu.Unlock()
		switch {
		case !detached:
		case now.Sub(since) > replayKeep:
			delete(l.streams, id)
		default:
			idle = append(idle, s)
		}
	}
	for len(idle) >= replayStreams {
		oldest := 0
		for i, s := range idle {
			if s.idleSince().Before(idle[oldest].idleSince()) {
				oldest = i
			}
		}
		delete(l.streams, idle[oldest].id)
		idle = append(idle[:oldest], idle[oldest+1:]...)
	}
	l.streams[st.id] = st
	return st
}

// lookup finds the stream a Last-Event-ID names and the sequence number in
// it. kind is the stream kind of a well-formed id (0 otherwise), also when
// the stream is no longer held.
func (l *replayLog) lookup(lastEventID string) (st *resumable, seq int64, kind byte, ok bool) {
	id, n, found := strings.Cut(lastEventID, "-")
	if !found || len(id) < 2 || (id[0] != streamPost && id[0] != streamGet) {
		return nil, 0, 0, false
	}
	if _, err := strconv.ParseUint(id[1:], 10, 63); err != nil {
		return nil, 0, 0, false
	}
	seq, err := strconv.ParseInt(n, 10, 64)
	if err != nil || seq < 0 {
		return nil, 0, 0, false
	}
	kind = id[0]
	l.mu.Lock()
	st = l.streams[id]
	l.mu.Unlock()
	return st, seq, kind, st != nil
}

func (st *resumable) idleSince() time.Time {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.idle
}

func (st *resumable) eventID(seq int64) string { return st.id + "-" + strconv.FormatInt(seq, 10) }

// Send records frame as the stream's next event and writes it to the
// current connection, if any. It never fails: an event that cannot be
// written now waits in the window for the client to resume.
func (st *resumable) Send(frame []byte) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.seq++
	ev := storedEvent{seq: st.seq, data: frame}
	st.events = append(st.events, ev)
	st.bytes += len(frame)
	for len(st.events) > 1 && (len(st.events) > replayEventsPerStream || st.bytes > replayBytesPerStream) {
		st.bytes -= len(st.events[0].data)
		st.events = st.events[1:]
	}
	if st.conn != nil {
		if err := st.conn.eventWithID(st.eventID(ev.seq), "message", frame); err != nil {
			st.dropLocked()
		}
	}
	return nil
}

// attach makes sw the stream's connection and writes to it the events after
// seq that are still in the window (a new stream first gets its priming
// event, then what was sent to it before it was attached). It reports false
// when the write failed.
func (st *resumable) attach(sw *sseWriter, seq int64, fresh bool) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.conn != nil && st.conn != sw {
		st.conn.close() // a newer connection replaces an old one
	}
	st.conn = sw
	defer st.signalLocked()
	if fresh {
		// Prime the client with an id to resume from (2025-11-25); then
		// what was sent to the new stream before it was attached.
		if err := sw.prime(st.eventID(0)); err != nil {
			st.dropLocked()
			return false
		}
	}
	for _, ev := range st.events {
		if ev.seq <= seq {
			continue
		}
		if err := sw.eventWithID(st.eventID(ev.seq), "message", ev.data); err != nil {
			st.dropLocked()
			return false
		}
	}
	return true
}

// detach forgets sw if it is still the stream's connection.
func (st *resumable) detach(sw *sseWriter) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.conn == sw {
		st.dropLocked()
	}
}

func (st *resumable) dropLocked() {
	st.conn = nil
	st.idle = time.Now()
	st.signalLocked()
}

// end marks the stream complete.
func (st *resumable) end() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.ended = true
	st.idle = time.Now()
	st.signalLocked()
}

func (st *resumable) signalLocked() {
	close(st.changed)
	st.changed = make(chan struct{})
}

// state reports whether sw is still the connection and whether the stream
// ended, and a channel closed at the next change.
func (st *resumable) state(sw *sseWriter) (current, ended bool, changed <-chan struct{}) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.conn == sw, st.ended, st.changed
}

// follow keeps sw on st until the stream ends (everything was written to
// sw), another connection takes over, the client leaves or the session
// ends, with keep-alive comments meanwhile.
func (st *resumable) follow(ctx context.Context, sess *Session, sw *sseWriter) {
	t := time.NewTicker(25 * time.Second)
	defer t.Stop()
	defer st.detach(sw)
	for {
		current, ended, changed := st.state(sw)
		if !current || ended {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		case <-sess.ctx.Done():
			return
		case <-t.C:
			if err := sw.comment("keep-alive"); err != nil {
				return
			}
		}
	}
}

// detachedContext is ctx (with its values) cancelled only when the session
// ends, not when the HTTP request does: a dropped SSE connection is not a
// cancellation.
func detachedContext(ctx context.Context, sess *Session) (context.Context, context.CancelFunc) {
	c, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(sess.ctx, cancel)
	return c, func() { stop(); cancel() }
}

// servePostStream answers a request on a resumable SSE stream.
func (sess *Session) servePostStream(w http.ResponseWriter, r *http.Request, frame []byte) {
	st := sess.replayLog().open(streamPost)
	sw := newSSE(w)
	w.WriteHeader(http.StatusOK)
	st.attach(sw, 0, true)
	ctx, cancel := detachedContext(r.Context(), sess)
	defer cancel()
	sess.HandleFrame(ctx, frame, st)
	st.end()
	st.detach(sw)
	sw.close()
}

// resumeStream serves GET /mcp with Last-Event-ID: the missed events of the
// stream it names, then the rest of that stream. A GET stream the window no
// longer holds continues as a fresh GET stream (nothing of it can be
// replayed); an unknown POST stream is an error, since its response is gone.
func (sess *Session) resumeStream(w http.ResponseWriter, r *http.Request, lastEventID string) {
	st, seq, kind, ok := sess.replayLog().lookup(lastEventID)
	if !ok {
		if kind == streamGet {
			sess.srv.log.Info("resuming an expired GET stream as a new one", "session", sess.ID, "lastEventId", lastEventID)
			sess.serveGetStream(w, r, nil, 0)
			return
		}
		writeJSONError(w, http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest,
			"Last-Event-ID "+strconv.Quote(lastEventID)+" names no stream genui still holds (streams are kept "+replayKeep.String()+")")
		return
	}
	if kind == streamGet {
		sess.serveGetStream(w, r, st, seq)
		return
	}
	sw := newSSE(w)
	w.WriteHeader(http.StatusOK)
	if !st.attach(sw, seq, false) {
		return
	}
	st.follow(r.Context(), sess, sw)
	sw.close()
}

// serveGetStream serves a standalone GET stream: a new one (st nil) or a
// resumed one, which first replays the events after seq.
func (sess *Session) serveGetStream(w http.ResponseWriter, r *http.Request, st *resumable, seq int64) {
	fresh := st == nil
	if fresh {
		st = sess.replayLog().open(streamGet)
	}
	// The stream is the session's output before its headers go out: a
	// client that has them holds a busy session, which is never evicted
	// for a new one. What is sent before attach is kept and replayed.
	sess.addStream(st)
	defer sess.removeStream(st)
	sw := newSSE(w)
	w.WriteHeader(http.StatusOK)
	if !st.attach(sw, seq, fresh) {
		return
	}
	defer sw.close()
	defer st.detach(sw)
	t := time.NewTicker(25 * time.Second)
	defer t.Stop()
	for {
		current, _, changed := st.state(sw)
		if !current {
			return
		}
		select {
		case <-changed:
		case <-r.Context().Done():
			return
		case <-sess.ctx.Done():
			return
		case <-t.C:
			if err := sw.comment("keep-alive"); err != nil {
				return
			}
		}
	}
}
