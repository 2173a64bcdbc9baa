package engine

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/pagepack"
)

// The upstream's resources, resource templates and prompts for genui's
// surfaces (contract.API): lists fetched page by page (bounded), reads of
// text and blob contents (genui's own ui:// UIs from the engine), resource
// subscriptions, prompts with their arguments filled in.

// maxListPages bounds how many pages a list follows.
const maxListPages = 1000

// listAll fetches every page of a list method and returns the items under
// key, verbatim.
func (e *Engine) listAll(ctx context.Context, method, key string) ([]json.RawMessage, error) {
	if err := e.relay.Wait(ctx); err != nil {
		return nil, err
	}
	var all []json.RawMessage
	var cursor string
	for range maxListPages {
		var params json.RawMessage
		if cursor != "" {
			params, _ = json.Marshal(map[string]string{"cursor": cursor})
		}
		res, err := e.relay.request(ctx, method, params)
		if err != nil {
			return nil, upstreamError(method, err)
		}
		var page map[string]json.RawMessage
		if err := json.Unmarshal(res, &page); err != nil {
			return nil, contract.Errorf(contract.CodeUpstreamError, "%s: malformed result: %v", method, err)
		}
		var items []json.RawMessage
		if raw, ok := page[key]; ok {
			if err := json.Unmarshal(raw, &items); err != nil {
				return nil, contract.Errorf(contract.CodeUpstreamError, "%s: %s is not a list: %v", method, key, err)
			}
		}
		all = append(all, items...)
		var next string
		_ = json.Unmarshal(page["nextCursor"], &next)
		if next == "" || next == cursor {
			return all, nil
		}
		cursor = next
	}
	return nil, contract.Errorf(contract.CodeUpstreamError, "%s: more than %d pages; giving up", method, maxListPages)
}

// capable reports whether the upstream declared a server capability; an
// upstream that did not gets an empty list rather than a -32601.
func (e *Engine) capable(name string) bool {
	var r struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	if json.Unmarshal(e.relay.InitializeResult(), &r) != nil {
		return true // not known yet: ask
	}
	v, ok := r.Capabilities[name]
	return ok && string(v) != "null"
}

// Resources lists the upstream's resources.
func (e *Engine) Resources(ctx context.Context) ([]contract.Resource, error) {
	if !e.capable("resources") {
		return []contract.Resource{}, nil
	}
	raws, err := e.listAll(ctx, "resources/list", "resources")
	if err != nil {
		return nil, err
	}
	out := make([]contract.Resource, 0, len(raws))
	for _, raw := range raws {
		var r contract.Resource
		if json.Unmarshal(raw, &r) != nil || r.URI == "" {
			e.log.Warn("skipping a malformed resource from the upstream", "resource", clipText(string(raw)))
			continue
		}
		r.Raw = raw
		out = append(out, r)
	}
	return out, nil
}

// ResourceTemplates lists the upstream's resource templates.
func (e *Engine) ResourceTemplates(ctx context.Context) ([]contract.ResourceTemplate, error) {
	if !e.capable("resources") {
		return []contract.ResourceTemplate{}, nil
	}
	raws, err := e.listAll(ctx, "resources/templates/list", "resourceTemplates")
	if err != nil {
		return nil, err
	}
	out := make([]contract.ResourceTemplate, 0, len(raws))
	for _, raw := range raws {
		var t contract.ResourceTemplate
		if json.Unmarshal(raw, &t) != nil || t.URITemplate == "" {
			e.log.Warn("skipping a malformed resource template from the upstream", "template", clipText(string(raw)))
			continue
		}
		t.Arguments = contract.TemplateVariables(t.URITemplate)
		t.Raw = raw
		out = append(out, t)
	}
	return out, nil
}

