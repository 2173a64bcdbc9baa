package httpapi

// The host side of contract.API over HTTP: cancelling calls, answering the
// upstream's requests, roots, the upstream's resources and prompts.
// Streaming parts (call progress, task status, requests awaiting an
// answer, resource updates) flow through GET /events.
//
//	CancelCall           POST /api/calls/{id}/cancel
//	PendingRequests      GET  /api/requests
//	AnswerRequest        POST /api/requests/{id}/answer   {"result": {...}} | {"reject": "..."}, "source"
//	DraftSamplingAnswer  POST /api/requests/{id}/draft
//	Roots                GET  /api/roots
//	SetRoots             PUT  /api/roots
//	Resources            GET  /api/upstream/resources
//	ResourceTemplates    GET  /api/upstream/resource-templates
//	ReadResource         POST /api/upstream/resources/read         {"uri": "..."}
//	SubscribeResource    POST /api/upstream/resources/subscribe    {"uri": "..."}
//	UnsubscribeResource  POST /api/upstream/resources/unsubscribe  {"uri": "..."}
//	Prompts              GET  /api/upstream/prompts
//	GetPrompt            POST /api/upstream/prompts/get            {"name": "...", "arguments": {...}}
//	Ping                 POST /api/upstream/ping
//	SetLogLevel          POST /api/upstream/log-level              {"level": "debug"}
//	Complete             POST /api/upstream/complete               contract.CompleteRequest
//	Lint                 GET  /api/lint
//	SignIn               POST /api/upstream/sign-in
//	SignOut              POST /api/upstream/sign-out

import (
	"context"
	"net/http"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

// draftTimeout bounds an LLM draft of a sampling answer.
const draftTimeout = 3 * time.Minute

// answer writes v, or the error body.
func answer[T any](w http.ResponseWriter, v T, err error) {
	if err != nil {
		writeAPIError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) handleCancelCall(w http.ResponseWriter, r *http.Request) {
	if err := s.e.CancelCall(r.Context(), r.PathValue("id")); err != nil {
		writeAPIError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"cancelled": true})
}

func (s *Server) handlePendingRequests(w http.ResponseWriter, r *http.Request) {
	reqs, err := s.e.PendingRequests(r.Context())
	answer(w, reqs, err)
}

func (s *Server) handleAnswerRequest(w http.ResponseWriter, r *http.Request) {
	var a contract.Answer
	if !readJSONBody(w, r, &a) {
		return
	}
	a.ID = r.PathValue("id")
	if a.Source == "" {
		a.Source = contract.SourceAPI
	}
	if err := s.e.AnswerRequest(r.Context(), a); err != nil {
		writeAPIError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"answered": true})
}

func (s *Server) handleDraftSampling(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), draftTimeout)
	defer cancel()
	d, err := s.e.DraftSamplingAnswer(ctx, r.PathValue("id"))
	answer(w, d, err)
}

func (s *Server) handleRoots(w http.ResponseWriter, r *http.Request) {
	roots, err := s.e.Roots(r.Context())
	answer(w, roots, err)
}

func (s *Server) handleSetRoots(w http.ResponseWriter, r *http.Request) {
	var roots []contract.Root
	if !readJSONBody(w, r, &roots) {
		return
	}
	out, err := s.e.SetRoots(r.Context(), roots)
	answer(w, out, err)
}

func (s *Server) handleResources(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), apiCallTimeout)
	defer cancel()
	res, err := s.e.Resources(ctx)
	answer(w, res, err)
}

func (s *Server) handleResourceTemplates(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), apiCallTimeout)
	defer cancel()
	res, err := s.e.ResourceTemplates(ctx)
	answer(w, res, err)
}

// uriBody is the body of the resource routes.
type uriBody struct {
	URI string `json:"uri"`
}

func (s *Server) handleReadResource(w http.ResponseWriter, r *http.Request) {
	var b uriBody
	if !readJSONBody(w, r, &b) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), frameTimeout)
	defer cancel()
	c, err := s.e.ReadResource(ctx, b.URI)
	answer(w, c, err)
}

func (s *Server) handleResourceSubscription(subscribe bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var b uriBody
		if !readJSONBody(w, r, &b) {
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), apiCallTimeout)
		defer cancel()
		var err error
		if subscribe {
			err = s.e.SubscribeResource(ctx, b.URI)
		} else {
			err = s.e.UnsubscribeResource(ctx, b.URI)
		}
		answer(w, map[string]bool{"subscribed": subscribe}, err)
	}
}

func (s *Server) handlePrompts(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), apiCallTimeout)
	defer cancel()
	p, err := s.e.Prompts(ctx)
	answer(w, p, err)
}

func (s *Server) handleGetPrompt(w http.ResponseWriter, r *http.Request) {
	var req contract.GetPromptRequest
	if !readJSONBody(w, r, &req) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), apiCallTimeout)
	defer cancel()
	p, err := s.e.GetPrompt(ctx, req)
	answer(w, p, err)
}

func (s *Server) handlePing(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), frameTimeout)
	defer cancel()
	p, err := s.e.Ping(ctx)
	answer(w, p, err)
}

// logLevelBody is SetLogLevel's body.
type logLevelBody struct {
	Level string `json:"level"`
}

func (s *Server) handleSetLogLevel(w http.ResponseWriter, r *http.Request) {
	var b logLevelBody
	if !readJSONBody(w, r, &b) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), frameTimeout)
	defer cancel()
	answer(w, b, s.e.SetLogLevel(ctx, b.Level))
}

func (s *Server) handleComplete(w http.ResponseWriter, r *http.Request) {
	var req contract.CompleteRequest
	if !readJSONBody(w, r, &req) {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), frameTimeout)
	defer cancel()
	c, err := s.e.Complete(ctx, req)
	answer(w, c, err)
}

func (s *Server) handleSignIn(w http.ResponseWriter, r *http.Request) {
	a, err := s.e.SignIn(r.Context())
	answer(w, a, err)
}

func (s *Server) handleSignOut(w http.ResponseWriter, r *http.Request) {
	a, err := s.e.SignOut(r.Context())
	answer(w, a, err)
}

func (s *Server) handleLint(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), apiCallTimeout)
	defer cancel()
	rep, err := s.e.Lint(ctx)
	answer(w, rep, err)
}
