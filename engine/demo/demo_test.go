package demo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/genui-dev/genui/internal/testenv"
)

const readTimeout = 5 * time.Second

// ---------------------------------------------------------------------------
// Test client: raw JSON-RPC lines over io.Pipe.

type frame struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
	raw []byte
}

type client struct {
	t      *testing.T
	in     *io.PipeWriter
	lines  chan []byte
	served chan error
	cancel context.CancelFunc

	mu      sync.Mutex
	nextID  int
	pending map[string]frame // responses read while waiting for another id
	notes   []frame          // notifications not yet taken
}

type serveFunc func(ctx context.Context, r io.Reader, w io.Writer) error

func startWith(t *testing.T, serveFn serveFunc) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &client{
		t:       t,
		in:      inW,
		lines:   make(chan []byte, 1024),
		served:  make(chan error, 1),
		cancel:  cancel,
		pending: make(map[string]frame),
	}
	go func() {
		err := serveFn(ctx, inR, outW)
		outW.Close()
		c.served <- err
	}()
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
		for sc.Scan() {
			c.lines <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-c.served:
		case <-time.After(readTimeout):
			t.Errorf("server did not stop after stdin closed")
		}
		cancel()
		inR.Close()
	})
	return c
}

// start runs the public ServeStdio and performs the initialize handshake.
func start(t *testing.T) *client {
	t.Helper()
	c := startWith(t, ServeStdio)
	c.initialize()
	return c
}

func (c *client) send(v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatalf("marshal: %v", err)
	}
	c.sendRaw(string(b))
}

func (c *client) sendRaw(line string) {
	c.t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := io.WriteString(c.in, line+"\n")
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			c.t.Fatalf("write to server: %v", err)
		}
	case <-time.After(readTimeout):
		c.t.Fatalf("timed out writing to server")
	}
}

// readFrame reads one line with a timeout and checks it is a JSON-RPC 2.0
// object: a response (id + result or error) or a notification (method).
func (c *client) readFrame(timeout time.Duration) (frame, bool) {
	c.t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			c.t.Fatalf("server output closed")
		}
		var f frame
		if err := json.Unmarshal(line, &f); err != nil {
			c.t.Fatalf("server wrote a non-JSON line %q: %v", line, err)
		}
		f.raw = line
		if f.JSONRPC != "2.0" {
			c.t.Fatalf("frame without jsonrpc 2.0: %s", line)
		}
		isResp := len(f.ID) > 0 && f.Method == "" && (f.Result != nil) != (f.Error != nil)
		isNote := f.Method != "" && len(f.ID) == 0
		if !isResp && !isNote {
			c.t.Fatalf("not a JSON-RPC response or notification: %s", line)
		}
		return f, true
	case <-time.After(timeout):
		return frame{}, false
	}
}

// request sends a request and returns its id.
func (c *client) request(method string, params any) string {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	c.mu.Unlock()
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	c.send(msg)
	return fmt.Sprint(id)
}

// wait returns the response with the given id; notifications read on the
// way are queued for takeNotes.
func (c *client) wait(id string) frame {
	c.t.Helper()
	deadline := time.Now().Add(readTimeout)
	for {
		if f, ok := c.pending[id]; ok {
			delete(c.pending, id)
			return f
		}
		f, ok := c.readFrame(time.Until(deadline))
		if !ok {
			c.t.Fatalf("timed out waiting for response %s", id)
		}
		if f.Method != "" {
			c.notes = append(c.notes, f)
			continue
		}
		c.pending[string(f.ID)] = f
	}
}

func (c *client) takeNotes() []frame {
	n := c.notes
	c.notes = nil
	return n
}

func (c *client) call(method string, params any) frame {
	c.t.Helper()
	f := c.wait(c.request(method, params))
	if f.Error != nil {
		c.t.Fatalf("%s: JSON-RPC error %d %s", method, f.Error.Code, f.Error.Message)
	}
	return f
}

