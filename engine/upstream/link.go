package upstream

import (
	"context"
	"encoding/json"

	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// link is the message layer of one connection: lineLink (our own, byte
// exact) for stdio and in-process upstreams, mcpLink (mcp-go's transports)
// for HTTP and SSE.
type link interface {
	// call sends a request and waits for its response. A JSON-RPC error
	// answer is a message with Error set; an error means no answer came
	// (ctx ended, the connection broke).
	call(ctx context.Context, id int64, method string, params json.RawMessage) (*jsonrpc.Message, error)
	// notify sends a notification; params are a JSON object or empty.
	notify(ctx context.Context, method string, params json.RawMessage) error
	// close releases the transport; it may block briefly (HTTP DELETE).
	close() error
}

// mcpLink adapts an mcp-go client transport. Results and errors stay raw;
// incoming notification and server-request params are decoded by mcp-go
// (see the package README for that limitation).
type mcpLink struct{ tr transport.Interface }

func (l mcpLink) call(ctx context.Context, id int64, method string, params json.RawMessage) (*jsonrpc.Message, error) {
	req := transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(id), Method: method}
	if len(params) > 0 {
		req.Params = params // a nil RawMessage in an interface would encode as null
	}
	resp, err := l.tr.SendRequest(ctx, req)
	if err != nil {
		return nil, err
	}
	if resp == nil {
		return nil, nil // convertResponse reports it
	}
	m := &jsonrpc.Message{JSONRPC: "2.0", Result: resp.Result}
	if resp.Error != nil {
		m.Error = &jsonrpc.Error{Code: resp.Error.Code, Message: resp.Error.Message}
		if resp.Error.Data != nil {
			if b, err := json.Marshal(resp.Error.Data); err == nil {
				m.Error.Data = b
			}
		}
	}
	return m, nil
}

func (l mcpLink) notify(ctx context.Context, method string, params json.RawMessage) error {
	p, err := toNotificationParams(params)
	if err != nil {
		return jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "invalid params for %s: %v", method, err)
	}
	n := mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION, Notification: mcp.Notification{Method: method, Params: p}}
	return l.tr.SendNotification(ctx, n)
}

func (l mcpLink) close() error { return l.tr.Close() }
