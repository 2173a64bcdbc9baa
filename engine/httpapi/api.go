package httpapi

// The engine's front door (contract.API) over HTTP: one route per method
// (declared in contract.Methods, registered by routes() from it), one error body ({"error": "...", "code": "..."}). engine/apiclient is the
// client; engine/apitest runs the same conformance suite against both.
//
//	State         GET  /state
//	Variables     GET  /variables            (JSON; browsers get a page)
//	Tools         GET  /api/tools
//	Inspect       GET  /api/tools/{name}
//	UI            GET  /api/tools/{name}/ui
//	Preview       GET  /api/tools/{name}/preview
//	Refine        POST /api/tools/{name}/refine      {"feedback": "...", "source": "tui"}
//	Regenerate    POST /api/tools/{name}/regenerate  {"clearRefinements": true, "source": "tui"}
//	CallTool      POST /api/tool/{name}[?source=tui&call=ID&task=1] body: the arguments object
//	              (progress, task status and the upstream's requests arrive on /events;
//	              closing the request, or POST /api/calls/{ID}/cancel, cancels the call)
//	RefreshTools  POST /api/refresh
//	Subscribe     GET  /events                       (server-sent events)
//	RecentTraffic GET  /api/traffic?after=N&limit=N

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/host"
)

// apiCallTimeout bounds one tool call through the HTTP API.
const apiCallTimeout = 5 * time.Minute

// writeAPIError writes the one error body every API route uses.
func writeAPIError(w http.ResponseWriter, err error) {
	e := contract.AsError(err)
	writeJSON(w, contract.HTTPStatus(e.Code), e)
}

// readJSONBody decodes a JSON object body (empty means {}) into v.
func readJSONBody(w http.ResponseWriter, r *http.Request, v any) bool {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeJSON(w, http.StatusRequestEntityTooLarge, contract.Errorf(contract.CodeInvalidArgument, "body larger than %d bytes", MaxBodyBytes))
			return false
		}
		writeAPIError(w, contract.Errorf(contract.CodeInvalidArgument, "reading body: %v", err))
		return false
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		body = []byte("{}")
	}
	if err := json.Unmarshal(body, v); err != nil {
		writeAPIError(w, contract.Errorf(contract.CodeInvalidArgument, "body must be a JSON object: %v", err))
		return false
	}
	return true
}