func (c *client) initialize() {
	c.t.Helper()
	f := c.call("initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "demo-test", "version": "0.0.0"},
	})
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"serverInfo"`
		Capabilities struct {
			Tools *struct {
				ListChanged bool `json:"listChanged"`
			} `json:"tools"`
		} `json:"capabilities"`
	}
	mustUnmarshal(c.t, f.Result, &res)
	if res.ProtocolVersion != "2025-11-25" {
		c.t.Errorf("protocolVersion = %q", res.ProtocolVersion)
	}
	if res.ServerInfo.Name != "genui-demo" || res.ServerInfo.Version != "1.0.0" {
		c.t.Errorf("serverInfo = %+v", res.ServerInfo)
	}
	if res.Capabilities.Tools == nil || !res.Capabilities.Tools.ListChanged {
		c.t.Errorf("tools capability with listChanged missing: %s", f.Result)
	}
	c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
}

type content struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Data     string `json:"data"`
	MimeType string `json:"mimeType"`
}

type toolResult struct {
	Content           []content       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
	raw               json.RawMessage
}

func (r toolResult) text() string {
	var parts []string
	for _, c := range r.Content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func parseToolResult(t *testing.T, f frame) toolResult {
	t.Helper()
	var r toolResult
	mustUnmarshal(t, f.Result, &r)
	r.raw = f.Result
	return r
}

// tool calls a tool and returns its result. meta, when not nil, is sent as
// params._meta.
func (c *client) tool(name string, args map[string]any, meta map[string]any) toolResult {
	c.t.Helper()
	return parseToolResult(c.t, c.call("tools/call", toolParams(name, args, meta)))
}

func toolParams(name string, args, meta map[string]any) map[string]any {
	p := map[string]any{"name": name}
	if args != nil {
		p["arguments"] = args
	}
	if meta != nil {
		p["_meta"] = meta
	}
	return p
}

// ok calls a tool that must succeed.
func (c *client) ok(name string, args map[string]any) toolResult {
	c.t.Helper()
	r := c.tool(name, args, nil)
	if r.IsError {
		c.t.Fatalf("%s(%v) failed: %s", name, args, r.text())
	}
	return r
}

// fails calls a tool that must report isError with a message containing
// every one of want.
func (c *client) fails(name string, args map[string]any, want ...string) {
	c.t.Helper()
	r := c.tool(name, args, nil)
	if !r.IsError {
		c.t.Fatalf("%s(%v): want isError, got %s", name, args, r.raw)
	}
	for _, w := range want {
		if !strings.Contains(r.text(), w) {
			c.t.Errorf("%s(%v): error %q does not mention %q", name, args, r.text(), w)
		}
	}
}

func mustUnmarshal(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("unmarshal %s: %v", b, err)
	}
}

// sameJSON checks that the text item and structuredContent hold the same
// JSON value.
func sameJSON(t *testing.T, r toolResult) {
	t.Helper()
	if len(r.Content) == 0 || r.Content[0].Type != "text" {
		t.Fatalf("want a text item first, got %+v", r.Content)
	}
	var a, b any
	mustUnmarshal(t, []byte(r.Content[0].Text), &a)
	mustUnmarshal(t, r.StructuredContent, &b)
	aj, _ := json.Marshal(a)
	bj, _ := json.Marshal(b)
	if !bytes.Equal(aj, bj) {
		t.Errorf("text and structuredContent differ:\ntext: %s\nstructured: %s", aj, bj)
	}
}

// ---------------------------------------------------------------------------
// tools/list

type listedTool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Meta        json.RawMessage `json:"_meta"`
	InputSchema struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	} `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Annotations  struct {
		Title          string `json:"title"`
		ReadOnlyHint   *bool  `json:"readOnlyHint"`
		IdempotentHint *bool  `json:"idempotentHint"`
		OpenWorldHint  *bool  `json:"openWorldHint"`
	} `json:"annotations"`
}

func TestToolsList(t *testing.T) {
	c := start(t)
	f := c.call("tools/list", map[string]any{})
	var res struct {
		Tools []listedTool `json:"tools"`
	}
	mustUnmarshal(t, f.Result, &res)

	wantRequired := map[string][]string{
		"get_current_weather": {"location"},
		"get_forecast":        {"location"},
		"datastore_search":    nil,
		"run_battery":         nil,
		"get_battery_status":  {"job_id"},
		"reset_demo":          nil,
		"set_units":           {"units"},
		"get_tiny_image":      nil,
	}
	wantMeta := map[string]string{
		"get_battery_status": `{"ui":{"visibility":["app"]}}`,
		"reset_demo":         `{"ui":{"visibility":["model"]}}`,
	}
	readOnly := []string{"get_current_weather", "get_forecast", "datastore_search", "get_battery_status", "get_tiny_image"}

	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		t.Run(tool.Name, func(t *testing.T) {
			want, known := wantRequired[tool.Name]
			if !known {
				t.Fatalf("unexpected tool")
			}
			if tool.Title == "" || tool.Annotations.Title == "" || tool.Description == "" {
				t.Errorf("title/annotations.title/description missing")
			}
			if tool.InputSchema.Type != "object" {
				t.Errorf("inputSchema.type = %q", tool.InputSchema.Type)
			}
			for name, raw := range tool.InputSchema.Properties {
				var p struct {
					Type        any    `json:"type"`
					Description string `json:"description"`
				}
				mustUnmarshal(t, raw, &p)
				if p.Description == "" || p.Type == nil {
					t.Errorf("property %s lacks type or description: %s", name, raw)
				}
			}
			got := slices.Clone(tool.InputSchema.Required)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("required = %v, want %v", got, want)
			}
			for _, r := range want {
				if _, ok := tool.InputSchema.Properties[r]; !ok {
					t.Errorf("required %q is not a property", r)
				}
			}
			if m, ok := wantMeta[tool.Name]; ok {
				if string(tool.Meta) != m {
					t.Errorf("_meta = %s, want exactly %s", tool.Meta, m)
				}
			} else if tool.Meta != nil {
				t.Errorf("unexpected _meta %s", tool.Meta)
			}
			ro := tool.Annotations.ReadOnlyHint != nil && *tool.Annotations.ReadOnlyHint
			if ro != slices.Contains(readOnly, tool.Name) {
				t.Errorf("readOnlyHint = %v", ro)
			}
			if tool.Annotations.OpenWorldHint == nil || *tool.Annotations.OpenWorldHint {
				t.Errorf("openWorldHint should be false")
			}
		})
	}
	slices.Sort(names)
	if len(names) != len(wantRequired) {
		t.Errorf("tools = %v, want %d tools", names, len(wantRequired))
	}

	byName := map[string]listedTool{}
	for _, tool := range res.Tools {
		byName[tool.Name] = tool
	}
	if a := byName["set_units"].Annotations; a.IdempotentHint == nil || !*a.IdempotentHint {
		t.Errorf("set_units needs idempotentHint true")
	}
	var fs struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	mustUnmarshal(t, byName["get_forecast"].OutputSchema, &fs)
	if fs.Type != "object" || fs.Properties["days"] == nil {
		t.Errorf("get_forecast outputSchema = %s", byName["get_forecast"].OutputSchema)
	}
	var days struct {
		Minimum, Maximum, Default float64
	}
	mustUnmarshal(t, byName["get_forecast"].InputSchema.Properties["days"], &days)
	if days.Minimum != 1 || days.Maximum != 14 || days.Default != 7 {
		t.Errorf("days schema = %+v", days)
	}
	var units struct {
		Enum    []string `json:"enum"`
		Default string   `json:"default"`
	}
	mustUnmarshal(t, byName["get_current_weather"].InputSchema.Properties["units"], &units)
	if !slices.Equal(units.Enum, []string{"metric", "imperial"}) || units.Default != "metric" {
		t.Errorf("units schema = %+v", units)
	}
}

