package history

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/genui-dev/genui/engine/contract"
)

func open(t testing.TB, o Options) *Store {
	t.Helper()
	s, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func call(tool, args, result string) *contract.CallRecord {
	return &contract.CallRecord{Tool: tool, Source: contract.SourceMCP, Session: "s1", Start: time.Now(), Duration: 3 * time.Millisecond,
		Generation: 1, Arguments: json.RawMessage(args), ArgumentsSize: len(args), Result: json.RawMessage(result), ResultSize: len(result)}
}

// record records synchronously (the writer has written it when it returns).
func record(t *testing.T, s *Store, rec *contract.CallRecord) int64 {
	t.Helper()
	id := s.RecordWait(context.Background(), rec)
	if id == 0 {
		t.Fatal("not recorded")
	}
	return id
}

func files(t *testing.T, dir string) string {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "calls-*.jsonl"))
	var all strings.Builder
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	return all.String()
}

func TestRecordListGetAndRestart(t *testing.T) {
	dir := t.TempDir()
	s := open(t, Options{Dir: dir})
	a := record(t, s, call("get_forecast", `{"location":"Berlin"}`, `{"content":[{"type":"text","text":"sunny\nwarm"}]}`))
	b := record(t, s, call("get_forecast", `{"location":"Oslo"}`, `{"content":[{"type":"text","text":"rain"}],"isError":true}`))
	fail := call("set_units", `{"units":"metric"}`, "")
	fail.Error, fail.Source = "upstream restarted while handling tools/call", contract.SourceTUI
	c := record(t, s, fail)
	if a != 1 || b != 2 || c != 3 {
		t.Fatalf("ids %d %d %d", a, b, c)
	}
	e, ok := s.Get(a)
	if !ok || e.Tool != "get_forecast" || string(e.Arguments) != `{"location":"Berlin"}` || e.Session != "s1" ||
		e.Generation != 1 || e.Duration != 3*time.Millisecond || e.Summary != "sunny warm" || e.IsError {
		t.Fatalf("entry %+v", e)
	}
	if e, _ := s.Get(b); !e.IsError {
		t.Fatalf("isError not read from the result: %+v", e)
	}
	page, n := s.List(contract.HistoryQuery{})
	if n != 3 || len(page) != 3 || page[0].ID != 3 || page[2].ID != 1 || page[0].Result != nil || !page[0].Listed {
		t.Fatalf("list %d %+v", n, page)
	}
	if page, n := s.List(contract.HistoryQuery{Errors: true}); n != 2 || page[0].ID != 3 || page[1].ID != 2 {
		t.Fatalf("errors: %+v", page)
	}
	if page, _ := s.List(contract.HistoryQuery{Tool: "get_forecast", Before: 2}); len(page) != 1 || page[0].ID != 1 {
		t.Fatalf("tool and before: %+v", page)
	}
	if page, _ := s.List(contract.HistoryQuery{Source: contract.SourceTUI}); len(page) != 1 || page[0].ID != 3 {
		t.Fatalf("source: %+v", page)
	}
	s.Close()

	// A genui killed mid-write leaves a torn line: the next start skips it.
	names, _ := filepath.Glob(filepath.Join(dir, "calls-*.jsonl"))
	f, err := os.OpenFile(names[len(names)-1], os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(`{"id":4,"tool":"tor`)
	f.Close()

	s2 := open(t, Options{Dir: dir})
	if st := s2.Stats(); st.Entries != 3 || st.LastID != 3 || st.Dir != dir {
		t.Fatalf("after restart: %+v", st)
	}
	if e, ok := s2.Get(1); !ok || string(e.Arguments) != `{"location":"Berlin"}` {
		t.Fatalf("entry 1 after restart: %+v", e)
	}
	if id := record(t, s2, call("get_forecast", `{}`, `{}`)); id != 4 {
		t.Fatalf("ids do not continue across restarts: %d", id)
	}
}

// The history keeps at most its limits; the oldest entries go first and
// their files with them.
func TestBounded(t *testing.T) {
	dir := t.TempDir()
	s := open(t, Options{Dir: dir, MaxEntries: 8})
	for i := 0; i < 30; i++ {
		record(t, s, call("t", fmt.Sprintf(`{"i":%d}`, i), `{"content":[]}`))
	}
	st := s.Stats()
	if st.Entries > 8 || st.Entries < 6 || st.LastID != 30 {
		t.Fatalf("stats %+v", st)
	}
	if _, ok := s.Get(1); ok {
		t.Fatal("the oldest entry is still there")
	}
	page, _ := s.List(contract.HistoryQuery{})
	if page[len(page)-1].ID != int64(30-st.Entries+1) {
		t.Fatalf("kept %d entries, oldest %d", st.Entries, page[len(page)-1].ID)
	}
	if names, _ := filepath.Glob(filepath.Join(dir, "calls-*.jsonl")); len(names) > segments+1 {
		t.Fatalf("%d segment files", len(names))
	}
	if strings.Contains(files(t, dir), `{"i":0}`) {
		t.Fatal("the oldest call is still on disk")
	}
	s.Close()
	s2 := open(t, Options{Dir: dir, MaxEntries: 8})
	if st2 := s2.Stats(); st2.Entries != st.Entries || st2.LastID != 30 {
		t.Fatalf("after restart %+v, before %+v", st2, st)
	}

	// Bytes bound the same way.
	dir = t.TempDir()
	s3 := open(t, Options{Dir: dir, MaxBytes: 8 << 10})
	big := `{"content":[{"type":"text","text":"` + strings.Repeat("x", 900) + `"}]}`
	for i := 0; i < 40; i++ {
		record(t, s3, call("t", `{}`, big))
	}
	if st := s3.Stats(); st.Bytes > 8<<10 || st.Entries < 4 {
		t.Fatalf("bytes bound: %+v", st)
	}
}

// Excluded tools' arguments and results never reach the files; long
// values are cut with their size.
func TestExcludedAndTruncated(t *testing.T) {
	dir := t.TempDir()
	s := open(t, Options{Dir: dir, ExcludeArguments: []string{"login"}, ExcludeResults: []string{"get_*"}, MaxValueBytes: 300})
	if p := s.Policy("login"); !p.Record || p.Arguments != 0 || p.Result != 300 || !p.ExcludeArguments {
		t.Fatalf("policy %+v", p)
	}
	id := record(t, s, call("login", `{"password":"hunter2"}`, `{"content":[{"type":"text","text":"ok"}]}`))
	id2 := record(t, s, call("get_token", `{"user":"ann"}`, `{"content":[{"type":"text","text":"tok-SECRET"}]}`))
	long := `{"content":[{"type":"text","text":"` + strings.Repeat("é", 400) + `"}]}`
	rec := call("echo", `{}`, long[:300])
	rec.ResultSize, rec.IsError = len(long), true
	id3 := record(t, s, rec)
	all := files(t, dir)
	if strings.Contains(all, "hunter2") || strings.Contains(all, "tok-SECRET") {
		t.Fatalf("excluded values written:\n%s", all)
	}
	e, _ := s.Get(id)
	if e.Arguments != nil || e.ArgumentsOmitted != contract.OmittedExcluded || e.ArgumentsSize != 22 || e.Replayable() == "" ||
		e.Summary != "ok" {
		t.Fatalf("login: %+v", e)
	}
	e, _ = s.Get(id2)
	if e.Result != nil || e.ResultOmitted != contract.OmittedExcluded || string(e.Arguments) != `{"user":"ann"}` {
		t.Fatalf("get_token: %+v", e)
	}
	e, _ = s.Get(id3)
	if e.Result != nil || e.ResultOmitted != contract.OmittedTruncated || e.ResultSize != len(long) || !e.IsError ||
		!strings.HasPrefix(e.ResultPrefix, `{"content"`) || len(e.ResultPrefix) > 300 {
		t.Fatalf("truncated: %+v", e)
	}
}

// Record never waits for the writer: when it falls behind, calls are
// dropped and counted.
func TestRecordNeverBlocks(t *testing.T) {
	release := make(chan struct{})
	s := open(t, Options{QueueSize: 2, OnWrite: func(int64) { <-release }})
	// The writer is held until the records are done: a Record that waited
	// for it would never return (the bound only stops that hang).
	recorded := make(chan struct{})
	go func() {
		for i := 0; i < 50; i++ {
			s.Record(call("t", `{}`, `{}`))
		}
		close(recorded)
	}()
	select {
	case <-recorded:
	case <-time.After(time.Minute):
		close(release)
		t.Fatal("Record waits for the writer")
	}
	close(release)
	if st := s.Stats(); st.Dropped < 40 {
		t.Fatalf("dropped %d, want at least 40", st.Dropped)
	}
}

// Two genuis on one folder: the second keeps its calls in memory.
func TestSharedFolder(t *testing.T) {
	dir := t.TempDir()
	a := open(t, Options{Dir: dir})
	b := open(t, Options{Dir: dir})
	if a.Stats().Shared != "" || b.Stats().Shared == "" || b.Stats().Dir != "" {
		t.Fatalf("a %+v b %+v", a.Stats(), b.Stats())
	}
	record(t, b, call("t", `{"only":"memory"}`, `{}`))
	if strings.Contains(files(t, dir), "memory") {
		t.Fatal("the second genui wrote the shared history")
	}
	if e, ok := b.Get(1); !ok || string(e.Arguments) != `{"only":"memory"}` {
		t.Fatalf("memory entry: %+v", e)
	}
}

func TestStringsAreJSON(t *testing.T) {
	for _, s := range []string{"plain", "quote\" back\\ nl\n tab\t ctl\x01", "bad \xff utf8", "ünïcödé ✓"} {
		var back string
		if err := json.Unmarshal(appendString(nil, s), &back); err != nil || back != strings.ToValidUTF8(s, "\ufffd") {
			t.Errorf("%q -> %q (%v)", s, back, err)
		}
	}
}

// IDs read from disk are bounded and must increase: a damaged or planted
// entry (an ID of 2^63-1, one going backwards) is refused with a log
// line, the rest loads, and new IDs stay positive across restarts.
func TestIDsFromDiskBounded(t *testing.T) {
	dir := t.TempDir()
	lines := []string{
		`{"id":1,"tool":"a","source":"mcp"}`,
		`{"id":9223372036854775807,"tool":"planted","source":"mcp"}`,
		`{"id":2,"tool":"b","source":"mcp"}`,
		`{"id":2,"tool":"again","source":"mcp"}`,
		`{"id":1000000000000,"tool":"too-far","source":"mcp"}`,
		`{"id":3,"tool":"c","source":"mcp"}`,
	}
	if err := os.WriteFile(filepath.Join(dir, "calls-000000000001.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A segment named past the bound is not read either.
	if err := os.WriteFile(filepath.Join(dir, "calls-9223372036854775807.jsonl"), []byte(`{"id":9223372036854775807,"tool":"x"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var logged strings.Builder
	s := open(t, Options{Dir: dir, Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	if st := s.Stats(); st.Entries != 3 || st.LastID != 3 {
		t.Fatalf("loaded %+v", st)
	}
	if !strings.Contains(logged.String(), "id=9223372036854775807") || !strings.Contains(logged.String(), "id=1000000000000") ||
		!strings.Contains(logged.String(), "calls-9223372036854775807.jsonl") {
		t.Fatalf("refusals not logged:\n%s", logged.String())
	}
	id := record(t, s, call("new", `{"n":1}`, `{}`))
	if id != 4 {
		t.Fatalf("new id %d, want 4", id)
	}
	s.Close()
	s2 := open(t, Options{Dir: dir})
	if e, ok := s2.Get(id); !ok || e.Tool != "new" {
		t.Fatalf("call %d gone after a restart: %+v %v", id, e, ok)
	}
	if id2 := record(t, s2, call("newer", `{}`, `{}`)); id2 != 5 {
		t.Fatalf("next id after restart %d, want 5", id2)
	}
}

// The history is the user's alone: its folder 0700 and its files 0600,
// those of an older genui too.
func TestPrivateFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "history")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "calls-000000000001.jsonl")
	if err := os.WriteFile(old, []byte(`{"id":1,"tool":"a","source":"mcp"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(old, 0o644); err != nil { // past the umask
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lock"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "lock"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := open(t, Options{Dir: dir, MaxEntries: 4})
	if fi, err := os.Stat(old); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("an older segment kept its mode: %v %v", fi.Mode(), err)
	}
	for i := 0; i < 6; i++ { // new segments too
		record(t, s, call("t", `{}`, `{}`))
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(names) < 2 {
		t.Fatalf("files %v", names)
	}
	for _, n := range append(names, dir) {
		fi, err := os.Stat(n)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s is %v", n, fi.Mode().Perm())
		}
	}
}

// history.redact hides secret-looking keys at any depth, and the paths it
// names, before an entry reaches the file.
func TestRedact(t *testing.T) {
	dir := t.TempDir()
	defaults := []string{"*token", "*secret*", "*password*", "*apikey*", "authorization"}
	s := open(t, Options{Dir: dir, MaxValueBytes: 400,
		Redact: append(defaults, "arguments.account.pin", "result.structuredContent.session.*")})
	args := `{"user":"ann","Password":"hunter2-ARG","nested":{"list":[{"access_token":"tok-ARG"},{"X-Api-Key":"key-ARG"}]},` +
		`"headers":{"Authorization":"Bearer bearer-ARG"},"account":{"pin":"pin-ARG","id":7},"max_tokens":100,"text":"<b>&"}`
	result := `{"content":[{"type":"text","text":"ok"}],"structuredContent":{"session":{"cookie":"cookie-RES","n":1},"clientSecret":"secret-RES"}}`
	id := record(t, s, call("login", args, result))
	// A truncated value whose start holds a secret key keeps no start.
	long := `{"refresh_token":"tok-LONG","pad":"` + strings.Repeat("x", 500) + `"}`
	rec := call("refresh", long[:400], `{}`)
	rec.ArgumentsSize = len(long)
	id2 := record(t, s, rec)
	id3 := record(t, s, call("plain", `{"max_tokens":5,"tokens":["a"]}`, `{"content":[]}`))

	all := files(t, dir)
	for _, secret := range []string{"hunter2-ARG", "tok-ARG", "key-ARG", "bearer-ARG", "pin-ARG", "cookie-RES", "secret-RES", "tok-LONG"} {
		if strings.Contains(all, secret) {
			t.Errorf("%s written:\n%s", secret, all)
		}
	}
	e, _ := s.Get(id)
	var a map[string]any
	if err := json.Unmarshal(e.Arguments, &a); err != nil {
		t.Fatal(err)
	}
	if a["user"] != "ann" || a["Password"] != RedactedValue || a["max_tokens"] != float64(100) || a["text"] != "<b>&" ||
		a["account"].(map[string]any)["id"] != float64(7) || a["account"].(map[string]any)["pin"] != RedactedValue ||
		!e.ArgumentsRedacted || !e.ResultRedacted || e.Replayable() == "" || e.Summary != "ok" {
		t.Fatalf("redacted entry: %+v\n%s", e, e.Arguments)
	}
	if !strings.Contains(string(e.Result), `"n":"[redacted]"`) || !strings.Contains(string(e.Result), `"clientSecret":"[redacted]"`) {
		t.Fatalf("result: %s", e.Result)
	}
	if e, _ := s.Get(id2); e.ArgumentsPrefix != "" || !e.ArgumentsRedacted || e.ArgumentsOmitted != contract.OmittedTruncated {
		t.Fatalf("truncated: %+v", e)
	}
	if e, _ := s.Get(id3); string(e.Arguments) != `{"max_tokens":5,"tokens":["a"]}` || e.ArgumentsRedacted || e.Replayable() != "" {
		t.Fatalf("nothing to redact, yet: %+v", e)
	}
	// An escaped key, spaces, and a secret nested deeper than the walk
	// goes (the whole value goes then).
	r, _ := newRedactor(defaults)
	if out, ok := r.redact("arguments", []byte(`{ "pass\u0077ord" : "esc-ARG" , "list" : [ 1 , {"ApiKey": {"x": [1]}} ] }`)); !ok ||
		string(out) != `{ "pass\u0077ord" : "[redacted]" , "list" : [ 1 , {"ApiKey": "[redacted]"} ] }` {
		t.Fatalf("escaped key: %s", out)
	}
	deep := strings.Repeat(`{"a":`, 400) + `{"token":"deep-ARG"}` + strings.Repeat("}", 400)
	if out, ok := r.redact("result", []byte(deep)); !ok || strings.Contains(string(out), "deep-ARG") {
		t.Fatalf("deep: %.200s", out)
	}
	if _, err := Open(Options{Redact: []string{"headers.x"}}); err == nil {
		t.Fatal("a path not from arguments. or result. accepted")
	}
}

// scribbler is a RecordOwner that reuses the record's memory as soon as it
// gets it back, as the MCP host's pool does.
type scribbler struct {
	buf  []byte
	back chan struct{}
}

func (o *scribbler) Recorded() {
	for i := range o.buf {
		o.buf[i] = 'z'
	}
	o.back <- struct{}{}
}

// A record's owner gets its memory back once the writer has encoded it,
// or at once when the call is dropped or the history is off; the entry
// keeps nothing of that memory (tool name included).
func TestOwnerGetsTheRecordBack(t *testing.T) {
	owned := func(back chan struct{}) *contract.CallRecord {
		buf := []byte(`my_tool{"a":1}{"content":[{"type":"text","text":"ok"}]}`)
		rec := call(string(buf[:7]), string(buf[7:14]), string(buf[14:]))
		rec.Tool = unsafeString(buf[:7])
		rec.Arguments, rec.Result = buf[7:14], buf[14:]
		rec.Owner = &scribbler{buf: buf, back: back}
		return rec
	}
	wait := func(back chan struct{}, what string) {
		t.Helper()
		select {
		case <-back:
		case <-time.After(10 * time.Second):
			t.Fatalf("the owner did not get the record back (%s)", what)
		}
	}
	s := open(t, Options{})
	back := make(chan struct{}, 1)
	id := record(t, s, owned(back))
	wait(back, "written")
	e, ok := s.Get(id)
	if !ok || e.Tool != "my_tool" || string(e.Arguments) != `{"a":1}` || !strings.Contains(string(e.Result), `"ok"`) {
		t.Fatalf("entry after the owner reused its memory: %+v", e)
	}
	if es, _ := s.List(contract.HistoryQuery{Tool: "my_tool"}); len(es) != 1 {
		t.Fatalf("listing by the tool's name finds %d entries", len(es))
	}

	off := open(t, Options{Disabled: true})
	off.Record(owned(back))
	wait(back, "history off")

	hold, writing := make(chan struct{}), make(chan struct{}, 1)
	full := open(t, Options{QueueSize: 1, OnWrite: func(int64) {
		select {
		case writing <- struct{}{}:
		default:
		}
		<-hold
	}})
	defer close(hold)
	full.Record(call("t", `{}`, `{}`)) // the writer takes it and waits
	select {                           // until the writer holds it: what comes next cannot be read ahead
	case <-writing:
	case <-time.After(10 * time.Second):
		t.Fatal("the writer never wrote the first record")
	}
	full.Record(call("t", `{}`, `{}`)) // fills the queue
	back2 := make(chan struct{}, 1)
	full.Record(owned(back2))
	wait(back2, "dropped")
}

func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
