// Package apiclient is the HTTP implementation of contract.API: a client of a
// running genui's side server (genui mcp, serve or an in-process TUI). The
// TUI uses it when it attaches to a genui started elsewhere (Claude Code
// running `genui mcp`). It passes the same conformance suite as the
// in-process engine (engine/apitest).
package apiclient

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

// DefaultTimeout bounds a call whose context has no deadline (a refine with
// a slow LLM can take minutes; nothing may hang forever).
const DefaultTimeout = 10 * time.Minute

// maxBody bounds a response body (a UI is at most a few hundred KB; State
// of thousands of tools a few MB).
const maxBody = 64 << 20

// maxEventLine bounds one server-sent event line.
const maxEventLine = 8 << 20

// Client talks to one genui side server. It is safe for concurrent use.
type Client struct {
	base string
	hc   *http.Client
}

var _ contract.API = (*Client)(nil)

// New returns a client of the side server at base (e.g.
// "http://127.0.0.1:7331"). hc nil means a client with no overall timeout:
// every call is bounded by its context (DefaultTimeout when it has none).
func New(base string, hc *http.Client) *Client {
	if hc == nil {
		hc = &http.Client{Transport: &http.Transport{
			Proxy:               nil, // loopback: never through a proxy
			MaxIdleConnsPerHost: 8,
			IdleConnTimeout:     90 * time.Second,
		}}
	}
	return &Client{base: strings.TrimRight(base, "/"), hc: hc}
}

// Base is the side server's base URL.
func (c *Client) Base() string { return c.base }

// do sends a request and decodes a 2xx JSON answer into out, or the error
// body into an *contract.Error.
func (c *Client) do(ctx context.Context, method, path string, body any, out any) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return contract.Errorf(contract.CodeInvalidArgument, "encoding the request: %v", err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return contract.Errorf(contract.CodeInvalidArgument, "%v", err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return c.transportError(ctx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return c.transportError(ctx, err)
	}
	if len(data) > maxBody {
		return contract.Errorf(contract.CodeInternal, "%s %s: answer larger than %d bytes", method, path, maxBody)
	}
	if resp.StatusCode/100 != 2 {
		return decodeError(resp.StatusCode, data)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return contract.Errorf(contract.CodeInternal, "%s %s: malformed answer: %v", method, path, err)
	}
	return nil
}

// transportError classifies a failure to talk to the server at all.
func (c *Client) transportError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return contract.AsError(ctx.Err())
	}
	return contract.Errorf(contract.CodeUnavailable, "genui at %s is not reachable: %v", c.base, err)
}

// decodeError turns an error answer into an *contract.Error.
func decodeError(status int, data []byte) error {
	var e contract.Error
	if json.Unmarshal(data, &e) == nil && e.Message != "" {
		if e.Code == "" {
			e.Code = contract.CodeOf(status)
		}
		return &e
	}
	msg := strings.TrimSpace(string(data))
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	return &contract.Error{Code: contract.CodeOf(status), Message: fmt.Sprintf("HTTP %d: %s", status, msg)}
}

func toolPath(name, suffix string) string { return "/api/tools/" + url.PathEscape(name) + suffix }

// State implements contract.API.
func (c *Client) State(ctx context.Context) (contract.State, error) {
	var st contract.State
	return st, c.do(ctx, http.MethodGet, "/state", nil, &st)
}

// Variables implements contract.API.
func (c *Client) Variables(ctx context.Context) (contract.Variables, error) {
	var v contract.Variables
	return v, c.do(ctx, http.MethodGet, "/variables?format=json", nil, &v)
}

// Tools implements contract.API.
func (c *Client) Tools(ctx context.Context) ([]contract.ToolInfo, error) {
	var tools []contract.ToolInfo
	return tools, c.do(ctx, http.MethodGet, "/api/tools", nil, &tools)
}

// UI implements contract.API.
func (c *Client) UI(ctx context.Context, tool string) (contract.UIView, error) {
	var v contract.UIView
	return v, c.do(ctx, http.MethodGet, toolPath(tool, "/ui"), nil, &v)
}

