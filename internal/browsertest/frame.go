package browsertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// Helpers that reach into an iframe of the current page (also a cross-origin
// one of the same site, e.g. another 127.0.0.1 port) through the DevTools
// protocol, the way a test of an MCP App host needs: the host page cannot
// script a sandboxed cross-origin frame, but DevTools can.

// FrameEval runs fn, a JavaScript function expression called as
// fn(window, document) in the main world of the iframe that iframeSel selects
// in the page, awaits its result and returns it as JSON. It works for frames
// in the page's process and for out-of-process (site-isolated or sandboxed)
// frames, which it reaches through their own DevTools target.
func FrameEval(ctx context.Context, iframeSel, fn string) (json.RawMessage, error) {
	type found struct {
		doc runtime.RemoteObjectID
		url string
	}
	f, err := chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) (found, error) {
		doc, url, err := frameDocument(ctx, t, iframeSel)
		return found{doc, url}, err
	})
	if err != nil {
		return nil, err
	}
	if f.doc != "" {
		return chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) (json.RawMessage, error) {
			decl := "async function () { const v = await (" + fn + ")(this.defaultView, this); return JSON.stringify(v === undefined ? null : v); }"
			res, err := cdp.Call(ctx, t, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
				FunctionDeclaration: decl, ObjectID: f.doc, ReturnByValue: ptr(true), AwaitPromise: ptr(true),
			})
			if err != nil {
				return nil, err
			}
			return decodeResult(res.Result, res.ExceptionDetails)
		})
	}
	// Out of process: find the iframe's own target by URL.
	infos, err := chromedp.Targets(ctx)
	if err != nil {
		return nil, err
	}
	var id target.ID
	for _, info := range infos {
		if info.Type == "iframe" && f.url != "" && strings.HasPrefix(info.URL, f.url) {
			id = info.TargetID
		}
	}
	if id == "" {
		return nil, fmt.Errorf("no content document and no iframe target for %s (url %q) yet", iframeSel, f.url)
	}
	fctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(id), chromedp.WithDetachOnCancel())
	defer cancel()
	return chromedp.Run(fctx, func(ctx context.Context, t *chromedp.Target) (json.RawMessage, error) {
		expr := "(async () => { const v = await (" + fn + ")(window, document); return JSON.stringify(v === undefined ? null : v); })()"
		res, err := cdp.Call(ctx, t, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, ReturnByValue: ptr(true), AwaitPromise: ptr(true)})
		if err != nil {
			return nil, err
		}
		return decodeResult(res.Result, res.ExceptionDetails)
	})
}

func decodeResult(r *runtime.RemoteObject, exc *runtime.ExceptionDetails) (json.RawMessage, error) {
	if exc != nil {
		return nil, fmt.Errorf("in frame: %s", exceptionText(exc))
	}
	var s string
	if r == nil || json.Unmarshal(r.Value, &s) != nil {
		return nil, fmt.Errorf("in frame: unexpected result %+v", r)
	}
	return json.RawMessage(s), nil
}

// MustFrameEval is FrameEval with a deadline that fails the test on error.
func MustFrameEval(t testing.TB, ctx context.Context, iframeSel, fn string) json.RawMessage {
	t.Helper()
	rctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	v, err := FrameEval(rctx, iframeSel, fn)
	if err != nil {
		t.Fatalf("FrameEval(%s): %v", fn, err)
	}
	return v
}

// WaitFrame polls cond, a function expression (window, document) => boolean
// run in the iframe, until it is true; it fails the test after timeout.
func WaitFrame(t testing.TB, ctx context.Context, iframeSel, cond string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var last error
	for time.Now().Before(deadline) {
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		v, err := FrameEval(rctx, iframeSel, cond)
		cancel()
		if err == nil && string(v) == "true" {
			return
		}
		last = err
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("timed out after %s waiting in frame for %s (last error: %v)", timeout, cond, last)
}

// FrameClick clicks, with real mouse events, the centre of the element that
// sel selects inside the iframe. It waits until the element's position on the
// page is stable (hosts resize their frames asynchronously) and checks that
// the point hits the element before clicking.
func FrameClick(t testing.TB, ctx context.Context, iframeSel, sel string) {
	t.Helper()
	rctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	var last pagePoint
	var err error
	for {
		var p pagePoint
		p, err = locateInFrame(rctx, iframeSel, sel)
		if err == nil && p == last && p.Hit {
			break
		}
		last = p
		select {
		case <-rctx.Done():
			t.Fatalf("FrameClick %s: no stable, clickable position (last %+v, err %v)", sel, last, err)
		case <-time.After(60 * time.Millisecond):
		}
	}
	err = chromedp.Do(rctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMouseMoved, input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
			p := input.DispatchMouseEventParams{Type: typ, X: last.X, Y: last.Y}
			if typ != input.DispatchMouseEventTypeMouseMoved {
				p.Button, p.Buttons, p.ClickCount = input.MouseButtonLeft, 1, 1
			}
			if _, err := cdp.Call(ctx, tg, input.DispatchMouseEvent, p); err != nil {
				return err
			}
		}
		return nil
	}))
	if err != nil {
		t.Fatalf("FrameClick %s: %v", sel, err)
	}
}

