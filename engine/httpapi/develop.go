package httpapi

// The develop loop's routes (contract.API's History, HistoryEntry,
// RerunCall, CompareCalls, Checks, AddCheck, RunChecks):
//
//	History       GET  /api/history?tool=&source=&errors=1&before=&limit=
//	HistoryEntry  GET  /api/history/{id}
//	RerunCall     POST /api/history/{id}/rerun   {"arguments": {...}, "source": "tui"}
//	CompareCalls  POST /api/history/compare      {"a": 1, "b": 2, "ignore": [...]}
//	Checks        GET  /api/checks
//	AddCheck      POST /api/checks               AddCheckRequest
//	RunChecks     POST /api/checks/run           {"names": [...], "update": true}

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

// checksTimeout bounds a run of checks through the API.
const checksTimeout = 30 * time.Minute

func (s *Server) handleHistory(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	hq := contract.HistoryQuery{Tool: q.Get("tool"), Source: q.Get("source"), Errors: q.Get("errors") == "1" || q.Get("errors") == "true"}
	if v := q.Get("before"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			writeAPIError(w, contract.Errorf(contract.CodeInvalidArgument, "before must be a number"))
			return
		}
		hq.Before = n
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			writeAPIError(w, contract.Errorf(contract.CodeInvalidArgument, "limit must be a number"))
			return
		}
		hq.Limit = n
	}
	page, err := s.e.History(r.Context(), hq)
	if err != nil {
		writeAPIError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, page)
}

// historyID reads the {id} path segment.
func historyID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		writeAPIError(w, contract.Errorf(contract.CodeInvalidArgument, "%q is not a call's id", r.PathValue("id")))
		return 0, false
	}
	return id, true
}

func (s *Server) handleHistoryEntry(w http.ResponseWriter, r *http.Request) {
	id, ok := historyID(w, r)
	if !ok {
		return
	}
	h, err := s.e.HistoryEntry(r.Context(), id)
	if err != nil {
		writeAPIError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, h)
}

func (s *Server) handleRerun(w http.ResponseWriter, r *http.Request) {
	id, ok := historyID(w, r)
	if !ok {
		return
	}
	var req contract.RerunRequest
	if !readJSONBody(w, r, &req) {
		return
	}
	req.ID = id
	if req.Source == "" {
		req.Source = contract.SourceAPI
	}
	ctx, cancel := context.WithTimeout(r.Context(), apiCallTimeout)
	defer cancel()
	res, err := s.e.RerunCall(ctx, req)
	if err != nil {
		writeAPIError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) handleCompare(w http.ResponseWriter, r *http.Request) {
	var req contract.CompareRequest
	if !readJSONBody(w, r, &req) {
		return
	}
	d, err := s.e.CompareCalls(r.Context(), req)
	if err != nil {
		writeAPIError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, d)
}

func (s *Server) handleChecks(w http.ResponseWriter, r *http.Request) {
	list, err := s.e.Checks(r.Context())
	if err != nil {
		writeAPIError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

func (s *Server) handleAddCheck(w http.ResponseWriter, r *http.Request) {
	var req contract.AddCheckRequest
	if !readJSONBody(w, r, &req) {
		return
	}
	if req.Source == "" {
		req.Source = contract.SourceAPI
	}
	ctx, cancel := context.WithTimeout(r.Context(), apiCallTimeout)
	defer cancel()
	c, err := s.e.AddCheck(ctx, req)
	if err != nil {
		writeAPIError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, c)
}

func (s *Server) handleRunChecks(w http.ResponseWriter, r *http.Request) {
	var req contract.RunChecksRequest
	if !readJSONBody(w, r, &req) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), checksTimeout)
	defer cancel()
	rep, err := s.e.RunChecks(ctx, req)
	if err != nil {
		writeAPIError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, rep)
}
