package httpapi

import "net/http"

// PendingEvents (contract.API) over HTTP:
//
//	PendingEvents  GET /api/queue   the /wait queue's pending events, left queued
//
// Unlike GET /wait it never drains: the TUI and other watchers look, only
// agents take.

func (s *Server) handlePendingEvents(w http.ResponseWriter, r *http.Request) {
	evs, err := s.e.PendingEvents(r.Context())
	if err != nil {
		writeAPIError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, evs)
}