// ---------------------------------------------------------------------------
// Determinism

func TestDeterminism(t *testing.T) {
	calls := []struct {
		name string
		args map[string]any
	}{
		{"get_current_weather", map[string]any{"location": "Lisbon"}},
		{"get_current_weather", map[string]any{"location": "Denver, CO", "units": "imperial"}},
		{"get_forecast", map[string]any{"location": "Lisbon", "days": 14}},
		{"datastore_search", map[string]any{"q": "lamp", "sort": "price desc", "limit": 50}},
		{"datastore_search", map[string]any{"filters": map[string]any{"category": "Toys"}, "offset": 20}},
		{"run_battery", map[string]any{"cells": 6}},
		{"get_battery_status", map[string]any{"job_id": "battery-0001"}},
		{"get_tiny_image", nil},
	}
	run := func() []string {
		c := start(t)
		var out []string
		for _, call := range calls {
			out = append(out, string(c.ok(call.name, call.args).raw))
		}
		// Same server, same arguments: same answer (run_battery, whose job
		// id moves on, excepted).
		for i, call := range calls {
			if call.name == "run_battery" || call.name == "get_battery_status" {
				continue
			}
			if again := string(c.ok(call.name, call.args).raw); again != out[i] {
				t.Errorf("%s(%v) changed on a second call", call.name, call.args)
			}
		}
		return out
	}
	a, b := run(), run()
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("%s(%v) differs between servers:\n%s\n%s", calls[i].name, calls[i].args, a[i], b[i])
		}
	}
}

// ---------------------------------------------------------------------------
// Weather

type weatherOut struct {
	Location    string   `json:"location"`
	Temperature *float64 `json:"temperature"`
	Units       string   `json:"units"`
	Conditions  string   `json:"conditions"`
	Humidity    *int     `json:"humidity"`
	WindKph     *float64 `json:"wind_kph"`
	ObservedAt  string   `json:"observed_at"`
}

func TestCurrentWeather(t *testing.T) {
	c := start(t)
	get := func(args map[string]any) (weatherOut, toolResult) {
		t.Helper()
		r := c.ok("get_current_weather", args)
		var w weatherOut
		mustUnmarshal(t, r.StructuredContent, &w)
		return w, r
	}
	m, r := get(map[string]any{"location": "Oslo"})
	if m.Location != "Oslo" || m.Units != "metric" || m.Conditions == "" ||
		m.Temperature == nil || m.Humidity == nil || m.WindKph == nil {
		t.Fatalf("structuredContent = %s", r.StructuredContent)
	}
	if *m.Humidity < 0 || *m.Humidity > 100 || *m.WindKph < 0 {
		t.Errorf("implausible values: %s", r.StructuredContent)
	}
	obs, err := time.Parse(time.RFC3339, m.ObservedAt)
	if err != nil || obs.Format(time.DateOnly) != "2026-01-15" {
		t.Errorf("observed_at = %q (%v)", m.ObservedAt, err)
	}
	if len(r.Content) != 1 || r.Content[0].Type != "text" || strings.Contains(r.Content[0].Text, "\n") ||
		!strings.Contains(r.Content[0].Text, "Oslo") || !strings.Contains(r.Content[0].Text, "°C") {
		t.Errorf("want a one-line text summary, got %+v", r.Content)
	}

	imp, _ := get(map[string]any{"location": "Oslo", "units": "imperial"})
	if want := round1(*m.Temperature*9/5 + 32); imp.Units != "imperial" || absDiff(*imp.Temperature, want) > 0.11 {
		t.Errorf("imperial = %v %s, want about %v", *imp.Temperature, imp.Units, want)
	}
	if *imp.Humidity != *m.Humidity || imp.Conditions != m.Conditions || imp.ObservedAt != m.ObservedAt {
		t.Errorf("units changed more than the temperature")
	}
	other, _ := get(map[string]any{"location": "Cairo"})
	if other == m {
		t.Errorf("different locations gave identical weather")
	}

	// set_units changes the default; an explicit units argument wins.
	r = c.ok("set_units", map[string]any{"units": "imperial"})
	if r.text() != "Units set to imperial" {
		t.Errorf("set_units text = %q", r.text())
	}
	if w, _ := get(map[string]any{"location": "Oslo"}); w.Units != "imperial" || *w.Temperature != *imp.Temperature {
		t.Errorf("default units not applied: %+v", w)
	}
	if w, _ := get(map[string]any{"location": "Oslo", "units": "metric"}); w.Units != "metric" {
		t.Errorf("explicit units ignored")
	}
	var fc struct{ Units string }
	mustUnmarshal(t, c.ok("get_forecast", map[string]any{"location": "Oslo", "days": 1}).StructuredContent, &fc)
	if fc.Units != "imperial" {
		t.Errorf("forecast ignores default units: %q", fc.Units)
	}
	c.ok("reset_demo", nil)
	if w, _ := get(map[string]any{"location": "Oslo"}); w.Units != "metric" {
		t.Errorf("reset_demo did not restore metric")
	}

	c.fails("get_current_weather", map[string]any{}, "location")
	c.fails("get_current_weather", map[string]any{"location": "  "}, "location")
	c.fails("get_current_weather", map[string]any{"location": "Oslo", "units": "kelvin"}, "units", "kelvin")
	c.fails("set_units", map[string]any{"units": "kelvin"}, "kelvin")
	c.fails("set_units", map[string]any{}, "units is required")
}

