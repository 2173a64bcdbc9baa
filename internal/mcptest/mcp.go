package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
)

// ListAll calls a paginated MCP list method (tools/list, resources/list,
// prompts/list, resources/templates/list) until nextCursor is empty and
// returns the raw items of the array field key ("tools", "resources", ...).
// It gives up after 1000 pages.
func (c *Client) ListAll(ctx context.Context, method, key string) ([]json.RawMessage, error) {
	var all []json.RawMessage
	cursor := ""
	for page := 0; page < 1000; page++ {
		var params any
		if cursor != "" {
			params = map[string]string{"cursor": cursor}
		}
		res, rpcErr, err := c.Request(ctx, method, params)
		if err != nil {
			return nil, err
		}
		if rpcErr != nil {
			return nil, fmt.Errorf("mcptest: %s: %w", method, rpcErr)
		}
		var body map[string]json.RawMessage
		if err := json.Unmarshal(res, &body); err != nil {
			return nil, fmt.Errorf("mcptest: %s: result is not an object: %w", method, err)
		}
		var items []json.RawMessage
		if raw, ok := body[key]; ok {
			if err := json.Unmarshal(raw, &items); err != nil {
				return nil, fmt.Errorf("mcptest: %s: %q is not an array: %w", method, key, err)
			}
		}
		all = append(all, items...)
		cursor = ""
		if raw, ok := body["nextCursor"]; ok {
			_ = json.Unmarshal(raw, &cursor)
		}
		if cursor == "" {
			return all, nil
		}
	}
	return nil, fmt.Errorf("mcptest: %s: more than 1000 pages", method)
}

// Tool is the part of an MCP tool definition tests usually need; Raw keeps
// the whole definition.
type Tool struct {
	Name        string          `json:"name"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
	Raw         json.RawMessage `json:"-"`
}

// ListTools returns every tool of tools/list (all pages).
func (c *Client) ListTools(ctx context.Context) ([]Tool, error) {
	items, err := c.ListAll(ctx, "tools/list", "tools")
	if err != nil {
		return nil, err
	}
	tools := make([]Tool, 0, len(items))
	for _, raw := range items {
		var t Tool
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, fmt.Errorf("mcptest: tools/list: bad tool %s: %w", raw, err)
		}
		t.Raw = raw
		tools = append(tools, t)
	}
	return tools, nil
}

// CallTool sends tools/call with the given arguments (nil means {}) and an
// optional params._meta (nil omits it) and returns the whole response frame.
func (c *Client) CallTool(ctx context.Context, name string, args any, meta any) (json.RawMessage, error) {
	if args == nil {
		args = map[string]any{}
	}
	params := map[string]any{"name": name, "arguments": args}
	if meta != nil {
		params["_meta"] = meta
	}
	res, rpcErr, err := c.Request(ctx, "tools/call", params)
	if err != nil {
		return nil, err
	}
	if rpcErr != nil {
		return nil, fmt.Errorf("mcptest: tools/call %s: %w", name, rpcErr)
	}
	return res, nil
}

// ExampleArgs builds deterministic arguments that satisfy the required part
// of a JSON Schema object: every required property gets its default, the first
// enum value, or a fixed value of its type ("example", 1, true, ...).
// Optional properties are left out.
func ExampleArgs(schema json.RawMessage) map[string]any {
	var s jsonSchema
	_ = json.Unmarshal(schema, &s)
	args := map[string]any{}
	req := append([]string(nil), s.Required...)
	sort.Strings(req)
	for _, name := range req {
		p := s.Properties[name]
		args[name] = exampleValue(p)
	}
	return args
}

type jsonSchema struct {
	Type       any                    `json:"type"`
	Properties map[string]*jsonSchema `json:"properties"`
	Required   []string               `json:"required"`
	Items      *jsonSchema            `json:"items"`
	Enum       []any                  `json:"enum"`
	Const      any                    `json:"const"`
	Default    any                    `json:"default"`
	Minimum    *float64               `json:"minimum"`
	AnyOf      []*jsonSchema          `json:"anyOf"`
	OneOf      []*jsonSchema          `json:"oneOf"`
	MinItems   int                    `json:"minItems"`
}

func exampleValue(s *jsonSchema) any {
	if s == nil {
		return "example"
	}
	switch {
	case s.Const != nil:
		return s.Const
	case s.Default != nil:
		return s.Default
	case len(s.Enum) > 0:
		return s.Enum[0]
	case len(s.AnyOf) > 0:
		return exampleValue(s.AnyOf[0])
	case len(s.OneOf) > 0:
		return exampleValue(s.OneOf[0])
	}
	typ, _ := s.Type.(string)
	if list, ok := s.Type.([]any); ok && len(list) > 0 {
		typ, _ = list[0].(string)
	}
	switch typ {
	case "integer", "number":
		if s.Minimum != nil && *s.Minimum > 1 {
			return *s.Minimum
		}
		return 1
	case "boolean":
		return true
	case "object":
		obj := map[string]any{}
		for _, name := range s.Required {
			obj[name] = exampleValue(s.Properties[name])
		}
		return obj
	case "array":
		arr := []any{}
		for i := 0; i < s.MinItems; i++ {
			arr = append(arr, exampleValue(s.Items))
		}
		return arr
	case "null":
		return nil
	default:
		return "example"
	}
}