// Inspect implements contract.API.
func (c *Client) Inspect(ctx context.Context, tool string) (contract.Inspection, error) {
	var in contract.Inspection
	return in, c.do(ctx, http.MethodGet, toolPath(tool, ""), nil, &in)
}

// Refine implements contract.API.
func (c *Client) Refine(ctx context.Context, req contract.RefineRequest) (contract.UIChange, error) {
	var ch contract.UIChange
	return ch, c.do(ctx, http.MethodPost, toolPath(req.Tool, "/refine"), req, &ch)
}

// Regenerate implements contract.API.
func (c *Client) Regenerate(ctx context.Context, req contract.RegenerateRequest) (contract.UIChange, error) {
	var ch contract.UIChange
	return ch, c.do(ctx, http.MethodPost, toolPath(req.Tool, "/regenerate"), req, &ch)
}

// DropRefinement implements contract.API.
func (c *Client) DropRefinement(ctx context.Context, req contract.DropRefinementRequest) (contract.UIChange, error) {
	var ch contract.UIChange
	return ch, c.do(ctx, http.MethodPost, toolPath(req.Tool, "/refinements/drop"), req, &ch)
}

// ReadableUI implements contract.API.
func (c *Client) ReadableUI(ctx context.Context, tool string) (contract.UIView, error) {
	var v contract.UIView
	return v, c.do(ctx, http.MethodGet, toolPath(tool, "/ui?readable=1"), nil, &v)
}

// CallTool implements contract.API.
func (c *Client) CallTool(ctx context.Context, req contract.CallRequest) (contract.CallResult, error) {
	args := req.Arguments
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	if !json.Valid(args) {
		return contract.CallResult{}, contract.Errorf(contract.CodeInvalidArgument, "arguments must be a JSON object")
	}
	q := url.Values{}
	if req.Source != "" {
		q.Set("source", req.Source)
	}
	if req.CallID != "" {
		q.Set("call", req.CallID)
	}
	if req.Task {
		q.Set("task", "1")
	}
	path := "/api/tool/" + url.PathEscape(req.Name)
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	var res contract.CallResult
	return res, c.do(ctx, http.MethodPost, path, args, &res)
}

// RefreshTools implements contract.API.
func (c *Client) RefreshTools(ctx context.Context) (contract.ToolDiff, error) {
	var d contract.ToolDiff
	return d, c.do(ctx, http.MethodPost, "/api/refresh", struct{}{}, &d)
}

// Preview implements contract.API.
func (c *Client) Preview(ctx context.Context, tool string) (contract.PreviewInfo, error) {
	var p contract.PreviewInfo
	return p, c.do(ctx, http.MethodGet, toolPath(tool, "/preview"), nil, &p)
}

// Subscribe implements contract.API over GET /events. The stream is open when
// Subscribe returns; the channel closes when ctx ends or the connection is
// lost (callers that want to survive a restart of the server subscribe
// again, with backoff).
func (c *Client) Subscribe(ctx context.Context) (<-chan contract.Event, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/events", nil)
	if err != nil {
		return nil, contract.Errorf(contract.CodeInvalidArgument, "%v", err)
	}
	req.Header.Set("Accept", "text/event-stream")
	// Only the connection and the headers are bounded; the stream is not.
	hdrCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	type answer struct {
		resp *http.Response
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		resp, err := c.hc.Do(req) //nolint:bodyclose // closed below: by the reader, or on a timeout or a bad status
		got <- answer{resp, err}
	}()
	var resp *http.Response
	select {
	case a := <-got:
		if a.err != nil {
			return nil, c.transportError(ctx, a.err)
		}
		resp = a.resp
	case <-hdrCtx.Done():
		go func() {
			if a := <-got; a.resp != nil {
				a.resp.Body.Close()
			}
		}()
		if ctx.Err() != nil {
			return nil, contract.AsError(ctx.Err())
		}
		return nil, contract.Errorf(contract.CodeUnavailable, "genui at %s: no answer to GET /events within 30s", c.base)
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return nil, decodeError(resp.StatusCode, data)
	}
	out := make(chan contract.Event, 64)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		stop := context.AfterFunc(ctx, func() { resp.Body.Close() })
		defer stop()
		readEvents(ctx, resp.Body, out)
	}()
	return out, nil
}