func absDiff(a, b float64) float64 {
	if a > b {
		return a - b
	}
	return b - a
}

// ---------------------------------------------------------------------------
// Forecast

func TestForecast(t *testing.T) {
	c := start(t)
	for _, days := range []any{1, 3, nil, 14} {
		args := map[string]any{"location": "Nairobi"}
		want := 7
		if days != nil {
			args["days"] = days
			want = days.(int)
		}
		r := c.ok("get_forecast", args)
		sameJSON(t, r)
		var f struct {
			Location string `json:"location"`
			Units    string `json:"units"`
			Days     []struct {
				Date            string   `json:"date"`
				High            *float64 `json:"high"`
				Low             *float64 `json:"low"`
				PrecipitationMM *float64 `json:"precipitation_mm"`
				Conditions      string   `json:"conditions"`
			} `json:"days"`
		}
		mustUnmarshal(t, r.StructuredContent, &f)
		if f.Location != "Nairobi" || f.Units != "metric" {
			t.Errorf("location/units = %q/%q", f.Location, f.Units)
		}
		if len(f.Days) != want {
			t.Fatalf("days=%v: got %d entries, want %d", days, len(f.Days), want)
		}
		for i, d := range f.Days {
			if wantDate := baseDate.AddDate(0, 0, i).Format(time.DateOnly); d.Date != wantDate {
				t.Errorf("day %d date = %q, want %q", i, d.Date, wantDate)
			}
			if d.High == nil || d.Low == nil || d.PrecipitationMM == nil || d.Conditions == "" {
				t.Fatalf("day %d incomplete: %s", i, r.StructuredContent)
			}
			if *d.Low > *d.High || *d.PrecipitationMM < 0 {
				t.Errorf("day %d implausible: %+v", i, d)
			}
		}
	}
	// The first days do not change when more days are asked for.
	short := c.ok("get_forecast", map[string]any{"location": "Nairobi", "days": 2})
	long := c.ok("get_forecast", map[string]any{"location": "Nairobi", "days": 5})
	var s, l struct{ Days []json.RawMessage }
	mustUnmarshal(t, short.StructuredContent, &s)
	mustUnmarshal(t, long.StructuredContent, &l)
	for i := range s.Days {
		if !bytes.Equal(s.Days[i], l.Days[i]) {
			t.Errorf("day %d differs between days=2 and days=5", i)
		}
	}

	c.fails("get_forecast", map[string]any{"location": "Nairobi", "days": 0}, "between 1 and 14", "0")
	c.fails("get_forecast", map[string]any{"location": "Nairobi", "days": 15}, "between 1 and 14", "15")
	c.fails("get_forecast", map[string]any{"location": "Nairobi", "days": -3}, "between 1 and 14")
	c.fails("get_forecast", map[string]any{"location": "Nairobi", "days": 2.5}, "integer")
	c.fails("get_forecast", map[string]any{"location": "Nairobi", "days": "3"}, "integer")
	c.fails("get_forecast", map[string]any{"days": 3}, "location")
}

// ---------------------------------------------------------------------------
// Datastore

type dsOut struct {
	Fields []struct {
		ID   string `json:"id"`
		Type string `json:"type"`
	} `json:"fields"`
	Records []struct {
		ID       int     `json:"id"`
		Name     string  `json:"name"`
		Category string  `json:"category"`
		Price    float64 `json:"price"`
		Quantity int     `json:"quantity"`
		Created  string  `json:"created"`
		InStock  bool    `json:"in_stock"`
	} `json:"records"`
	Total  int     `json:"total"`
	Limit  int     `json:"limit"`
	Offset int     `json:"offset"`
	Sort   *string `json:"sort"`
	Q      *string `json:"q"`
}

func (c *client) search(args map[string]any) dsOut {
	c.t.Helper()
	r := c.ok("datastore_search", args)
	sameJSON(c.t, r)
	var out dsOut
	mustUnmarshal(c.t, r.StructuredContent, &out)
	return out
}

// all pages through a query with the given page size.
func (c *client) all(args map[string]any, page int) dsOut {
	c.t.Helper()
	var out dsOut
	for offset := 0; ; offset += page {
		a := map[string]any{"limit": page, "offset": offset}
		for k, v := range args {
			a[k] = v
		}
		p := c.search(a)
		if p.Limit != page || p.Offset != offset {
			c.t.Fatalf("limit/offset echoed as %d/%d, want %d/%d", p.Limit, p.Offset, page, offset)
		}
		out.Total = p.Total
		out.Records = append(out.Records, p.Records...)
		if len(p.Records) < page {
			return out
		}
	}
}

