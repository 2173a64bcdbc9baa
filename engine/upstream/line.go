package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
)

// maxLineBytes bounds one JSON-RPC line from a stdio or in-process upstream;
// New copies it into the Client. A longer line fails the connection.
var maxLineBytes = 64 << 20

// errLinkClosed is what calls and notifications get once the line link's
// read loop has ended or the link was closed.
var errLinkClosed = errors.New("upstream connection closed")

// lineTooLongError is the read loop's error for a line over the limit.
type lineTooLongError struct{ limit int }

func (e *lineTooLongError) Error() string {
	return fmt.Sprintf("upstream sent a JSON-RPC line longer than the %s limit", formatBytes(e.limit))
}

// formatBytes renders n as "64 MiB", "512 KiB" or "100 bytes".
func formatBytes(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// streamLongLines makes line links follow long lines as they are read
// (ResultArrayStream); benchmarks turn it off to compare.
var streamLongLines = true

// lineLink is genui's own transport for stdio and in-process upstreams:
// newline-delimited JSON-RPC on a reader/writer pair. Unlike mcp-go's stdio
// transport it never decodes params: notifications and server-to-client
// requests reach their handlers with the exact bytes the upstream sent.
type lineLink struct {
	r       *jsonrpc.FrameReader
	w       *jsonrpc.FrameWriter
	closers []io.Closer // closed by close, to unblock reads and writes
	maxLine int
	log     *slog.Logger

	// onNotify receives notifications on the read loop; it must not block.
	onNotify func(method string, params json.RawMessage)
	// onRequest answers a server-to-client request; it runs on its own
	// goroutine and returns the complete response frame.
	onRequest func(id json.RawMessage, method string, params json.RawMessage) []byte
	// onEnd is called once, from the read loop, with the reason it stopped
	// (io.EOF, a read error, *lineTooLongError), before pending calls fail.
	onEnd func(err error)
	// Asynchronous calls (callAsync): onAnswer hands an answer to its
	// waiter on the read loop (the Client keeps it behind notifications
	// read before it); onTimeout is told of each call the sweeper expired
	// (the Client tells the upstream); onAsyncEnd gets the calls still
	// waiting when the link ends, with the read loop's reason.
	onAnswer   func(w jsonrpc.Waiter, a jsonrpc.Answer, owned bool)
	onTimeout  func(id int64, method string)
	onAsyncEnd func(calls []pendingCall, err error)
	sweepEvery time.Duration
	// tracer watches every frame read and written (nil: nobody).
	tracer Tracer
	// stream follows each long line while it is read: a tools/list answer
	// is validated and its tools found as it arrives (not in passes over
	// 36 MB after its last byte), and handed to a ListTools call without
	// being joined into one slice (lineWatcher.End).
	stream *jsonrpc.ResultArrayStream
	feed   *toolsPage // the ListTools call a streaming answer's tools go to (read loop only)

	mu      sync.Mutex
	pending map[int64]pendingCall
	async   atomic.Int32 // asynchronous calls in pending
	// abandoned are the ids of recent calls that ended without an answer
	// (cancelled, timed out): a late answer to one of them is expected,
	// not a wrong id. genui's ids start at 1, so 0 is free.
	abandoned [64]int64
	abandonAt int
	ended     bool          // the read loop stopped or close was called (under mu)
	endErr    error         // why the read loop stopped, nil before
	done      chan struct{} // closed when the read loop ends or close is called
	doneOnce  sync.Once
	closeOnce sync.Once
	sweepOnce sync.Once
}

// pendingCall is a request waiting for its answer: a synchronous call
// (call) waits on ch, an asynchronous one (callAsync) is answered through
// w, on the read loop, and expired by the sweeper at deadline.
type pendingCall struct {
	id       int64
	method   string
	ch       chan *jsonrpc.Message // buffered, one answer
	w        jsonrpc.Waiter
	deadline int64 // unix ns
	// page is set for a ListTools call: a streamed answer's tools go there.
	page *toolsPage
}

// newLineLink builds a link reading frames from r and writing them to w.
// closers are closed by close (the pipe ends). Call start to run the read
// loop.
func newLineLink(r io.Reader, w io.Writer, closers []io.Closer, maxLine int, log *slog.Logger) *lineLink {
	fr := newFrameReader(r, maxLine)
	l := &lineLink{
		r:        fr,
		stream:   jsonrpc.NewResultArrayStream("tools"),
		w:        jsonrpc.NewFrameWriter(w),
		closers:  closers,
		maxLine:  maxLine,
		log:      log,
		onNotify: func(string, json.RawMessage) {},
		onEnd:    func(error) {},
		onAnswer: func(w jsonrpc.Waiter, a jsonrpc.Answer, _ bool) { w.Answered(a) },
		pending:  make(map[int64]pendingCall),
		done:     make(chan struct{}),
	}
	if streamLongLines {
		fr.Watch(lineWatcher{l})
		l.stream.SetOnFound(l.found)
	}
	return l
}

// lineWatcher follows the link's long lines as they are read (the
// FrameReader calls it on the read loop).
type lineWatcher struct{ l *lineLink }

// Reset starts a long line: its tools, if it turns out to hold some, go
// to the one ListTools call in flight that wants them as they come.
func (w lineWatcher) Reset() {
	l := w.l
	l.stream.Reset()
	l.feed = nil
	l.mu.Lock()
	for _, pc := range l.pending {
		if pc.page != nil && pc.page.each != nil {
			if l.feed != nil { // two: which one this answers is not known yet
				l.feed = nil
				break
			}
			l.feed = pc.page
		}
	}
	l.mu.Unlock()
	if l.feed != nil {
		l.feed.each(nil)
	}
}

func (w lineWatcher) Write(p []byte) { w.l.stream.Write(p) }

// found hands the tools the stream found to the ListTools call fed.
func (l *lineLink) found(batch []json.RawMessage) {
	if l.feed != nil {
		l.feed.each(batch)
	}
}

// End takes a tools/list answer the stream validated and split when it
// answers a ListTools call: the call gets the tools as they lie in the
// reader's blocks and the result with its tools array empty, and the 36 MB
// line is never joined. Anything else (another shape, an error answer,
// another caller, the traffic view watching frames) is read the ordinary
// way. (Unwatched, such an answer is not in genui's traffic record.)
func (w lineWatcher) End() bool {
	l := w.l
	l.feed = nil
	if watched(l.tracer) {
		return false // the traffic view shows the frame as it came
	}
	st, ok := l.stream.Finish()
	if !ok || !isNullOrEmpty(st.Top.Error) {
		return false
	}
	id, plain := jsonrpc.PlainInt(st.Top.ID)
	if !plain {
		return false
	}
	l.mu.Lock()
	pc, found := l.pending[id]
	if !found || pc.page == nil || pc.w != nil {
		l.mu.Unlock()
		return false
	}
	delete(l.pending, id)
	l.mu.Unlock()
	pc.page.tools, pc.page.split = st.Elems, true
	pc.ch <- &jsonrpc.Message{JSONRPC: "2.0", ID: json.RawMessage(st.Top.ID), Result: st.Rest} // buffered, one answer
	return true
}

// start runs the read loop in a goroutine.
func (l *lineLink) start() { go l.readLoop() }

func (l *lineLink) readLoop() {
	for {
		b, err := l.r.ReadFrame()
		if err != nil {
			err = lineError(err)
			l.mu.Lock()
			l.endErr = err
			l.mu.Unlock()
			l.onEnd(err)
			l.finish()
			return
		}
		if t := tracing(l.tracer); t != nil {
			t.Frame(false, b)
		}
		if l.async.Load() > 0 && l.answerAsync(b) {
			continue // answered from the read buffer: nothing copied
		}
		l.dispatch(l.r.Own(b)) // a 36 MB answer is not copied
	}
}

// finish marks the link done, failing every pending call.
func (l *lineLink) finish() {
	l.doneOnce.Do(func() { close(l.done) })
	l.failAsync()
}

// failAsync ends every asynchronous call still waiting (the link is done).
func (l *lineLink) failAsync() {
	l.mu.Lock()
	l.ended = true
	var calls []pendingCall
	for id, pc := range l.pending {
		if pc.w != nil {
			calls = append(calls, pc)
			delete(l.pending, id)
		}
	}
	l.async.Store(0)
	err := l.endErr
	l.mu.Unlock()
	if len(calls) == 0 {
		return
	}
	if l.onAsyncEnd != nil {
		l.onAsyncEnd(calls, err)
		return
	}
	for _, pc := range calls {
		pc.w.Answered(jsonrpc.Answer{Err: jsonrpc.Errorf(jsonrpc.CodeUpstreamUnavailable, "upstream connection closed while handling %s", pc.method)})
	}
}

// closedErr is the error for a call or write on a finished link: why the
// read loop stopped, or errLinkClosed.
func (l *lineLink) closedErr() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.endErr != nil {
		return errors.New(readEndReason(l.endErr))
	}
	return errLinkClosed
}