// pagePoint is a point in page viewport coordinates; Hit reports that both
// the page (at the point) and the frame (at the matching frame point) hit
// the iframe and the element.
type pagePoint struct {
	X, Y float64
	Hit  bool
}

func locateInFrame(ctx context.Context, iframeSel, sel string) (pagePoint, error) {
	var pt struct{ X, Y float64 }
	pos := fmt.Sprintf(`(w, d) => { const e = d.querySelector(%q); if (!e) throw new Error("no element " + %q); e.scrollIntoView({block: "nearest"}); const r = e.getBoundingClientRect(); return {X: r.left + r.width / 2, Y: r.top + r.height / 2}; }`, sel, sel)
	raw, err := FrameEval(ctx, iframeSel, pos)
	if err == nil {
		err = json.Unmarshal(raw, &pt)
	}
	if err != nil {
		return pagePoint{}, err
	}
	origin := fmt.Sprintf(`(() => { const f = document.querySelector(%q); let r = f.getBoundingClientRect(); const y = r.top + f.clientTop + %f; if (y < 0 || y > innerHeight - 4) { scrollBy(0, y - innerHeight / 2); r = f.getBoundingClientRect(); } const X = r.left + f.clientLeft + %f, Y = r.top + f.clientTop + %f; return {X: X, Y: Y, Hit: document.elementFromPoint(X, Y) === f}; })()`, iframeSel, pt.Y, pt.X, pt.Y)
	p, err := chromedp.Run(ctx, chromedp.Evaluate[pagePoint](origin))
	if err != nil || !p.Hit {
		return p, err
	}
	hit, err := FrameEval(ctx, iframeSel, fmt.Sprintf(`(w, d) => { const h = d.elementFromPoint(%f, %f), e = d.querySelector(%q); return !!h && (h === e || e.contains(h)); }`, pt.X, pt.Y, sel))
	p.Hit = err == nil && string(hit) == "true"
	return p, err
}

// FrameType replaces the value of the input that sel selects inside the iframe
// with text, typed as trusted input (Input.insertText) after focusing it.
func FrameType(t testing.TB, ctx context.Context, iframeSel, sel, text string) {
	t.Helper()
	rctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	focus := fmt.Sprintf(`(w, d) => { const e = d.querySelector(%q); if (!e) throw new Error("no element " + %q); e.value = ""; e.focus(); return d.activeElement === e; }`, sel, sel)
	raw, err := FrameEval(rctx, iframeSel, focus)
	if err != nil || string(raw) != "true" {
		t.Fatalf("FrameType %s: focus failed: %s %v", sel, raw, err)
	}
	err = chromedp.Do(rctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, input.InsertText, input.InsertTextParams{Text: text})
		return err
	}))
	if err != nil {
		t.Fatalf("FrameType %s: %v", sel, err)
	}
}

// frameDocument returns a remote object of the iframe's document in the
// frame's main world, or "" and the frame's URL when the frame runs in
// another process.
func frameDocument(ctx context.Context, t *chromedp.Target, iframeSel string) (runtime.RemoteObjectID, string, error) {
	el, err := cdp.Call(ctx, t, runtime.Evaluate, runtime.EvaluateParams{Expression: fmt.Sprintf("document.querySelector(%q)", iframeSel)})
	if err != nil {
		return "", "", err
	}
	if el.Result == nil || el.Result.ObjectID == "" {
		return "", "", fmt.Errorf("no element %s in the page", iframeSel)
	}
	desc, err := cdp.Call(ctx, t, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: el.Result.ObjectID, Depth: ptr(int64(1)), Pierce: ptr(true)})
	if err != nil {
		return "", "", err
	}
	if desc.Node == nil {
		return "", "", errors.New("cannot describe " + iframeSel)
	}
	if desc.Node.ContentDocument == nil {
		src, err := cdp.Call(ctx, t, runtime.Evaluate, runtime.EvaluateParams{Expression: fmt.Sprintf("document.querySelector(%q).src", iframeSel), ReturnByValue: ptr(true)})
		if err != nil {
			return "", "", err
		}
		var url string
		if src.Result != nil {
			_ = json.Unmarshal(src.Result.Value, &url)
		}
		return "", url, nil
	}
	obj, err := cdp.Call(ctx, t, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: desc.Node.ContentDocument.BackendNodeID})
	if err != nil {
		return "", "", err
	}
	return obj.Object.ObjectID, "", nil
}

func exceptionText(d *runtime.ExceptionDetails) string {
	if d.Exception != nil && d.Exception.Description != "" {
		return d.Exception.Description
	}
	return d.Text
}

func ptr[T any](v T) *T { return &v }
