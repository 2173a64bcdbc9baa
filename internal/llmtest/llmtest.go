// Package llmtest is a stand-in LLM provider for tests: an httptest server
// that speaks the documented wire formats of Anthropic's Messages API,
// OpenAI's Chat Completions API and Ollama's OpenAI-compatible endpoint,
// streaming (server-sent events) and not, with scripted answers and errors.
// Real client code (charm.land/fantasy over the official SDKs) talks to it
// through a base URL.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// Wire is an API dialect.
type Wire string

// Wire formats.
const (
	Anthropic Wire = "anthropic"
	OpenAI    Wire = "openai"
	Ollama    Wire = "ollama"
	// Gemini is the Gemini API's streamGenerateContent (alt=sse).
	Gemini Wire = "gemini"
)

// Reply is one scripted answer.
type Reply struct {
	// Status, when not 0 or 200, makes an error response with Body (or the
	// wire's standard error JSON for Message) and Header.
	Status  int
	Header  map[string]string
	Body    string
	Message string
	// Text is the answer, streamed in chunks of ChunkSize bytes (default
	// 48) with ChunkDelay between them.
	Text       string
	ChunkSize  int
	ChunkDelay time.Duration
	// Delay holds the response back before anything is sent.
	Delay time.Duration
	// Finish overrides the finish/stop reason (e.g. "content_filter",
	// "length" / "max_tokens").
	Finish string
	// InputTokens, OutputTokens are reported as usage (defaults 100, 200).
	InputTokens, OutputTokens int
	// Hook, when set, runs when the request arrives (before Delay).
	Hook func(r Request)
	// Release, when set, holds the reply until it is closed (or the
	// client goes away): after Delay and before anything is sent, or,
	// with HoldAfter > 0, once that many chunks of the streamed Text are
	// out (HoldAfter must be less than the number of chunks). A test looks
	// at a generation in flight this way, however fast or slow the machine
	// is, instead of racing a Delay.
	Release   <-chan struct{}
	HoldAfter int
	// StreamError, when set (Anthropic), ends the stream after the text's
	// chunks with an SSE error event of this type (e.g. "overloaded_error")
	// instead of message_delta and message_stop, as the Messages API does
	// when it fails after its 200.
	StreamError string
}