// readEndReason describes why a read loop stopped.
func readEndReason(err error) string {
	if errors.Is(err, io.EOF) {
		return "upstream closed its output"
	}
	return err.Error()
}

// newFrameReader reads upstream frames; a line over max ends the link
// without reading the rest of it.
func newFrameReader(r io.Reader, max int) *jsonrpc.FrameReader {
	fr := jsonrpc.NewFrameReader(r, max)
	fr.FailOnOversized()
	return fr
}

// lineError turns the frame reader's over-long line into *lineTooLongError.
func lineError(err error) error {
	var tooLarge *jsonrpc.FrameTooLargeError
	if errors.As(err, &tooLarge) {
		return &lineTooLongError{limit: tooLarge.Limit}
	}
	return err
}

// answerAsync answers an asynchronous call from its response frame without
// decoding or copying it: one pass (jsonrpc.ScanValid) makes sure it is
// JSON (a broken frame never reaches a host) and finds the id and the
// result or error. It reports
// false for anything else (which dispatch then handles).
func (l *lineLink) answerAsync(b []byte) bool {
	top, ok := jsonrpc.ScanValid(b)
	if !ok || top.Method != nil || top.Other || top.Dup || (top.Result == nil && top.Error == nil) {
		return false
	}
	id, ok := jsonrpc.PlainInt(top.ID)
	if !ok {
		return false
	}
	l.mu.Lock()
	pc, found := l.pending[id]
	if !found || pc.w == nil {
		l.mu.Unlock()
		return false
	}
	delete(l.pending, id)
	l.async.Add(-1)
	l.mu.Unlock()
	a := jsonrpc.Answer{Result: top.Result}
	if !isNullOrEmpty(top.Error) {
		a = jsonrpc.Answer{Error: top.Error}
	}
	l.onAnswer(pc.w, a, false)
	return true
}