func TestDatastoreSearch(t *testing.T) {
	c := start(t)

	first := c.search(nil)
	if first.Total != 2000 || first.Limit != 100 || first.Offset != 0 || len(first.Records) != 100 {
		t.Fatalf("default search: total=%d limit=%d offset=%d records=%d", first.Total, first.Limit, first.Offset, len(first.Records))
	}
	if first.Sort != nil || first.Q != nil {
		t.Errorf("sort/q echoed although not given")
	}
	var fieldNames []string
	for _, f := range first.Fields {
		fieldNames = append(fieldNames, f.ID+":"+f.Type)
	}
	if want := []string{"id:int", "name:text", "category:text", "price:numeric", "quantity:int", "created:date", "in_stock:bool"}; !slices.Equal(fieldNames, want) {
		t.Errorf("fields = %v", fieldNames)
	}

	// Paging covers every id exactly once, whatever the page size.
	for _, page := range []int{1000, 300, 7} {
		if page == 7 && testing.Short() {
			continue
		}
		all := c.all(nil, page)
		seen := make(map[int]int)
		for _, r := range all.Records {
			seen[r.ID]++
		}
		if len(all.Records) != 2000 || len(seen) != 2000 {
			t.Errorf("page %d: %d records, %d distinct ids", page, len(all.Records), len(seen))
		}
		for id := 1; id <= 2000; id++ {
			if seen[id] != 1 {
				t.Errorf("page %d: id %d seen %d times", page, id, seen[id])
				break
			}
		}
	}

	// The whole table, for checking queries against.
	table := c.all(nil, 1000).Records
	categories := map[string]bool{}
	for _, r := range table {
		categories[r.Category] = true
		if r.InStock != (r.Quantity > 0) {
			t.Errorf("row %d: in_stock %v with quantity %d", r.ID, r.InStock, r.Quantity)
		}
		if _, err := time.Parse(time.DateOnly, r.Created); err != nil {
			t.Errorf("row %d: created %q", r.ID, r.Created)
		}
	}
	if len(categories) != 8 {
		t.Errorf("%d categories, want 8", len(categories))
	}

	// Numeric sort on price, both ways, across pages.
	asc := c.all(map[string]any{"sort": "price asc"}, 1000).Records
	desc := c.all(map[string]any{"sort": "price desc"}, 1000).Records
	if len(asc) != 2000 || len(desc) != 2000 {
		t.Fatalf("sorted lengths %d/%d", len(asc), len(desc))
	}
	for i := 1; i < 2000; i++ {
		if asc[i-1].Price > asc[i].Price {
			t.Fatalf("price asc out of order at %d: %v > %v", i, asc[i-1].Price, asc[i].Price)
		}
		if desc[i-1].Price < desc[i].Price {
			t.Fatalf("price desc out of order at %d: %v < %v", i, desc[i-1].Price, desc[i].Price)
		}
	}
	if asc[0].Price >= asc[1999].Price {
		t.Errorf("prices do not vary")
	}
	// Numeric, not text, ordering: 9.99 sorts before 10.00.
	if p := c.search(map[string]any{"sort": "price", "limit": 1}); p.Records[0].Price != asc[0].Price || *p.Sort != "price" {
		t.Errorf("sort without direction should be ascending")
	}
	byName := c.search(map[string]any{"sort": "name", "limit": 1000}).Records
	if !slices.IsSortedFunc(byName, func(a, b struct {
		ID       int     `json:"id"`
		Name     string  `json:"name"`
		Category string  `json:"category"`
		Price    float64 `json:"price"`
		Quantity int     `json:"quantity"`
		Created  string  `json:"created"`
		InStock  bool    `json:"in_stock"`
	}) int {
		return strings.Compare(a.Name, b.Name)
	}) {
		t.Errorf("sort by name not ordered")
	}

	// q: case-insensitive substring of name or category.
	for _, q := range []string{"LANTERN", "toys", "eco "} {
		got := c.all(map[string]any{"q": q}, 1000)
		want := 0
		for _, r := range table {
			if strings.Contains(strings.ToLower(r.Name), strings.ToLower(q)) ||
				strings.Contains(strings.ToLower(r.Category), strings.ToLower(q)) {
				want++
			}
		}
		if want == 0 || want == 2000 {
			t.Errorf("q=%q matches %d rows in the table; pick a better probe", q, want)
		}
		if got.Total != want || len(got.Records) != want {
			t.Errorf("q=%q: total %d, records %d, want %d", q, got.Total, len(got.Records), want)
		}
	}
	if p := c.search(map[string]any{"q": "Lantern", "limit": 1}); p.Q == nil || *p.Q != "Lantern" {
		t.Errorf("q not echoed")
	}

	// filters: exact match, all must hold; a list matches any value.
	f := c.all(map[string]any{"filters": map[string]any{"category": "Toys", "in_stock": true}}, 1000)
	want := 0
	for _, r := range table {
		if r.Category == "Toys" && r.InStock {
			want++
		}
	}
	if f.Total != want || want == 0 {
		t.Errorf("filters category+in_stock: total %d, want %d", f.Total, want)
	}
	for _, r := range f.Records {
		if r.Category != "Toys" || !r.InStock {
			t.Errorf("filter let through %+v", r)
		}
	}
	one := c.search(map[string]any{"filters": map[string]any{"id": 1234}})
	if one.Total != 1 || one.Records[0].ID != 1234 {
		t.Errorf("filter by id: %+v", one)
	}
	price := table[41].Price
	byPrice := c.search(map[string]any{"filters": map[string]any{"price": price}, "limit": 1000})
	if byPrice.Total == 0 {
		t.Errorf("filter by price %v found nothing", price)
	}
	for _, r := range byPrice.Records {
		if r.Price != price {
			t.Errorf("price filter %v let through %v", price, r.Price)
		}
	}
	either := c.search(map[string]any{"filters": map[string]any{"category": []any{"Books", "Garden"}}, "limit": 0})
	wantEither := 0
	for _, r := range table {
		if r.Category == "Books" || r.Category == "Garden" {
			wantEither++
		}
	}
	if either.Total != wantEither || len(either.Records) != 0 {
		t.Errorf("list filter: total %d (want %d), %d records with limit 0", either.Total, wantEither, len(either.Records))
	}
	combined := c.search(map[string]any{"q": "kit", "filters": map[string]any{"category": "Toys"}, "sort": "quantity desc", "limit": 1000})
	for i, r := range combined.Records {
		if r.Category != "Toys" || !strings.Contains(strings.ToLower(r.Name), "kit") {
			t.Errorf("q+filter let through %+v", r)
		}
		if i > 0 && combined.Records[i-1].Quantity < r.Quantity {
			t.Errorf("quantity desc out of order")
		}
	}
	if beyond := c.search(map[string]any{"offset": 5000}); beyond.Total != 2000 || len(beyond.Records) != 0 {
		t.Errorf("offset past the end: total %d, %d records", beyond.Total, len(beyond.Records))
	}

	// Bad input is a tool error that says what is wrong.
	c.fails("datastore_search", map[string]any{"filters": map[string]any{"colour": "red"}}, `"colour"`, "unknown filter field")
	c.fails("datastore_search", map[string]any{"sort": "weight desc"}, `"weight"`, "unknown sort field")
	c.fails("datastore_search", map[string]any{"sort": "price sideways"}, "sideways")
	c.fails("datastore_search", map[string]any{"filters": map[string]any{"quantity": "lots"}}, "quantity", "integer")
	c.fails("datastore_search", map[string]any{"filters": map[string]any{"in_stock": map[string]any{}}}, "in_stock")
	c.fails("datastore_search", map[string]any{"filters": "category=Toys"}, "filters", "object")
	c.fails("datastore_search", map[string]any{"limit": 1001}, "limit", "1000")
	c.fails("datastore_search", map[string]any{"offset": -1}, "offset")
}