// Request is one request the server received.
type Request struct {
	At     time.Time
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// System returns the system prompt of the request (either dialect).
func (r Request) System() string {
	var b struct {
		System   json.RawMessage `json:"system"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	_ = json.Unmarshal(r.Body, &b)
	if len(b.System) > 0 {
		return textOf(b.System)
	}
	for _, m := range b.Messages {
		if m.Role == "system" || m.Role == "developer" {
			return textOf(m.Content)
		}
	}
	return ""
}

// User returns the text of the request's user messages.
func (r Request) User() string {
	var b struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	_ = json.Unmarshal(r.Body, &b)
	var out []string
	for _, m := range b.Messages {
		if m.Role == "user" {
			out = append(out, textOf(m.Content))
		}
	}
	return strings.Join(out, "\n")
}

// Assistant returns the text of the request's assistant messages (earlier
// answers sent back, as on a re-ask).
func (r Request) Assistant() string {
	var b struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	_ = json.Unmarshal(r.Body, &b)
	var out []string
	for _, m := range b.Messages {
		if m.Role == "assistant" || m.Role == "model" {
			out = append(out, textOf(m.Content))
		}
	}
	return strings.Join(out, "\n")
}

// textOf reads a string or an array of {type:"text", text} blocks.
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type, Text string
	}
	_ = json.Unmarshal(raw, &blocks)
	var out []string
	for _, b := range blocks {
		out = append(out, b.Text)
	}
	return strings.Join(out, "")
}

// Server is the stand-in provider.
type Server struct {
	*httptest.Server
	Wire Wire

	mu       sync.Mutex
	queue    []Reply
	fallback Reply
	reqs     []Request
}

// New starts a server for wire; it stops when the test ends. Without
// scripted replies it answers with def.
func New(t testing.TB, wire Wire, def Reply) *Server {
	s := &Server{Wire: wire, fallback: def}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Push queues replies, used before the default one.
func (s *Server) Push(rs ...Reply) {
	s.mu.Lock()
	s.queue = append(s.queue, rs...)
	s.mu.Unlock()
}

// SetDefault replaces the reply used when the queue is empty.
func (s *Server) SetDefault(r Reply) {
	s.mu.Lock()
	s.fallback = r
	s.mu.Unlock()
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Count is the number of model requests received.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reqs)
}

// BaseURL is what the client is configured with: Anthropic's base (the
// SDK appends /v1/messages), OpenAI's .../v1, Ollama's host (OLLAMA_HOST).
func (s *Server) BaseURL() string {
	if s.Wire == OpenAI {
		return s.URL + "/v1"
	}
	return s.URL
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 8<<20))
	want := "/v1/chat/completions"
	switch s.Wire {
	case Anthropic:
		want = "/v1/messages"
	case Gemini:
		want = r.URL.Path
		if !strings.HasPrefix(want, "/v1beta/models/") || !strings.Contains(want, ":streamGenerateContent") && !strings.Contains(want, ":generateContent") {
			want = "/v1beta/models/{model}:streamGenerateContent"
		}
	}
	if r.Method != http.MethodPost || r.URL.Path != want {
		http.Error(w, fmt.Sprintf(`{"error":{"message":"no route %s %s"}}`, r.Method, r.URL.Path), http.StatusNotFound)
		return
	}
	req := Request{At: time.Now(), Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	rep := s.fallback
	if len(s.queue) > 0 {
		rep = s.queue[0]
		s.queue = s.queue[1:]
	}
	s.mu.Unlock()
	if rep.Hook != nil {
		rep.Hook(req)
	}
	var p struct {
		Stream bool   `json:"stream"`
		Model  string `json:"model"`
	}
	_ = json.Unmarshal(body, &p)
	if s.Wire == Gemini {
		p.Stream = strings.Contains(r.URL.Path, ":streamGenerateContent")
	}
	if !sleep(r, rep.Delay) {
		return
	}
	if (rep.HoldAfter <= 0 || !p.Stream) && !hold(r, rep.Release) {
		return
	}
	for k, v := range rep.Header {
		w.Header().Set(k, v)
	}
	if rep.Status != 0 && rep.Status != http.StatusOK {
		b := rep.Body
		if b == "" {
			b = ErrorBody(s.Wire, rep.Status, rep.Message)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.Status)
		_, _ = io.WriteString(w, b)
		return
	}
	if rep.InputTokens == 0 {
		rep.InputTokens = 100
	}
	if rep.OutputTokens == 0 {
		rep.OutputTokens = 200
	}
	if !p.Stream {
		s.whole(w, p.Model, rep)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	emit := func(event string, v any) {
		b, _ := json.Marshal(v)
		if event != "" {
			fmt.Fprintf(w, "event: %s\n", event)
		}
		fmt.Fprintf(w, "data: %s\n\n", b)
		if fl != nil {
			fl.Flush()
		}
	}
	chunks := split(rep.Text, rep.ChunkSize)
	switch s.Wire {
	case Anthropic:
		s.streamAnthropic(r, emit, p.Model, rep, chunks)
	case Gemini:
		s.streamGemini(r, emit, rep, chunks)
	default:
		s.streamOpenAI(r, w, fl, emit, p.Model, rep, chunks)
	}
}

// streamAnthropic writes Messages API events: message_start,
// content_block_start, ping, content_block_delta*, content_block_stop,
// message_delta (stop_reason, usage), message_stop.
func (s *Server) streamAnthropic(r *http.Request, emit func(string, any), model string, rep Reply, chunks []string) {
	emit("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_test", "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": rep.InputTokens, "output_tokens": 1}}})
	emit("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
		"content_block": map[string]any{"type": "text", "text": ""}})
	emit("ping", map[string]any{"type": "ping"})
	for i, c := range chunks {
		if !sleep(r, rep.ChunkDelay) || !holdAt(r, rep, i) {
			return
		}
		emit("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": c}})
	}
	if rep.StreamError != "" {
		emit("error", map[string]any{"type": "error", "error": map[string]any{"type": rep.StreamError, "message": "the stream failed: " + rep.StreamError}})
		return
	}
	emit("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	stop := rep.Finish
	if stop == "" {
		stop = "end_turn"
	}
	emit("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": rep.OutputTokens}})
	emit("message_stop", map[string]any{"type": "message_stop"})
}

// streamGemini writes GenerateContentResponse chunks; the last carries
// finishReason and usageMetadata.
func (s *Server) streamGemini(r *http.Request, emit func(string, any), rep Reply, chunks []string) {
	finish := rep.Finish
	if finish == "" {
		finish = "STOP"
	}
	if len(chunks) == 0 {
		chunks = []string{""}
	}
	for i, c := range chunks {
		if !sleep(r, rep.ChunkDelay) || !holdAt(r, rep, i) {
			return
		}
		cand := map[string]any{"index": 0, "content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": c}}}}
		m := map[string]any{"candidates": []any{cand}, "modelVersion": "gemini-test"}
		if i == len(chunks)-1 {
			cand["finishReason"] = finish
			m["usageMetadata"] = map[string]any{"promptTokenCount": rep.InputTokens, "candidatesTokenCount": rep.OutputTokens,
				"totalTokenCount": rep.InputTokens + rep.OutputTokens}
		}
		emit("", m)
	}
}

// streamOpenAI writes chat.completion.chunk events, a final chunk with the
// finish_reason, a usage chunk (stream_options.include_usage) and [DONE].
func (s *Server) streamOpenAI(r *http.Request, w io.Writer, fl http.Flusher, emit func(string, any), model string, rep Reply, chunks []string) {
	extra := map[string]any{}
	if s.Wire == Ollama {
		extra["system_fingerprint"] = "fp_ollama"
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		m := map[string]any{"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": time.Now().Unix(),
			"model": model, "choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	emit("", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	for i, c := range chunks {
		if !sleep(r, rep.ChunkDelay) || !holdAt(r, rep, i) {
			return
		}
		emit("", chunk(map[string]any{"content": c}, nil))
	}
	finish := rep.Finish
	if finish == "" {
		finish = "stop"
	}
	emit("", chunk(map[string]any{}, finish))
	emit("", map[string]any{"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": time.Now().Unix(),
		"model": model, "choices": []any{},
		"usage": map[string]any{"prompt_tokens": rep.InputTokens, "completion_tokens": rep.OutputTokens,
			"total_tokens": rep.InputTokens + rep.OutputTokens}})
	_, _ = io.WriteString(w, "data: [DONE]\n\n")
	if fl != nil {
		fl.Flush()
	}
}

// whole answers a non-streaming request.
func (s *Server) whole(w http.ResponseWriter, model string, rep Reply) {
	w.Header().Set("Content-Type", "application/json")
	var v any
	if s.Wire == Anthropic {
		stop := rep.Finish
		if stop == "" {
			stop = "end_turn"
		}
		v = map[string]any{"id": "msg_test", "type": "message", "role": "assistant", "model": model,
			"content":     []any{map[string]any{"type": "text", "text": rep.Text}},
			"stop_reason": stop, "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": rep.InputTokens, "output_tokens": rep.OutputTokens}}
	} else {
		finish := rep.Finish
		if finish == "" {
			finish = "stop"
		}
		v = map[string]any{"id": "chatcmpl-test", "object": "chat.completion", "created": time.Now().Unix(), "model": model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": finish,
				"message": map[string]any{"role": "assistant", "content": rep.Text}}},
			"usage": map[string]any{"prompt_tokens": rep.InputTokens, "completion_tokens": rep.OutputTokens,
				"total_tokens": rep.InputTokens + rep.OutputTokens}}
	}
	_ = json.NewEncoder(w).Encode(v)
}

// ErrorBody is the wire's documented error JSON for status.
func ErrorBody(wire Wire, status int, msg string) string {
	if msg == "" {
		msg = http.StatusText(status)
	}
	if wire == Anthropic {
		typ := map[int]string{400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
			404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error", 500: "api_error", 529: "overloaded_error"}[status]
		if typ == "" {
			typ = "api_error"
		}
		b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
		return string(b)
	}
	if wire == Gemini {
		// google.rpc.Status, as the Gemini API documents its errors; a 429
		// says when to retry in a RetryInfo detail, not a header.
		st := map[int]string{400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
			429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"}[status]
		e := map[string]any{"code": status, "message": msg, "status": st}
		if status == http.StatusTooManyRequests {
			e["details"] = []any{map[string]any{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "7s"}}
		}
		b, _ := json.Marshal(map[string]any{"error": e})
		return string(b)
	}
	typ, code := "api_error", any(nil)
	switch status {
	case 400:
		typ = "invalid_request_error"
	case 401:
		typ, code = "invalid_request_error", "invalid_api_key"
	case 429:
		typ, code = "requests", "rate_limit_exceeded"
	case 500:
		typ = "server_error"
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}})
	return string(b)
}

func split(s string, n int) []string {
	if n <= 0 {
		n = 48
	}
	var out []string
	for len(s) > n {
		i := n
		for i > 1 && !utf8.RuneStart(s[i]) {
			i--
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

// sleep waits d unless the client goes away (false then).
func sleep(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

// hold waits until release is closed (at once when it is nil) unless the
// client goes away (false then).
func hold(r *http.Request, release <-chan struct{}) bool {
	if release == nil {
		return true
	}
	select {
	case <-release:
		return true
	case <-r.Context().Done():
		return false
	}
}

// holdAt holds a streamed reply before its chunk i when HoldAfter chunks
// are out.
func holdAt(r *http.Request, rep Reply, i int) bool {
	if rep.HoldAfter <= 0 || i != rep.HoldAfter {
		return true
	}
	return hold(r, rep.Release)
}
