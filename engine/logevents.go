package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

// Watchers see genui's log as EventLog events: the engine wraps the logger
// it is given in a handler that passes every record on unchanged and, while
// someone subscribes, also publishes it (the upstream's stderr arrives as
// component "upstream" lines). The TUI's Log tab shows them, in-process and
// attached alike, so nothing needs to be written to the terminal.

// Logger is the engine's logger: the one in Options, also publishing its
// records to watchers. Front ends that share the engine's log (the MCP host,
// the side server) should log through it so their lines reach the TUI.
func (e *Engine) Logger() *slog.Logger { return e.opts.Logger }

// logTee is the slog.Handler behind Logger.
type logTee struct {
	next    slog.Handler
	replace func(groups []string, a slog.Attr) slog.Attr // nil: as they are
	sink    *atomic.Pointer[eventHub]
	attrs   []slog.Attr // from WithAttrs, group-qualified
	groups  []string
}

func newLogTee(next slog.Handler, replace func([]string, slog.Attr) slog.Attr) *logTee {
	return &logTee{next: next, replace: replace, sink: new(atomic.Pointer[eventHub])}
}

// publishes reports whether a record of level goes to watchers: while
// someone subscribes, at info and above or whatever the log file gets.
func (t *logTee) publishes(ctx context.Context, level slog.Level) bool {
	h := t.sink.Load()
	if h == nil || !h.streaming() {
		return false
	}
	return level >= slog.LevelInfo || t.next.Enabled(ctx, level)
}

func (t *logTee) Enabled(ctx context.Context, level slog.Level) bool {
	return t.next.Enabled(ctx, level) || t.publishes(ctx, level)
}

func (t *logTee) Handle(ctx context.Context, r slog.Record) error {
	var err error
	if t.next.Enabled(ctx, r.Level) {
		err = t.next.Handle(ctx, r)
	}
	if t.publishes(ctx, r.Level) {
		t.sink.Load().publishLog(t.record(r))
	}
	return err
}

func (t *logTee) WithAttrs(as []slog.Attr) slog.Handler {
	c := *t
	c.next = t.next.WithAttrs(as)
	c.attrs = append(append([]slog.Attr{}, t.attrs...), qualify(t.groups, as)...)
	return &c
}

func (t *logTee) WithGroup(name string) slog.Handler {
	if name == "" {
		return t
	}
	c := *t
	c.next = t.next.WithGroup(name)
	c.groups = append(append([]string{}, t.groups...), name)
	return &c
}

// qualify prefixes attribute keys with the open groups ("g.key").
func qualify(groups []string, as []slog.Attr) []slog.Attr {
	if len(groups) == 0 {
		return as
	}
	prefix := ""
	for _, g := range groups {
		prefix += g + "."
	}
	out := make([]slog.Attr, len(as))
	for i, a := range as {
		out[i] = slog.Attr{Key: prefix + a.Key, Value: a.Value}
	}
	return out
}

// maxLogAttr bounds one attribute's text in a published record.
const maxLogAttr = 4 << 10

// record turns a slog record into a LogRecord whose attributes always
// encode as JSON (errors and other values become strings).
func (t *logTee) record(r slog.Record) *contract.LogRecord {
	lr := &contract.LogRecord{Level: r.Level.String(), Message: r.Message}
	if t.replace != nil {
		lr.Message = t.replace(nil, slog.String(slog.MessageKey, r.Message)).Value.String()
	}
	add := func(a slog.Attr) {
		a = t.replaced(a)
		if a.Key == "component" {
			lr.Component = a.Value.Resolve().String()
			return
		}
		if lr.Attrs == nil {
			lr.Attrs = map[string]any{}
		}
		lr.Attrs[a.Key] = jsonSafe(a.Value.Resolve())
	}
	for _, a := range t.attrs {
		add(a)
	}
	as := make([]slog.Attr, 0, r.NumAttrs())
	r.Attrs(func(a slog.Attr) bool { as = append(as, a); return true })
	for _, a := range qualify(t.groups, as) {
		add(a)
	}
	return lr
}

// replaced is a with t.replace applied (to a group's members one by one).
func (t *logTee) replaced(a slog.Attr) slog.Attr {
	if t.replace == nil {
		return a
	}
	a.Value = a.Value.Resolve()
	if a.Value.Kind() != slog.KindGroup {
		return t.replace(nil, a)
	}
	members := a.Value.Group()
	out := make([]slog.Attr, len(members))
	for i, m := range members {
		out[i] = t.replaced(m)
	}
	return slog.Attr{Key: a.Key, Value: slog.GroupValue(out...)}
}

func jsonSafe(v slog.Value) any {
	switch v.Kind() {
	case slog.KindString:
		return clipText(v.String())
	case slog.KindInt64:
		return v.Int64()
	case slog.KindUint64:
		return v.Uint64()
	case slog.KindFloat64:
		f := v.Float64()
		if b, err := json.Marshal(f); err != nil || len(b) == 0 {
			return fmt.Sprint(f)
		}
		return f
	case slog.KindBool:
		return v.Bool()
	case slog.KindDuration:
		return v.Duration().String()
	case slog.KindTime:
		return v.Time().Format(time.RFC3339Nano)
	case slog.KindGroup:
		m := map[string]any{}
		for _, a := range v.Group() {
			m[a.Key] = jsonSafe(a.Value.Resolve())
		}
		return m
	}
	if err, ok := v.Any().(error); ok {
		return clipText(err.Error())
	}
	return clipText(fmt.Sprint(v.Any()))
}

func clipText(s string) string {
	if len(s) > maxLogAttr {
		return s[:maxLogAttr] + "…"
	}
	return s
}

// publishLog hands a log record to watchers. It does not go through
// publish: listeners (the MCP host) may log, and a log line must never
// cause another.
func (h *eventHub) publishLog(lr *contract.LogRecord) {
	h.seqMu.Lock()
	h.seq++
	ev := contract.Event{Seq: h.seq, Time: time.Now(), Kind: contract.EventLog, Detail: lr}
	h.broker.Publish(string(contract.EventLog), ev)
	h.seqMu.Unlock()
}
