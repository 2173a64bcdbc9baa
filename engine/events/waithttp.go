package events

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"time"
)

// Bounds of the /wait long poll.
const (
	DefaultWaitTimeout = 30 * time.Second
	MaxWaitTimeout     = 120 * time.Second
)

// ParseWaitTimeout reads the timeout query parameter of GET /wait: a
// non-negative decimal number of seconds ("30", "0.05"); "" means
// DefaultWaitTimeout and values above MaxWaitTimeout are capped to it.
// Signs, exponents, hex, Inf/NaN and spaces are rejected.
func ParseWaitTimeout(s string) (time.Duration, error) {
	if s == "" {
		return DefaultWaitTimeout, nil
	}
	if !isPlainDecimal(s) {
		return 0, fmt.Errorf("bad timeout %q: want a non-negative number of seconds such as 30 or 0.5 (max %d)",
			s, int(MaxWaitTimeout/time.Second))
	}
	secs, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) { // out of range means huge: capped below
		return 0, fmt.Errorf("bad timeout %q: %w", s, err)
	}
	if math.IsInf(secs, 1) || secs >= MaxWaitTimeout.Seconds() {
		return MaxWaitTimeout, nil
	}
	return time.Duration(secs * float64(time.Second)), nil
}

// isPlainDecimal reports whether s is digits with an optional fraction
// ("12", "0.5"), nothing else.
func isPlainDecimal(s string) bool {
	digits, dot := 0, false
	for i, c := range s {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot && digits > 0 && i < len(s)-1:
			dot = true
		default:
			return false
		}
	}
	return digits > 0
}

// WaitHandler serves GET /wait?timeout=N (seconds, see ParseWaitTimeout):
// 200 with a JSON array of QueuedEvent when events are queued (all of them,
// drained atomically), 204 when the timeout passes first, 400 with
// {"error": "..."} for a bad timeout, 405 for other methods (HEAD too: it
// would drain events nobody reads). A client that disconnects ends the wait
// without draining; a batch that could not be written goes back on the queue.
//
// log (nil: discard) hears about batches that could not be delivered.
func WaitHandler(q *Queue, log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			w.Header().Set("Allow", http.MethodGet)
			writeJSONError(w, http.StatusMethodNotAllowed, "method "+r.Method+" not allowed: use GET /wait?timeout=SECONDS")
			return
		}
		timeout, err := ParseWaitTimeout(r.URL.Query().Get("timeout"))
		if err != nil {
			writeJSONError(w, http.StatusBadRequest, err.Error())
			return
		}
		ctx := r.Context()
		evs := q.Wait(ctx, timeout)
		if len(evs) == 0 {
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		if ctx.Err() != nil { // the client left while we drained: keep the events
			q.unread(evs)
			return
		}
		body, err := json.Marshal(evs)
		if err != nil { // cannot happen: payloads are valid JSON by construction
			q.unread(evs)
			writeJSONError(w, http.StatusInternalServerError, "encoding events: "+err.Error())
			return
		}
		body = append(body, '\n')
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Cache-Control", "no-store")
		h.Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusOK)
		_, err = w.Write(body)
		if err == nil {
			// With Content-Length set, a successful flush means the whole
			// response reached the connection.
			err = http.NewResponseController(w).Flush()
		}
		if err != nil && !errors.Is(err, http.ErrNotSupported) {
			log.Warn("/wait response not delivered; events requeued", "events", len(evs), "err", err)
			q.unread(evs)
			return
		}
		q.noteDrained(evs)
	})
}

// writeJSONError writes {"error": msg} with the given status.
func writeJSONError(w http.ResponseWriter, status int, msg string) {
	body, _ := json.Marshal(map[string]string{"error": msg})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}