func (s *Server) handleState(w http.ResponseWriter, r *http.Request) {
	st, err := s.e.State(r.Context())
	if err != nil {
		writeAPIError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

func (s *Server) handleTools(w http.ResponseWriter, r *http.Request) {
	tools, err := s.e.Tools(r.Context())
	if err != nil {
		writeAPIError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, tools)
}

func (s *Server) handleInspect(w http.ResponseWriter, r *http.Request) {
	in, err := s.e.Inspect(r.Context(), r.PathValue("name"))
	if err != nil {
		writeAPIError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, in)
}

func (s *Server) handleUI(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), frameTimeout)
	defer cancel()
	read := s.e.UI
	if q := r.URL.Query().Get("readable"); q == "1" || q == "true" {
		read = s.e.ReadableUI // ReadableUI
	}
	v, err := read(ctx, r.PathValue("name"))
	if err != nil {
		writeAPIError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// handleDropRefinement serves DropRefinement: the tool from the path, the
// index (and the feedback it must have) in the body.
func (s *Server) handleDropRefinement(w http.ResponseWriter, r *http.Request) {
	var req contract.DropRefinementRequest
	if !readJSONBody(w, r, &req) {
		return
	}
	req.Tool = r.PathValue("name")
	if req.Source == "" {
		req.Source = contract.SourceAPI
	}
	ctx, cancel := context.WithTimeout(r.Context(), frameTimeout)
	defer cancel()
	ch, err := s.e.DropRefinement(ctx, req)
	if err != nil {
		writeAPIError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ch)
}

func (s *Server) handlePreviewInfo(w http.ResponseWriter, r *http.Request) {
	p, err := s.e.Preview(r.Context(), r.PathValue("name"))
	if err != nil {
		writeAPIError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// handleUIChange serves Refine and Regenerate: the same body (each reads
// its fields; an absent source is SourceAPI), the tool from the path, the
// same bound and the same answer, a UIChange.
func (s *Server) handleUIChange(regenerate bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Feedback          string `json:"feedback"`
			ClearRefinements  bool   `json:"clearRefinements"`
			Source            string `json:"source"`
			RequireUnderstood bool   `json:"requireUnderstood"`
		}
		if !readJSONBody(w, r, &body) {
			return
		}
		if body.Source == "" {
			body.Source = contract.SourceAPI
		}
		tool := r.PathValue("name")
		ctx, cancel := context.WithTimeout(r.Context(), frameTimeout)
		defer cancel()
		var ch contract.UIChange
		var err error
		if regenerate {
			ch, err = s.e.Regenerate(ctx, contract.RegenerateRequest{Tool: tool, ClearRefinements: body.ClearRefinements, Source: body.Source})
		} else {
			ch, err = s.e.Refine(ctx, contract.RefineRequest{Tool: tool, Feedback: body.Feedback, Source: body.Source,
				RequireUnderstood: body.RequireUnderstood})
		}
		if err != nil {
			writeAPIError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, ch)
	}
}

func (s *Server) handleRefresh(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
	defer cancel()
	d, err := s.e.RefreshTools(ctx)
	if err != nil {
		writeAPIError(w, contract.Errorf(contract.CodeUpstreamError, "%v", err))
		return
	}
	writeJSON(w, http.StatusOK, d)
}

// handleToolCall calls any tool: an upstream tool through the engine, or
// one of genui's own _ui_* tools through the MCP host. The body is the
// arguments object; the answer is {"result": CallToolResult, "isError",
// "duration"} or the error body.
func (s *Server) handleToolCall(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	var args map[string]json.RawMessage
	if !readJSONBody(w, r, &args) {
		return
	}
	if args == nil {
		writeAPIError(w, contract.Errorf(contract.CodeInvalidArgument, "body must be a JSON object of tool arguments"))
		return
	}
	raw, _ := json.Marshal(args)
	ctx, cancel := context.WithTimeout(r.Context(), apiCallTimeout)
	defer cancel()
	if host.IsWrapper(name) && s.h != nil {
		if _, upstreamHasIt := s.tools.Get(name); !upstreamHasIt {
			s.e.Push(contract.SourceAPI, "tools/call", name, map[string]any{"arguments": json.RawMessage(raw)})
			start := time.Now()
			res, err := s.h.CallWrapper(ctx, name, raw)
			if err != nil {
				writeAPIError(w, contract.Errorf(contract.CodeInternal, "%s: %s", name, errorText(err)))
				return
			}
			var r struct {
				IsError bool `json:"isError"`
			}
			_ = json.Unmarshal(res, &r)
			writeJSON(w, http.StatusOK, contract.CallResult{Result: res, IsError: r.IsError, Duration: time.Since(start)})
			return
		}
	}
	q := r.URL.Query()
	source := q.Get("source")
	if source == "" {
		source = contract.SourceAPI
	}
	task := q.Get("task") == "1" || q.Get("task") == "true"
	res, err := s.e.CallTool(ctx, contract.CallRequest{Name: name, Arguments: raw, Source: source, CallID: q.Get("call"), Task: task})
	if err != nil {
		writeAPIError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// handleEvents streams engine events as server-sent events until the client
// leaves: "id: SEQ", "event: KIND", "data: the JSON envelope".
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	ch, err := s.e.Subscribe(r.Context())
	if err != nil {
		writeAPIError(w, err)
		return
	}
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, ": genui events\n\n")
	if err := rc.Flush(); err != nil {
		return
	}
	tick := time.NewTicker(25 * time.Second)
	defer tick.Stop()
	// send writes one chunk; a client that stops reading cannot hold this
	// goroutine (and its subscription) beyond sseWriteTimeout.
	send := func(chunk string) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(sseWriteTimeout))
		if _, err := io.WriteString(w, chunk); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				return
			}
			b, err := json.Marshal(ev)
			if err != nil {
				s.log.Error("encoding an event", "kind", ev.Kind, "err", err)
				continue
			}
			if !send(fmt.Sprintf("id: %s\nevent: %s\ndata: %s\n\n", strconv.FormatInt(ev.Seq, 10), ev.Kind, b)) {
				return
			}
		case <-tick.C:
			if !send(": keep-alive\n\n") {
				return
			}
		case <-r.Context().Done():
			return
		}
	}
}

func (s *Server) handleRecentTraffic(w http.ResponseWriter, r *http.Request) {
	var q contract.TrafficQuery
	qs := r.URL.Query()
	if v := qs.Get("after"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			writeAPIError(w, contract.Errorf(contract.CodeInvalidArgument, "after: not a traffic number: %q", v))
			return
		}
		q.After = n
	}
	if v := qs.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			writeAPIError(w, contract.Errorf(contract.CodeInvalidArgument, "limit: not a count: %q", v))
			return
		}
		q.Limit = n
	}
	page, err := s.e.RecentTraffic(r.Context(), q)
	if err != nil {
		writeAPIError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, page)
}