// frame is an incoming JSON-RPC message with every payload kept raw.
type frame struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// decodeFrame decodes a line into a frame. The common frame (the five
// members, plain keys, each once, a plain method name) is validated and
// split in one pass without copying: a 36 MB tools/list answer decoded
// by encoding/json was a validation pass, a decoding pass and a copy of
// its result. Anything else goes to encoding/json.
func decodeFrame(line []byte) (frame, error) {
	if top, ok := jsonrpc.ScanValid(line); ok && !top.Other && !top.Dup {
		f := frame{ID: top.ID, Params: top.Params, Result: top.Result, Error: top.Error}
		if top.Method == nil {
			return f, nil
		}
		if m, plain := jsonrpc.PlainString(top.Method); plain {
			f.Method = string(m)
			return f, nil
		}
	}
	var f frame
	err := json.Unmarshal(line, &f)
	return f, err
}

// dispatch routes one line: notifications to onNotify (in order, on this
// goroutine), server requests to onRequest (each on its own goroutine),
// responses to the waiting call. Malformed lines are logged and skipped.
func (l *lineLink) dispatch(line []byte) {
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	f, err := decodeFrame(line)
	if err != nil {
		// When the line names a request in flight it is that request's
		// (broken) answer: fail the call now rather than at its timeout.
		if id := jsonrpc.RecoverID(line); id != nil {
			if method, ok := l.fail(parseKey(string(id)), func(method string) string {
				return fmt.Sprintf("upstream sent an unreadable reply to %s (%v)", method, err)
			}); ok {
				l.log.Warn("upstream sent an unreadable reply; the call fails", "method", method, "id", string(id), "err", err, "line", preview(line))
				return
			}
		}
		l.log.Warn("upstream sent a malformed line; skipped", "err", err, "line", preview(line))
		return
	}
	if isNullOrEmpty(f.Params) {
		f.Params = nil
	}
	hasID := !isNullOrEmpty(f.ID)
	switch {
	case f.Method != "" && !hasID:
		l.onNotify(f.Method, f.Params)
	case f.Method != "":
		go l.answer(f.ID, f.Method, f.Params)
	case hasID:
		f.Result = ownResult(line, f.Result)
		l.deliver(f)
	default:
		l.log.Warn("upstream sent a line that is no JSON-RPC message; skipped", "line", preview(line))
	}
}

