package engine

import (
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// The records the engine publishes to watchers (the TUI's Log tab, the
// API's events) go through Options.LogReplace as the log file's lines do:
// message, attributes, With attributes and group members.
func TestLogTeeReplaces(t *testing.T) {
	const secret = "tok-SECRET-55aa"
	hide := func(_ []string, a slog.Attr) slog.Attr {
		s := a.Value.String()
		if a.Value.Kind() == slog.KindAny {
			if err, ok := a.Value.Any().(error); ok {
				s = err.Error()
			}
		}
		if strings.Contains(s, secret) {
			return slog.String(a.Key, strings.ReplaceAll(s, secret, "<from ${env:T}>"))
		}
		return a
	}
	tee := newLogTee(slog.DiscardHandler, hide).WithAttrs([]slog.Attr{slog.String("upstream", "server --token "+secret)}).(*logTee)
	r := slog.NewRecord(time.Now(), slog.LevelInfo, "started "+secret, 0)
	r.AddAttrs(slog.Any("err", errors.New("exit: "+secret)), slog.Group("g", slog.String("x", secret)))
	lr := tee.record(r)
	all := lr.Message
	for k, v := range lr.Attrs {
		all += " " + k + "=" + strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(fmtAny(v), "\n", " "), "  ", " "))
	}
	if strings.Contains(all, secret) || strings.Count(all, "<from ${env:T}>") != 4 {
		t.Fatalf("published record: %s", all)
	}
}

func fmtAny(v any) string {
	if m, ok := v.(map[string]any); ok {
		var b strings.Builder
		for k, x := range m {
			b.WriteString(k + ":" + fmtAny(x) + " ")
		}
		return b.String()
	}
	s, _ := v.(string)
	return s
}
