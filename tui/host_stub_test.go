package tui

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/genui-dev/genui/engine/contract"
)

// hostStub is stubAPI with the host side of the API: a call of "zeta"
// reports progress and runs until CancelCall; requests are answered and
// drafted; resources and prompts come from fixed data.
type hostStub struct {
	*stubAPI
	running   map[string]chan struct{}
	steps     []contract.CallProgress
	pendReqs  []contract.PendingRequest
	resources []contract.Resource
	templates []contract.ResourceTemplate
	contents  map[string]contract.ResourceContents
	prompts   []contract.Prompt
	roots     []contract.Root // nil: one fixed root
}

func newHostStub() *hostStub {
	three := 3.0
	return &hostStub{stubAPI: newStub(), running: map[string]chan struct{}{},
		steps: []contract.CallProgress{{Progress: 1, Total: &three, Message: "step one"}, {Progress: 2, Total: &three, Message: "step two"}}}
}

func (s *hostStub) CallTool(ctx context.Context, req contract.CallRequest) (contract.CallResult, error) {
	if req.Name != "zeta" {
		return s.stubAPI.CallTool(ctx, req)
	}
	if err := s.record("CallTool %s %s %s", req.Name, req.Arguments, req.Source); err != nil {
		return contract.CallResult{}, err
	}
	done := make(chan struct{})
	s.mu.Lock()
	s.running[req.CallID] = done
	s.mu.Unlock()
	for _, p := range s.steps {
		p.CallID = req.CallID
		s.events <- contract.Event{Kind: contract.EventCallProgress, Tool: req.Name, Detail: &p}
	}
	select {
	case <-done:
		return contract.CallResult{}, contract.Errorf(contract.CodeCancelled, "the call of zeta was cancelled")
	case <-ctx.Done():
		return contract.CallResult{}, ctx.Err()
	}
}

func (s *hostStub) CancelCall(ctx context.Context, id string) error {
	if err := s.record("CancelCall %s", id); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	done, ok := s.running[id]
	if !ok {
		return contract.Errorf(contract.CodeNotFound, "no call %s runs", id)
	}
	delete(s.running, id)
	close(done)
	return nil
}

func (s *hostStub) PendingRequests(ctx context.Context) ([]contract.PendingRequest, error) {
	return s.pendReqs, s.record("PendingRequests")
}

func (s *hostStub) AnswerRequest(ctx context.Context, a contract.Answer) error {
	return s.record("AnswerRequest %s %s %s reject=%q", a.ID, a.Source, a.Result, a.Reject)
}

func (s *hostStub) DraftSamplingAnswer(ctx context.Context, id string) (contract.SamplingDraft, error) {
	if err := s.record("DraftSamplingAnswer %s", id); err != nil {
		return contract.SamplingDraft{}, err
	}
	return contract.SamplingDraft{ID: id, Text: "a drafted answer", Provider: "anthropic", Model: "claude-test",
		Result: contract.SamplingResult("claude-test", "a drafted answer")}, nil
}

func (s *hostStub) Roots(ctx context.Context) ([]contract.Root, error) {
	s.mu.Lock()
	roots := s.roots
	s.mu.Unlock()
	if roots == nil {
		roots = []contract.Root{{URI: "file:///work/project", Name: "project"}}
	}
	return roots, s.record("Roots")
}

func (s *hostStub) SetRoots(ctx context.Context, roots []contract.Root) ([]contract.Root, error) {
	b, _ := json.Marshal(roots)
	if err := s.record("SetRoots %s", b); err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.roots = append([]contract.Root{}, roots...)
	s.mu.Unlock()
	return roots, nil
}

func (s *hostStub) Resources(ctx context.Context) ([]contract.Resource, error) {
	return s.resources, s.record("Resources")
}

func (s *hostStub) ResourceTemplates(ctx context.Context) ([]contract.ResourceTemplate, error) {
	return s.templates, s.record("ResourceTemplates")
}

func (s *hostStub) ReadResource(ctx context.Context, uri string) (contract.ResourceContents, error) {
	if err := s.record("ReadResource %s", uri); err != nil {
		return contract.ResourceContents{}, err
	}
	c, ok := s.contents[uri]
	if !ok {
		return contract.ResourceContents{}, contract.Errorf(contract.CodeNotFound, "no resource %s", uri)
	}
	return c, nil
}

func (s *hostStub) SubscribeResource(ctx context.Context, uri string) error {
	return s.record("SubscribeResource %s", uri)
}

func (s *hostStub) UnsubscribeResource(ctx context.Context, uri string) error {
	return s.record("UnsubscribeResource %s", uri)
}

func (s *hostStub) Prompts(ctx context.Context) ([]contract.Prompt, error) {
	return s.prompts, s.record("Prompts")
}

func (s *hostStub) GetPrompt(ctx context.Context, req contract.GetPromptRequest) (contract.PromptResult, error) {
	b, _ := json.Marshal(req.Arguments)
	if err := s.record("GetPrompt %s %s", req.Name, b); err != nil {
		return contract.PromptResult{}, err
	}
	msgs := fmt.Sprintf(`[{"role":"user","content":{"type":"text","text":"prompt %s with %s"}}]`, req.Name, b)
	return contract.PromptResult{Description: "a prompt", Messages: json.RawMessage(msgs)}, nil
}

// stopAll ends the calls still running (the end of a test).
func (s *hostStub) stopAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, done := range s.running {
		close(done)
		delete(s.running, id)
	}
}