// ownResult is the result a caller keeps: the slice of line itself when
// it is most of the line (a 36 MB tools/list answer is handed on
// uncopied, and the registry keeps its tools where they are), else a copy,
// so that a frame carrying much else besides its result (a huge params or
// id next to it) is not held for as long as the result is.
func ownResult(line []byte, res json.RawMessage) json.RawMessage {
	if len(line)-len(res) <= max(len(line)/8, 4<<10) {
		return res
	}
	return bytes.Clone(res)
}

// answer runs the request handler and writes its response frame.
func (l *lineLink) answer(id json.RawMessage, method string, params json.RawMessage) {
	resp := l.onRequest(id, method, params)
	if err := l.write(resp); err != nil {
		l.log.Debug("upstream server request: response not sent", "method", method, "err", err)
	}
}

// deliver hands a response to the call waiting for its id.
func (l *lineLink) deliver(f frame) {
	key := string(bytes.TrimSpace(f.ID))
	id, plain := jsonrpc.PlainInt([]byte(key))
	pc, ok := l.take(id, plain)
	if !ok {
		l.unmatched(key)
		return
	}
	if pc.w != nil { // line is owned by dispatch: nothing to copy
		a := jsonrpc.Answer{Result: f.Result}
		if !isNullOrEmpty(f.Error) {
			a = jsonrpc.Answer{Error: f.Error}
		}
		l.onAnswer(pc.w, a, true)
		return
	}
	m := &jsonrpc.Message{JSONRPC: "2.0", ID: f.ID, Result: f.Result}
	if !isNullOrEmpty(f.Error) {
		var e jsonrpc.Error
		if err := json.Unmarshal(f.Error, &e); err != nil {
			e = jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "upstream sent a malformed error: " + preview(f.Error)}
		}
		m.Error = &e
	}
	pc.ch <- m // buffered, one answer per id
}

