package apiclient

import (
	"context"
	"net/http"
	"net/url"

	"github.com/genui-dev/genui/engine/contract"
)

// The host side of contract.API: cancelling calls, answering the
// upstream's requests, roots, the upstream's resources and prompts (routes
// in engine/httpapi/api_host.go).

// CancelCall implements contract.API.
func (c *Client) CancelCall(ctx context.Context, callID string) error {
	return c.do(ctx, http.MethodPost, "/api/calls/"+url.PathEscape(callID)+"/cancel", struct{}{}, nil)
}

// PendingRequests implements contract.API.
func (c *Client) PendingRequests(ctx context.Context) ([]contract.PendingRequest, error) {
	var out []contract.PendingRequest
	return out, c.do(ctx, http.MethodGet, "/api/requests", nil, &out)
}

// AnswerRequest implements contract.API.
func (c *Client) AnswerRequest(ctx context.Context, a contract.Answer) error {
	return c.do(ctx, http.MethodPost, "/api/requests/"+url.PathEscape(a.ID)+"/answer", a, nil)
}

// DraftSamplingAnswer implements contract.API.
func (c *Client) DraftSamplingAnswer(ctx context.Context, id string) (contract.SamplingDraft, error) {
	var d contract.SamplingDraft
	return d, c.do(ctx, http.MethodPost, "/api/requests/"+url.PathEscape(id)+"/draft", struct{}{}, &d)
}

// Roots implements contract.API.
func (c *Client) Roots(ctx context.Context) ([]contract.Root, error) {
	var out []contract.Root
	return out, c.do(ctx, http.MethodGet, "/api/roots", nil, &out)
}

// SetRoots implements contract.API.
func (c *Client) SetRoots(ctx context.Context, roots []contract.Root) ([]contract.Root, error) {
	var out []contract.Root
	if roots == nil {
		roots = []contract.Root{}
	}
	return out, c.do(ctx, http.MethodPut, "/api/roots", roots, &out)
}

// Resources implements contract.API.
func (c *Client) Resources(ctx context.Context) ([]contract.Resource, error) {
	var out []contract.Resource
	return out, c.do(ctx, http.MethodGet, "/api/upstream/resources", nil, &out)
}

// ResourceTemplates implements contract.API.
func (c *Client) ResourceTemplates(ctx context.Context) ([]contract.ResourceTemplate, error) {
	var out []contract.ResourceTemplate
	return out, c.do(ctx, http.MethodGet, "/api/upstream/resource-templates", nil, &out)
}

type uriBody struct {
	URI string `json:"uri"`
}

// ReadResource implements contract.API.
func (c *Client) ReadResource(ctx context.Context, uri string) (contract.ResourceContents, error) {
	var out contract.ResourceContents
	return out, c.do(ctx, http.MethodPost, "/api/upstream/resources/read", uriBody{uri}, &out)
}

// SubscribeResource implements contract.API.
func (c *Client) SubscribeResource(ctx context.Context, uri string) error {
	return c.do(ctx, http.MethodPost, "/api/upstream/resources/subscribe", uriBody{uri}, nil)
}

// UnsubscribeResource implements contract.API.
func (c *Client) UnsubscribeResource(ctx context.Context, uri string) error {
	return c.do(ctx, http.MethodPost, "/api/upstream/resources/unsubscribe", uriBody{uri}, nil)
}

// Prompts implements contract.API.
func (c *Client) Prompts(ctx context.Context) ([]contract.Prompt, error) {
	var out []contract.Prompt
	return out, c.do(ctx, http.MethodGet, "/api/upstream/prompts", nil, &out)
}

// GetPrompt implements contract.API.
func (c *Client) GetPrompt(ctx context.Context, req contract.GetPromptRequest) (contract.PromptResult, error) {
	var out contract.PromptResult
	return out, c.do(ctx, http.MethodPost, "/api/upstream/prompts/get", req, &out)
}

// Ping implements contract.API.
func (c *Client) Ping(ctx context.Context) (contract.PingResult, error) {
	var out contract.PingResult
	return out, c.do(ctx, http.MethodPost, "/api/upstream/ping", struct{}{}, &out)
}

// SetLogLevel implements contract.API.
func (c *Client) SetLogLevel(ctx context.Context, level string) error {
	return c.do(ctx, http.MethodPost, "/api/upstream/log-level", map[string]string{"level": level}, nil)
}

// Complete implements contract.API.
func (c *Client) Complete(ctx context.Context, req contract.CompleteRequest) (contract.Completion, error) {
	var out contract.Completion
	return out, c.do(ctx, http.MethodPost, "/api/upstream/complete", req, &out)
}

// SignIn implements contract.API.
func (c *Client) SignIn(ctx context.Context) (contract.AuthState, error) {
	var out contract.AuthState
	return out, c.do(ctx, http.MethodPost, "/api/upstream/sign-in", struct{}{}, &out)
}

// SignOut implements contract.API.
func (c *Client) SignOut(ctx context.Context) (contract.AuthState, error) {
	var out contract.AuthState
	return out, c.do(ctx, http.MethodPost, "/api/upstream/sign-out", struct{}{}, &out)
}

// Lint implements contract.API.
func (c *Client) Lint(ctx context.Context) (contract.LintReport, error) {
	var out contract.LintReport
	return out, c.do(ctx, http.MethodGet, "/api/lint", nil, &out)
}