// ---------------------------------------------------------------------------
// Battery jobs and progress

type progress struct {
	ProgressToken any     `json:"progressToken"`
	Progress      float64 `json:"progress"`
	Total         float64 `json:"total"`
	Message       string  `json:"message"`
}

func progressNotes(t *testing.T, notes []frame) []progress {
	t.Helper()
	var out []progress
	for _, n := range notes {
		if n.Method != "notifications/progress" {
			continue
		}
		var p progress
		mustUnmarshal(t, n.Params, &p)
		out = append(out, p)
	}
	return out
}

type batteryOut struct {
	JobID   string            `json:"job_id"`
	Status  string            `json:"status"`
	Cells   int               `json:"cells"`
	Step    int               `json:"step"`
	Steps   int               `json:"steps"`
	Results []json.RawMessage `json:"results"`
}

func TestRunBatteryProgress(t *testing.T) {
	c := start(t)
	c.takeNotes()
	r := c.tool("run_battery", map[string]any{"cells": 6}, map[string]any{"progressToken": "tok-1"})
	if r.IsError {
		t.Fatalf("run_battery failed: %s", r.text())
	}
	// wait() queued every notification read before the response.
	ps := progressNotes(t, c.takeNotes())
	if len(ps) < 3 {
		t.Fatalf("%d progress notifications before the result, want >= 3", len(ps))
	}
	for i, p := range ps {
		if p.ProgressToken != "tok-1" {
			t.Errorf("progressToken = %v", p.ProgressToken)
		}
		if p.Total != 5 || p.Message == "" {
			t.Errorf("notification %d: %+v", i, p)
		}
		if i > 0 && p.Progress <= ps[i-1].Progress {
			t.Errorf("progress not increasing: %v then %v", ps[i-1].Progress, p.Progress)
		}
	}
	sameJSON(t, r)
	var out batteryOut
	mustUnmarshal(t, r.StructuredContent, &out)
	if out.Status != "done" || out.JobID == "" || len(out.Results) != 6 {
		t.Fatalf("result = %s", r.StructuredContent)
	}

	st := c.ok("get_battery_status", map[string]any{"job_id": out.JobID})
	var status batteryOut
	mustUnmarshal(t, st.StructuredContent, &status)
	if status.Status != "done" || status.Step != 5 || status.Steps != 5 || len(status.Results) != 6 {
		t.Errorf("status = %s", st.StructuredContent)
	}
	c.fails("get_battery_status", map[string]any{"job_id": "battery-9999"}, "battery-9999")
	c.fails("get_battery_status", map[string]any{}, "job_id")

	// A numeric token comes back as a number; no token, no notifications.
	c.tool("run_battery", map[string]any{"cells": 1}, map[string]any{"progressToken": 42})
	for _, p := range progressNotes(t, c.takeNotes()) {
		if p.ProgressToken != float64(42) {
			t.Errorf("numeric token came back as %#v", p.ProgressToken)
		}
	}
	c.ok("run_battery", nil)
	if ps := progressNotes(t, c.takeNotes()); len(ps) != 0 {
		t.Errorf("progress sent without a progressToken: %+v", ps)
	}

	c.fails("run_battery", map[string]any{"cells": 0}, "between 1 and 16")
	c.fails("run_battery", map[string]any{"cells": 17}, "between 1 and 16")

	// reset_demo forgets jobs.
	if txt := c.ok("reset_demo", nil).text(); !strings.Contains(txt, "3 battery jobs") {
		t.Errorf("reset_demo text = %q", txt)
	}
	c.fails("get_battery_status", map[string]any{"job_id": out.JobID}, out.JobID)
}

// The status tool sees a job while it runs.
func TestBatteryStatusWhileRunning(t *testing.T) {
	c := start(t)
	runID := c.request("tools/call", toolParams("run_battery", map[string]any{"cells": 10}, map[string]any{"progressToken": "p"}))
	// Wait for the first progress notification.
	deadline := time.Now().Add(readTimeout)
	for {
		f, ok := c.readFrame(time.Until(deadline))
		if !ok {
			t.Fatalf("no progress notification")
		}
		if f.Method == "notifications/progress" {
			break
		}
		c.pending[string(f.ID)] = f
	}
	var status batteryOut
	mustUnmarshal(t, c.ok("get_battery_status", map[string]any{"job_id": "battery-0001"}).StructuredContent, &status)
	if status.Status != "running" || status.Step < 1 || status.Step >= 5 || len(status.Results) == 0 || len(status.Results) >= 10 {
		t.Errorf("mid-run status = %+v", status)
	}
	done := parseToolResult(t, c.wait(runID))
	var out batteryOut
	mustUnmarshal(t, done.StructuredContent, &out)
	if out.Status != "done" || len(out.Results) != 10 {
		t.Errorf("final = %s", done.StructuredContent)
	}
	// Partial results are a prefix of the final ones.
	for i, r := range status.Results {
		if !bytes.Equal(r, out.Results[i]) {
			t.Errorf("cell %d changed between status and result", i+1)
		}
	}
}