// take removes and returns the call waiting for id (ok false when none or
// when the id is not a plain integer).
func (l *lineLink) take(id int64, plain bool) (pendingCall, bool) {
	if !plain {
		return pendingCall{}, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	pc, ok := l.pending[id]
	if ok {
		delete(l.pending, id)
		if pc.w != nil {
			l.async.Add(-1)
		}
	}
	return pc, ok
}

// unmatched handles a response whose id names no call in flight. genui's
// ids are integers: an answer that echoes one in another form ("7", 7.0)
// fails that call; a late answer to a call that gave up is dropped; any
// other id fails the call in flight when there is exactly one (it cannot
// be anyone else's answer, and its own is not coming), else it is logged.
func (l *lineLink) unmatched(key string) {
	if alt, ok := integerKey(key); ok {
		if _, ok := l.fail(parseKey(alt), func(method string) string {
			return fmt.Sprintf("upstream answered %s (request id %s) with id %s: JSON-RPC ids must come back exactly as sent", method, alt, key)
		}); ok {
			l.log.Warn("upstream answered with a mangled request id; the call fails", "id", key)
			return
		}
	}
	l.mu.Lock()
	k, plain := jsonrpc.PlainInt([]byte(key))
	late := plain && k != 0 && slices.Contains(l.abandoned[:], k)
	var only int64
	if len(l.pending) == 1 && !late {
		for k := range l.pending {
			only = k
		}
	}
	l.mu.Unlock()
	switch {
	case late:
		l.log.Debug("upstream answered a request genui gave up on; skipped", "id", key)
	case only != 0:
		if method, ok := l.fail(only, func(method string) string {
			return fmt.Sprintf("upstream answered with id %s, which matches no request; %s (id %d) was the only request in flight and its answer is not coming", key, method, only)
		}); ok {
			l.log.Warn("upstream response with an unknown id; the call in flight fails", "id", key, "method", method, "callId", only)
		}
	default:
		l.log.Warn("upstream response for an unknown request id; skipped", "id", key)
	}
}

// fail answers the call in flight with id key with an internal error whose
// message msg builds from its method; false when there is no such call.
func (l *lineLink) fail(key int64, msg func(method string) string) (string, bool) {
	pc, ok := l.take(key, key != 0)
	if !ok {
		return "", false
	}
	e := &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msg(pc.method)}
	if pc.w != nil {
		l.onAnswer(pc.w, jsonrpc.Answer{Err: e}, true)
		return pc.method, true
	}
	pc.ch <- &jsonrpc.Message{JSONRPC: "2.0", ID: json.RawMessage(strconv.FormatInt(key, 10)), Error: e}
	return pc.method, true
}

// parseKey is the int64 of a decimal id key (0 when it is none).
func parseKey(key string) int64 {
	n, _ := jsonrpc.PlainInt([]byte(key))
	return n
}

// integerKey returns the decimal form of an id that holds an integer in
// another spelling: a string ("7"), a float (7.0, 7e0); false otherwise.
func integerKey(id string) (string, bool) {
	s := id
	if len(s) >= 2 && s[0] == '"' {
		if err := json.Unmarshal([]byte(id), &s); err != nil {
			return "", false
		}
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return "", false
	}
	k := strconv.FormatInt(int64(f), 10)
	return k, k != id
}