// readEvents parses server-sent events ("data:" lines; one JSON envelope
// per event) into out until the stream ends.
func readEvents(ctx context.Context, r io.Reader, out chan<- contract.Event) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxEventLine)
	var data []byte
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			if len(data) == 0 {
				continue
			}
			var ev contract.Event
			err := json.Unmarshal(data, &ev)
			data = data[:0]
			if err != nil {
				continue // a newer server's event we cannot read: skip it
			}
			select {
			case out <- ev:
			case <-ctx.Done():
				return
			}
		case bytes.HasPrefix(line, []byte("data:")):
			d := bytes.TrimPrefix(line, []byte("data:"))
			d = bytes.TrimPrefix(d, []byte(" "))
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, d...)
		}
	}
	// The stream ended (EOF, a read error, ctx): closing out says so.
}

// History implements contract.API.
func (c *Client) History(ctx context.Context, q contract.HistoryQuery) (contract.HistoryPage, error) {
	v := url.Values{}
	if q.Tool != "" {
		v.Set("tool", q.Tool)
	}
	if q.Source != "" {
		v.Set("source", q.Source)
	}
	if q.Errors {
		v.Set("errors", "1")
	}
	if q.Before != 0 {
		v.Set("before", strconv.FormatInt(q.Before, 10))
	}
	if q.Limit != 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	path := "/api/history"
	if len(v) > 0 {
		path += "?" + v.Encode()
	}
	var p contract.HistoryPage
	return p, c.do(ctx, http.MethodGet, path, nil, &p)
}

// HistoryEntry implements contract.API.
func (c *Client) HistoryEntry(ctx context.Context, id int64) (contract.HistoryEntry, error) {
	var h contract.HistoryEntry
	return h, c.do(ctx, http.MethodGet, "/api/history/"+strconv.FormatInt(id, 10), nil, &h)
}

// RerunCall implements contract.API.
func (c *Client) RerunCall(ctx context.Context, req contract.RerunRequest) (contract.Rerun, error) {
	var r contract.Rerun
	return r, c.do(ctx, http.MethodPost, "/api/history/"+strconv.FormatInt(req.ID, 10)+"/rerun", req, &r)
}

// CompareCalls implements contract.API.
func (c *Client) CompareCalls(ctx context.Context, req contract.CompareRequest) (contract.ResultDiff, error) {
	var d contract.ResultDiff
	return d, c.do(ctx, http.MethodPost, "/api/history/compare", req, &d)
}

// Checks implements contract.API.
func (c *Client) Checks(ctx context.Context) ([]contract.Check, error) {
	var list []contract.Check
	return list, c.do(ctx, http.MethodGet, "/api/checks", nil, &list)
}

// AddCheck implements contract.API.
func (c *Client) AddCheck(ctx context.Context, req contract.AddCheckRequest) (contract.Check, error) {
	var ch contract.Check
	return ch, c.do(ctx, http.MethodPost, "/api/checks", req, &ch)
}

// RunChecks implements contract.API.
func (c *Client) RunChecks(ctx context.Context, req contract.RunChecksRequest) (contract.CheckReport, error) {
	var r contract.CheckReport
	return r, c.do(ctx, http.MethodPost, "/api/checks/run", req, &r)
}

// RecentTraffic implements contract.API over GET /api/traffic.
func (c *Client) RecentTraffic(ctx context.Context, q contract.TrafficQuery) (contract.TrafficPage, error) {
	var page contract.TrafficPage
	path := "/api/traffic?after=" + strconv.FormatInt(q.After, 10) + "&limit=" + strconv.Itoa(q.Limit)
	return page, c.do(ctx, http.MethodGet, path, nil, &page)
}
