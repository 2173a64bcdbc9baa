package upstream

import (
	"context"
	"encoding/json"
	"strconv"

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
// Its frames are traced as built from what mcp-go hands over (the bytes on
// the wire are mcp-go's).
type mcpLink struct {
	tr     transport.Interface
	tracer Tracer
	// auth, when the upstream may need a sign-in: a 401 refreshes the
	// token and sends the request once more; a second 401 fails cn so Run
	// signs in.
	auth *authFlow
	cn   *conn
}

func (l mcpLink) call(ctx context.Context, id int64, method string, params json.RawMessage) (*jsonrpc.Message, error) {
	req := transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(id), Method: method}
	if len(params) > 0 {
		req.Params = params // a nil RawMessage in an interface would encode as null
	}
	idb := strconv.AppendInt(nil, id, 10)
	if t := tracing(l.tracer); t != nil {
		t.Frame(true, jsonrpc.NewRequest(idb, method, params))
	}
	resp, err := l.tr.SendRequest(ctx, req)
	if err != nil && l.auth != nil && unauthorizedError(err) {
		if l.auth.refreshAfter401(ctx) {
			resp, err = l.tr.SendRequest(ctx, req)
		}
		if err != nil && unauthorizedError(err) && method != "initialize" {
			l.auth.unauthorized()
			l.cn.fail("the upstream needs sign-in (HTTP 401)")
		}
	}
	if err != nil {
		return nil, err
	}
	if resp == nil {
		return nil, nil // convertResponse reports it
	}
	m := &jsonrpc.Message{JSONRPC: "2.0", ID: idb, Result: resp.Result}
	if resp.Error != nil {
		m.Error = &jsonrpc.Error{Code: resp.Error.Code, Message: resp.Error.Message}
		if resp.Error.Data != nil {
			if b, err := json.Marshal(resp.Error.Data); err == nil {
				m.Error.Data = b
			}
		}
	}
	if t := tracing(l.tracer); t != nil {
		if m.Error != nil {
			t.Frame(false, jsonrpc.NewErrorResponse(idb, m.Error))
		} else {
			t.Frame(false, jsonrpc.NewResult(idb, m.Result))
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
	if err := l.tr.SendNotification(ctx, n); err != nil {
		return err
	}
	if t := tracing(l.tracer); t != nil {
		t.Frame(true, jsonrpc.NewNotification(method, params))
	}
	return nil
}

func (l mcpLink) close() error { return l.tr.Close() }