// Progress notifications precede their result even when the client reads
// slowly: with the reader stalled, the later notifications and the result
// queue up together and must still come out in order.
func TestProgressBeforeResultWithStalledReader(t *testing.T) {
	for round := range 4 {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		served := make(chan error, 1)
		go func() { served <- ServeStdio(ctx, inR, outW); outW.Close() }()
		go func() {
			io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`+"\n")
			io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
			io.WriteString(inW, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_battery","arguments":{"cells":2},"_meta":{"progressToken":"slow"}}}`+"\n")
		}()
		lines := make(chan string, 16)
		go func() {
			defer close(lines)
			sc := bufio.NewScanner(outR)
			sc.Scan() // initialize response
			time.Sleep(400 * time.Millisecond)
			for sc.Scan() {
				lines <- sc.Text()
			}
		}()
		var order []string
		for len(order) < 6 {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("output ended after %v", order)
				}
				var f frame
				mustUnmarshal(t, []byte(l), &f)
				order = append(order, f.Method+string(f.ID))
			case <-time.After(readTimeout):
				t.Fatalf("round %d: timed out after %v", round, order)
			}
		}
		if order[5] != "2" || slices.Index(order, "2") != 5 {
			t.Fatalf("round %d: result not after all progress: %v", round, order)
		}
		inW.Close()
		cancel()
		outR.Close()
		select {
		case <-served:
		case <-time.After(readTimeout):
			t.Fatalf("server did not stop")
		}
	}
}

// notifications/cancelled stops the job and suppresses the response.
func TestRunBatteryCancelled(t *testing.T) {
	c := start(t)
	runID := c.request("tools/call", toolParams("run_battery", map[string]any{"cells": 4}, map[string]any{"progressToken": "c"}))
	// The job runs: its first progress arrives.
	for progressed := false; !progressed; {
		f, ok := c.readFrame(readTimeout)
		if !ok {
			t.Fatal("run_battery sent no progress")
		}
		if f.Method == "" {
			c.pending[string(f.ID)] = f
			continue
		}
		c.notes = append(c.notes, f)
		progressed = f.Method == "notifications/progress"
	}
	c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled",
		"params": map[string]any{"requestId": json.Number(runID), "reason": "test"}})
	var status batteryOut
	cancelled := func() bool {
		mustUnmarshal(t, c.ok("get_battery_status", map[string]any{"job_id": "battery-0001"}).StructuredContent, &status)
		if status.Status == "done" {
			t.Fatalf("job finished despite cancellation")
		}
		return status.Status == "cancelled"
	}
	if !testenv.Until(readTimeout, cancelled) {
		t.Fatalf("job never became cancelled: %+v", status)
	}
	// A ping round trip after the cancellation: the cancelled call's
	// response, had it been sent, would have come first.
	time.Sleep(50 * time.Millisecond)
	c.call("ping", nil)
	if f, ok := c.pending[runID]; ok {
		t.Errorf("cancelled request was answered: %s", f.raw)
	}
}

// Two servers in one process keep their notifications apart.
func TestConcurrentServersIsolated(t *testing.T) {
	var wg sync.WaitGroup
	results := make([][]progress, 3)
	clients := make([]*client, 3)
	for i := range clients {
		clients[i] = start(t)
	}
	ids := make([]string, 3)
	for i, c := range clients {
		ids[i] = c.request("tools/call", toolParams("run_battery", map[string]any{"cells": 2}, map[string]any{"progressToken": fmt.Sprint("srv-", i)}))
	}
	for i, c := range clients {
		wg.Go(func() {
			c.wait(ids[i])
			results[i] = progressNotes(t, c.takeNotes())
		})
	}
	wg.Wait()
	for i, ps := range results {
		if len(ps) != 5 {
			t.Errorf("server %d: %d progress notifications, want 5", i, len(ps))
		}
		for _, p := range ps {
			if p.ProgressToken != fmt.Sprint("srv-", i) {
				t.Errorf("server %d got a notification for %v", i, p.ProgressToken)
			}
		}
	}
}

// ---------------------------------------------------------------------------
// Image

func TestTinyImage(t *testing.T) {
	c := start(t)
	r := c.ok("get_tiny_image", nil)
	if len(r.Content) != 2 || r.Content[0].Type != "image" || r.Content[1].Type != "text" {
		t.Fatalf("content = %+v", r.Content)
	}
	img := r.Content[0]
	if img.MimeType != "image/png" {
		t.Errorf("mimeType = %q", img.MimeType)
	}
	data, err := base64.StdEncoding.DecodeString(img.Data)
	if err != nil {
		t.Fatalf("base64: %v", err)
	}
	decoded, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("png: %v", err)
	}
	if b := decoded.Bounds(); b.Dx() != 16 || b.Dy() != 16 {
		t.Errorf("size = %v", b)
	}
	r0, g0, b0, a0 := decoded.At(0, 0).RGBA()
	r1, g1, b1, a1 := decoded.At(15, 15).RGBA()
	if [4]uint32{r0, g0, b0, a0} != [4]uint32{r1, g1, b1, a1} || a0 != 0xFFFF {
		t.Errorf("not a solid opaque square")
	}
	if !strings.Contains(r.Content[1].Text, "16x16") || !strings.Contains(r.Content[1].Text, "PNG") {
		t.Errorf("description = %q", r.Content[1].Text)
	}
}