// ReadResource reads a resource: a genui ui:// UI from the engine, anything
// else from the upstream.
func (e *Engine) ReadResource(ctx context.Context, uri string) (contract.ResourceContents, error) {
	if strings.TrimSpace(uri) == "" {
		return contract.ResourceContents{}, contract.Errorf(contract.CodeInvalidArgument, "a resource URI is required")
	}
	if strings.HasPrefix(uri, pagepack.DeferredPrefix) {
		blob, ok := pagepack.Deferred(uri)
		if !ok {
			return contract.ResourceContents{}, contract.Errorf(contract.CodeNotFound, "resource %s: not a page block of this genui build (a page another build made: generate it again)", clipName(uri))
		}
		c := contract.ResourceContents{URI: uri, Contents: []contract.ResourceContent{{URI: uri, MIMEType: pagepack.DeferredMIME, Blob: blob}}}
		c.Raw, _ = json.Marshal(map[string]any{"contents": c.Contents})
		return c, nil
	}
	if name, ok := contract.ToolFromURI(uri); ok {
		if t, ok := e.tools.Get(name); ok && t.HasGeneratedUI() {
			ui, err := e.ui.read(ctx, t)
			if err != nil {
				return contract.ResourceContents{}, contract.AsError(err)
			}
			html := ui.HTML
			c := contract.ResourceContents{URI: uri, Contents: []contract.ResourceContent{{URI: uri, MIMEType: contract.MIMEApp, Text: &html}}}
			c.Raw, _ = json.Marshal(map[string]any{"contents": c.Contents})
			return c, nil
		}
	}
	if err := e.relay.Wait(ctx); err != nil {
		return contract.ResourceContents{}, err
	}
	params, _ := json.Marshal(map[string]string{"uri": uri})
	res, err := e.relay.request(ctx, "resources/read", params)
	if err != nil {
		return contract.ResourceContents{}, upstreamError("resources/read "+clipName(uri), err)
	}
	var rr struct {
		Contents []contract.ResourceContent `json:"contents"`
	}
	if err := json.Unmarshal(res, &rr); err != nil {
		return contract.ResourceContents{}, contract.Errorf(contract.CodeUpstreamError, "resources/read %s: malformed result: %v", clipName(uri), err)
	}
	if rr.Contents == nil {
		rr.Contents = []contract.ResourceContent{}
	}
	return contract.ResourceContents{URI: uri, Contents: rr.Contents, Raw: res}, nil
}

// SubscribeResource asks the upstream for updates of a resource.
func (e *Engine) SubscribeResource(ctx context.Context, uri string) error {
	return e.subscription(ctx, "resources/subscribe", uri)
}

// UnsubscribeResource stops the updates of a resource.
func (e *Engine) UnsubscribeResource(ctx context.Context, uri string) error {
	return e.subscription(ctx, "resources/unsubscribe", uri)
}

func (e *Engine) subscription(ctx context.Context, method, uri string) error {
	if strings.TrimSpace(uri) == "" {
		return contract.Errorf(contract.CodeInvalidArgument, "a resource URI is required")
	}
	if err := e.relay.Wait(ctx); err != nil {
		return err
	}
	var r struct {
		Capabilities struct {
			Resources struct {
				Subscribe bool `json:"subscribe"`
			} `json:"resources"`
		} `json:"capabilities"`
	}
	if json.Unmarshal(e.relay.InitializeResult(), &r) == nil && !r.Capabilities.Resources.Subscribe {
		return contract.Errorf(contract.CodeUnavailable, "the upstream does not support resource subscriptions (capabilities.resources.subscribe)")
	}
	params, _ := json.Marshal(map[string]string{"uri": uri})
	if _, err := e.relay.request(ctx, method, params); err != nil {
		return upstreamError(method+" "+clipName(uri), err)
	}
	return nil
}

// Prompts lists the upstream's prompts.
func (e *Engine) Prompts(ctx context.Context) ([]contract.Prompt, error) {
	if !e.capable("prompts") {
		return []contract.Prompt{}, nil
	}
	raws, err := e.listAll(ctx, "prompts/list", "prompts")
	if err != nil {
		return nil, err
	}
	out := make([]contract.Prompt, 0, len(raws))
	for _, raw := range raws {
		var p contract.Prompt
		if json.Unmarshal(raw, &p) != nil || p.Name == "" {
			e.log.Warn("skipping a malformed prompt from the upstream", "prompt", clipText(string(raw)))
			continue
		}
		if p.Arguments == nil {
			p.Arguments = []contract.PromptArgument{}
		}
		p.Raw = raw
		out = append(out, p)
	}
	return out, nil
}

// GetPrompt gets a prompt with its arguments.
func (e *Engine) GetPrompt(ctx context.Context, req contract.GetPromptRequest) (contract.PromptResult, error) {
	if req.Name == "" {
		return contract.PromptResult{}, contract.Errorf(contract.CodeInvalidArgument, "a prompt name is required")
	}
	if err := e.relay.Wait(ctx); err != nil {
		return contract.PromptResult{}, err
	}
	p := map[string]any{"name": req.Name}
	if len(req.Arguments) > 0 {
		p["arguments"] = req.Arguments
	}
	params, _ := json.Marshal(p)
	res, err := e.relay.request(ctx, "prompts/get", params)
	if err != nil {
		return contract.PromptResult{}, upstreamError("prompts/get "+clipName(req.Name), err)
	}
	var pr contract.PromptResult
	if err := json.Unmarshal(res, &pr); err != nil {
		return contract.PromptResult{}, contract.Errorf(contract.CodeUpstreamError, "prompts/get %s: malformed result: %v", clipName(req.Name), err)
	}
	if len(pr.Messages) == 0 {
		pr.Messages = json.RawMessage("[]")
	}
	pr.Raw = res
	return pr, nil
}