// call sends request id and waits for its response, ctx, or the link's end.
// A JSON-RPC error response is a *jsonrpc.Message with Error set, not an
// error; errors mean the request got no answer.
func (l *lineLink) call(ctx context.Context, id int64, method string, params json.RawMessage) (*jsonrpc.Message, error) {
	b, err := requestFrame(strconv.FormatInt(id, 10), method, params)
	if err != nil {
		return nil, err
	}
	key := id
	ch := make(chan *jsonrpc.Message, 1)
	l.mu.Lock()
	l.pending[key] = pendingCall{id: id, method: method, ch: ch, page: toolsPageFrom(ctx)}
	l.mu.Unlock()
	answered := false
	defer func() {
		l.mu.Lock()
		if _, waiting := l.pending[key]; waiting && !answered {
			l.abandonLocked(key)
		}
		delete(l.pending, key)
		l.mu.Unlock()
	}()
	if err := l.write(b); err != nil {
		return nil, err
	}
	select {
	case m := <-ch:
		answered = true
		return m, nil
	case <-l.done:
		select { // an answer read just before the end still counts
		case m := <-ch:
			answered = true
			return m, nil
		default:
		}
		return nil, l.closedErr()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// abandonLocked remembers id as a call that ended without its answer.
func (l *lineLink) abandonLocked(id int64) {
	l.abandoned[l.abandonAt%len(l.abandoned)] = id
	l.abandonAt++
}

// callAsync sends request id and returns at once: w gets the answer on the
// read loop, or an error from the sweeper (deadline, unix ns, passed) or
// when the link ends. params must be valid JSON (the caller checked). It
// fails only when the request was not sent.
func (l *lineLink) callAsync(id int64, method string, params json.RawMessage, deadline int64, w jsonrpc.Waiter) error {
	l.mu.Lock()
	if l.ended {
		l.mu.Unlock()
		return l.closedErr()
	}
	l.pending[id] = pendingCall{id: id, method: method, w: w, deadline: deadline}
	l.async.Add(1)
	l.mu.Unlock()
	l.sweepOnce.Do(func() { go l.sweep() })
	if err := l.writeRequest(id, method, params); err != nil {
		if _, ok := l.take(id, true); ok {
			return fmt.Errorf("write to upstream: %w", err)
		}
		return nil // answered or failed already: w has been told
	}
	return nil
}

// cancelAsync gives up on asynchronous call id; false when it is not
// waiting any more (answered, expired, failed).
func (l *lineLink) cancelAsync(id int64) (pendingCall, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	pc, ok := l.pending[id]
	if !ok || pc.w == nil {
		return pendingCall{}, false
	}
	delete(l.pending, id)
	l.async.Add(-1)
	l.abandonLocked(id)
	return pc, true
}

// sweep expires asynchronous calls past their deadline: one goroutine per
// link instead of a timer per call.
func (l *lineLink) sweep() {
	every := l.sweepEvery
	if every <= 0 {
		every = time.Second
	}
	t := time.NewTicker(every)
	defer t.Stop()
	var expired []pendingCall
	for {
		select {
		case <-l.done:
			return
		case now := <-t.C:
			if l.async.Load() == 0 {
				continue
			}
			expired = expired[:0]
			l.mu.Lock()
			for id, pc := range l.pending {
				if pc.w != nil && pc.deadline <= now.UnixNano() {
					expired = append(expired, pc)
					delete(l.pending, id)
					l.async.Add(-1)
					l.abandonLocked(id)
				}
			}
			l.mu.Unlock()
			for _, pc := range expired {
				if l.onTimeout != nil {
					l.onTimeout(pc.id, pc.method)
				}
				pc.w.Answered(jsonrpc.Answer{Err: context.DeadlineExceeded})
			}
		}
	}
}

// writeRequest writes a request frame without building it first: the
// params go out as given (compacted only when they hold a newline).
func (l *lineLink) writeRequest(id int64, method string, params json.RawMessage) error {
	select {
	case <-l.done:
		return l.closedErr()
	default:
	}
	if bytes.IndexByte(params, '\n') >= 0 {
		var buf bytes.Buffer
		if err := json.Compact(&buf, params); err != nil {
			return jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "invalid params for %s: not valid JSON", method)
		}
		params = buf.Bytes()
	}
	var idb [48]byte
	q, err := quoteMethod(method)
	if err != nil {
		return err
	}
	head := strconv.AppendInt(append(idb[:0], `{"jsonrpc":"2.0","id":`...), id, 10)
	if t := tracing(l.tracer); t != nil {
		// Before the write: the answer may be read before it returns.
		frame := append(append(append([]byte(nil), head...), methodKey...), q...)
		if !isNullOrEmpty(params) {
			frame = append(append(frame, paramsKey...), params...)
		}
		t.Frame(true, append(frame, closeBrace...))
	}
	if isNullOrEmpty(params) {
		return l.w.WriteParts(head, methodKey, q, closeBrace)
	}
	return l.w.WriteParts(head, methodKey, q, paramsKey, params, closeBrace)
}

var (
	methodKey  = []byte(`,"method":`)
	paramsKey  = []byte(`,"params":`)
	closeBrace = []byte(`}`)
)

// quoted caches methods as JSON strings (a proxy sees few methods);
// lastQuoted is the newest one, checked first without a lock.
var (
	quoted struct {
		sync.Mutex
		m map[string][]byte
	}
	lastQuoted atomic.Pointer[quotedMethod]
)

type quotedMethod struct {
	method string
	q      []byte
}

// quoteMethod is method as a JSON string.
func quoteMethod(method string) ([]byte, error) {
	if l := lastQuoted.Load(); l != nil && l.method == method {
		return l.q, nil
	}
	defer func() {
		quoted.Lock()
		if q, ok := quoted.m[method]; ok {
			lastQuoted.Store(&quotedMethod{method, q})
		}
		quoted.Unlock()
	}()
	quoted.Lock()
	q, ok := quoted.m[method]
	quoted.Unlock()
	if ok {
		return q, nil
	}
	q, err := json.Marshal(method)
	if err != nil {
		return nil, err
	}
	quoted.Lock()
	if quoted.m == nil || len(quoted.m) >= 256 {
		quoted.m = map[string][]byte{}
	}
	quoted.m[method] = q
	quoted.Unlock()
	return q, nil
}

// notify sends a notification (params checked by the caller).
func (l *lineLink) notify(_ context.Context, method string, params json.RawMessage) error {
	b, err := requestFrame("", method, params)
	if err != nil {
		return err
	}
	return l.write(b)
}

// write sends one frame plus newline. Writes are serialized so frames never
// interleave. A write blocked on a peer that stops reading is released by
// close; callers bound their wait with a context.
func (l *lineLink) write(b []byte) error {
	select {
	case <-l.done:
		return l.closedErr()
	default:
	}
	if t := tracing(l.tracer); t != nil {
		t.Frame(true, b) // before the write: the answer may be read before it returns
	}
	if err := l.w.WriteFrame(b); err != nil {
		return fmt.Errorf("write to upstream: %w", err)
	}
	return nil
}

// close ends the link: pending calls fail, the pipe ends are closed (which
// stops the read loop and any blocked write).
func (l *lineLink) close() error {
	l.finish()
	var first error
	l.closeOnce.Do(func() {
		for _, c := range l.closers {
			if err := c.Close(); err != nil && first == nil {
				first = err
			}
		}
	})
	return first
}

// requestFrame assembles a request (id non-empty) or notification frame on
// one line without re-encoding params: they go out as given, compacted only
// if they span several lines. Invalid params give a *jsonrpc.Error, so the
// caller refuses the request without blaming the connection.
func requestFrame(id, method string, params json.RawMessage) ([]byte, error) {
	params = bytes.TrimSpace(params)
	if isNullOrEmpty(params) {
		params = nil
	} else {
		if !json.Valid(params) {
			return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "invalid params for %s: not valid JSON", method)
		}
		if bytes.ContainsAny(params, "\r\n") {
			var buf bytes.Buffer
			_ = json.Compact(&buf, params) // valid, so it cannot fail
			params = buf.Bytes()
		}
	}
	m, err := json.Marshal(method)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(params)+len(method)+64)
	b = append(b, `{"jsonrpc":"2.0"`...)
	if id != "" {
		b = append(b, `,"id":`...)
		b = append(b, id...)
	}
	b = append(b, `,"method":`...)
	b = append(b, m...)
	if params != nil {
		b = append(b, `,"params":`...)
		b = append(b, params...)
	}
	return append(b, '}'), nil
}

// isNullOrEmpty reports whether a raw value is absent or JSON null.
func isNullOrEmpty(b json.RawMessage) bool {
	b = bytes.TrimSpace(b)
	return len(b) == 0 || bytes.Equal(b, []byte("null"))
}

// preview shortens b for a log line.
func preview(b []byte) string {
	const max = 200
	if len(b) <= max {
		return string(b)
	}
	return string(b[:max]) + "..."
}