// ---------------------------------------------------------------------------
// Transport

// Everything on stdout is a JSON-RPC line, even for bad input; the server
// stays usable afterwards.
func TestStdoutIsOnlyJSONRPC(t *testing.T) {
	c := startWith(t, ServeStdio)
	c.sendRaw(`this is not json`)
	f, ok := c.readFrame(readTimeout)
	if !ok || f.Error == nil || f.Error.Code != -32700 || string(f.ID) != "null" {
		t.Fatalf("want a parse error with id null, got %s", f.raw)
	}
	c.sendRaw(`[1,2,3]`)
	if f, ok = c.readFrame(readTimeout); !ok || f.Error == nil || f.Error.Code != -32600 {
		t.Fatalf("want invalid request, got %s", f.raw)
	}
	c.sendRaw(`   `) // blank lines are skipped
	c.initialize()
	c.sendRaw(`{"jsonrpc":"2.0","id":"abc","method":"no/such/method"}`)
	if f := c.wait(`"abc"`); f.Error == nil {
		t.Errorf("unknown method answered without error: %s", f.raw)
	}
	// A response from the client (we never send requests) is ignored.
	c.sendRaw(`{"jsonrpc":"2.0","id":99,"result":{}}`)
	// Every tool, through the same connection; readFrame checks each line.
	c.ok("get_current_weather", map[string]any{"location": "Quito <&> \"x\""})
	c.ok("get_forecast", map[string]any{"location": "Quito"})
	c.ok("datastore_search", map[string]any{"limit": 1000})
	c.tool("run_battery", nil, map[string]any{"progressToken": 1})
	c.ok("get_battery_status", map[string]any{"job_id": "battery-0001"})
	c.ok("set_units", map[string]any{"units": "metric"})
	c.ok("get_tiny_image", nil)
	c.ok("reset_demo", nil)
	if len(c.pending) != 0 {
		t.Errorf("unexpected responses: %v", c.pending)
	}
	if f, ok := c.readFrame(100 * time.Millisecond); ok {
		t.Errorf("unexpected extra frame: %s", f.raw)
	}
}

func TestServeStdioStops(t *testing.T) {
	t.Run("EOF returns nil after answering", func(t *testing.T) {
		inR, inW := io.Pipe()
		var out bytes.Buffer
		served := make(chan error, 1)
		go func() { served <- ServeStdio(context.Background(), inR, &out) }()
		go func() {
			io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`+"\n")
			io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
			io.WriteString(inW, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_battery","arguments":{"cells":1},"_meta":{"progressToken":"eof"}}}`)
			inW.Close() // last line has no newline; EOF right behind it
		}()
		select {
		case err := <-served:
			if err != nil {
				t.Fatalf("ServeStdio = %v, want nil", err)
			}
		case <-time.After(readTimeout):
			t.Fatalf("ServeStdio did not return on EOF")
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		var kinds []string
		for _, l := range lines {
			var f frame
			mustUnmarshal(t, []byte(l), &f)
			switch {
			case f.Method != "":
				kinds = append(kinds, f.Method)
			default:
				kinds = append(kinds, "response "+string(f.ID))
			}
		}
		want := []string{"response 1", "notifications/progress", "notifications/progress", "notifications/progress",
			"notifications/progress", "notifications/progress", "response 2"}
		if !slices.Equal(kinds, want) {
			t.Errorf("frames = %v, want %v", kinds, want)
		}
	})
	t.Run("cancel returns ctx error", func(t *testing.T) {
		inR, inW := io.Pipe()
		defer inW.Close()
		ctx, cancel := context.WithCancel(context.Background())
		served := make(chan error, 1)
		go func() { served <- ServeStdio(ctx, inR, io.Discard) }()
		// A pipe write returns once read: the server is serving.
		if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"); err != nil {
			t.Fatal(err)
		}
		cancel()
		select {
		case err := <-served:
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("ServeStdio = %v, want context.Canceled", err)
			}
		case <-time.After(readTimeout):
			t.Fatalf("ServeStdio did not return on cancel")
		}
	})
	t.Run("write failure ends serving", func(t *testing.T) {
		inR, inW := io.Pipe()
		defer inW.Close()
		served := make(chan error, 1)
		go func() { served <- ServeStdio(context.Background(), inR, failWriter{}) }()
		go io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")
		select {
		case err := <-served:
			if err == nil || !strings.Contains(err.Error(), "broken") {
				t.Fatalf("ServeStdio = %v, want the write error", err)
			}
		case <-time.After(readTimeout):
			t.Fatalf("ServeStdio did not return after a failed write")
		}
	})
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// Structured results conform to the declared output schemas, checked by
// mcp-go's own validator (a mismatch would turn the result into isError).
func TestOutputSchemas(t *testing.T) {
	c := startWith(t, func(ctx context.Context, r io.Reader, w io.Writer) error {
		return serve(ctx, newServer(server.WithOutputSchemaValidation()), r, w)
	})
	c.initialize()
	c.ok("get_current_weather", map[string]any{"location": "Reykjavik", "units": "imperial"})
	c.ok("get_forecast", map[string]any{"location": "Reykjavik", "days": 14})
	c.ok("datastore_search", map[string]any{"q": "a", "sort": "created desc", "filters": map[string]any{"in_stock": false}})
	c.ok("datastore_search", map[string]any{"limit": 0})
	c.ok("run_battery", map[string]any{"cells": 16})
	c.ok("get_battery_status", map[string]any{"job_id": "battery-0001"})
}
