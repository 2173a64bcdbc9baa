package gen

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tdewolff/parse/v2"
	jsast "github.com/tdewolff/parse/v2/js"

	"github.com/genui-dev/genui/mcpshim"
)

// The script checks of Check run on a parsed syntax tree
// (github.com/tdewolff/parse/v2/js, an ECMAScript 2020+ parser with scope
// resolution: a name that is a global, not a local of the same name, is
// what makes location or open dangerous), not on regular expressions over
// the text, so a string that mentions location.href is no finding and
// window["loc" + "ation"] is one.

// maxFold bounds how deep constant folding follows variables and calls.
const maxFold = 8

// jsChecker reports the rule breaks of one script.
type jsChecker struct {
	where string // "script 2", "the onclick handler of <button>"
	add   func(rule RuleID, msg string)
	inits map[*jsast.Var]jsast.IExpr // a variable's initializer, for aliases and constants
	seen  map[string]bool
	// called holds the callee expressions of the calls seen so far (Walk
	// enters a call before its callee): a script- or markup-making method
	// may be called, never taken as a value.
	called map[jsast.IExpr]bool
}

// checkScript parses src (a script, or with inline set the body of an event
// handler attribute) and reports what it does against the rules.
func checkScript(src, where string, inline bool, add func(RuleID, string)) {
	ast, err := jsast.Parse(parse.NewInputString(src), jsast.Options{Inline: inline})
	if err != nil {
		msg := err.Error()
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		add(RuleScriptsParse, fmt.Sprintf("%s does not parse as JavaScript: %s", where, msg))
		return
	}
	c := &jsChecker{where: where, add: add, inits: map[*jsast.Var]jsast.IExpr{}, seen: map[string]bool{}, called: map[jsast.IExpr]bool{}}
	jsast.Walk(initCollector(c.inits), ast)
	jsast.Walk(c, ast)
}

// initCollector records the initializer of every declared variable.
type initCollector map[*jsast.Var]jsast.IExpr

func (ic initCollector) Enter(n jsast.INode) jsast.IVisitor {
	if d, ok := n.(*jsast.VarDecl); ok {
		for _, b := range d.List {
			if v, ok := b.Binding.(*jsast.Var); ok && b.Default != nil {
				ic[root(v)] = b.Default
			}
		}
	}
	return ic
}

func (initCollector) Exit(jsast.INode) {}

func root(v *jsast.Var) *jsast.Var {
	for v.Link != nil {
		v = v.Link
	}
	return v
}

func (c *jsChecker) reportf(rule RuleID, format string, args ...any) {
	msg := c.where + " " + fmt.Sprintf(format, args...)
	if !c.seen[msg] {
		c.seen[msg] = true
		c.add(rule, msg)
	}
}

// src is an expression as source text, shortened.
func src(n jsast.INode) string {
	if n == nil {
		return ""
	}
	var b bytes.Buffer
	if jn, ok := n.(interface{ JS(io.Writer) }); ok {
		jn.JS(&b)
	} else {
		b.WriteString(n.String())
	}
	return clip(strings.Join(strings.Fields(b.String()), " "), 80)
}

// global reports whether e is an undeclared (global) name among names.
func global(e jsast.IExpr, names ...string) bool {
	v, ok := e.(*jsast.Var)
	if !ok {
		return false
	}
	v = root(v)
	if v.Decl != jsast.NoDecl {
		return false
	}
	for _, n := range names {
		if string(v.Data) == n {
			return true
		}
	}
	return false
}

// resolve follows groups and variables bound to an expression (aliases:
// const l = window.location).
func (c *jsChecker) resolve(e jsast.IExpr) jsast.IExpr {
	for i := 0; i < maxFold; i++ {
		switch x := e.(type) {
		case *jsast.GroupExpr:
			e = x.X
		case *jsast.Var:
			init, ok := c.inits[root(x)]
			if !ok {
				return e
			}
			e = init
		default:
			return e
		}
	}
	return e
}

// member splits a property access into its object and property name;
// computed is set for obj[key] with a key that is not a literal.
func (c *jsChecker) member(e jsast.IExpr) (obj jsast.IExpr, name string, computed, ok bool) {
	switch x := c.resolveGroup(e).(type) {
	case *jsast.DotExpr:
		if lit, ok := x.Y.(*jsast.LiteralExpr); ok {
			return x.X, string(lit.Data), false, true
		}
		return x.X, x.Y.String(), false, true
	case *jsast.IndexExpr:
		if lit, ok := x.Y.(*jsast.LiteralExpr); ok {
			if s, ok := literalValue(lit); ok {
				return x.X, s, false, true
			}
		}
		if s, ok := c.fold(x.Y, 0); ok {
			return x.X, s, true, true
		}
		return x.X, "", true, true
	}
	return nil, "", false, false
}

func (c *jsChecker) resolveGroup(e jsast.IExpr) jsast.IExpr {
	for {
		g, ok := e.(*jsast.GroupExpr)
		if !ok {
			return e
		}
		e = g.X
	}
}

// isWindow: window, self, globalThis (or an alias), document.defaultView.
func (c *jsChecker) isWindow(e jsast.IExpr) bool {
	e = c.resolve(e)
	if global(e, "window", "self", "globalThis") {
		return true
	}
	if obj, name, _, ok := c.member(e); ok {
		switch name {
		case "window", "self", "globalThis":
			return c.isWindow(obj)
		case "defaultView":
			return c.isDocument(obj)
		}
	}
	return false
}

func (c *jsChecker) isDocument(e jsast.IExpr) bool {
	e = c.resolve(e)
	if global(e, "document") {
		return true
	}
	obj, name, _, ok := c.member(e)
	return ok && name == "document" && c.isWindow(obj)
}

func (c *jsChecker) isLocation(e jsast.IExpr) bool {
	e = c.resolve(e)
	if global(e, "location") {
		return true
	}
	obj, name, _, ok := c.member(e)
	return ok && name == "location" && (c.isWindow(obj) || c.isDocument(obj))
}

// isHost: a reference to a host-side window (parent, top, opener, frames).
func (c *jsChecker) isHost(e jsast.IExpr) bool {
	e = c.resolve(e)
	if global(e, "parent", "top", "opener", "frames") {
		return true
	}
	obj, name, _, ok := c.member(e)
	return ok && (name == "parent" || name == "top" || name == "opener" || name == "frames") && c.isWindow(obj)
}

// callee names a called function: a global name, or obj.name.
func (c *jsChecker) callee(e jsast.IExpr) (obj jsast.IExpr, name string) {
	e = c.resolveGroup(e)
	if v, ok := e.(*jsast.Var); ok && root(v).Decl == jsast.NoDecl {
		return nil, string(root(v).Data)
	}
	if obj, name, _, ok := c.member(e); ok {
		return obj, name
	}
	return nil, ""
}

// globalCall reports whether (obj, name) is the global function name,
// called bare or through window.
func (c *jsChecker) globalCall(obj jsast.IExpr, name string, names ...string) bool {
	if obj != nil && !c.isWindow(obj) {
		return false
	}
	for _, n := range names {
		if name == n {
			return true
		}
	}
	return false
}

// Names a page may not spell out of pieces.
var sensitiveNames = map[string]bool{
	"location": true, "href": true, "assign": true, "replace": true, "reload": true, "open": true,
	"submit": true, "requestSubmit": true, "action": true, "formAction": true, "httpEquiv": true, "target": true,
	"innerHTML": true, "outerHTML": true, "insertAdjacentHTML": true, "write": true, "writeln": true,
	"srcdoc": true, "createContextualFragment": true, "setHTMLUnsafe": true, "parseFromString": true,
	"parent": true, "top": true, "opener": true, "frames": true, "postMessage": true,
	"eval": true, "Function": true, "constructor": true, "setAttribute": true, "createElement": true,
	"fetch": true, "XMLHttpRequest": true, "WebSocket": true, "EventSource": true, "sendBeacon": true,
	"RTCPeerConnection": true, "Worker": true, "importScripts": true, "document": true, "window": true,
	"defaultView": true, "cookie": true,
}

// callOnly are the methods that make scripts or markup, navigate or
// message: a page calls them directly (document.createElement("div")),
// never takes them as values (.bind, .call, .apply, Reflect.apply, a
// variable, destructuring), where the checks of their arguments cannot
// follow.
var callOnly = map[string]bool{
	"createElement": true, "createElementNS": true, "insertAdjacentHTML": true, "write": true, "writeln": true,
	"setHTMLUnsafe": true, "parseHTMLUnsafe": true, "createContextualFragment": true, "parseFromString": true,
	"setAttribute": true, "setAttributeNS": true, "submit": true, "requestSubmit": true, "postMessage": true,
	"eval": true,
}

// offCSP reports whether a name is one of the browser's channels that the
// page's CSP does not govern (WebRTC: a TURN server's username travels
// over UDP whatever connect-src says) or a relative of one (WebTransport):
// a page may not name them at all. The page guard removes them too.
func offCSP(name string) bool {
	return strings.HasPrefix(name, "RTC") || strings.HasPrefix(name, "webkitRTC") || strings.HasPrefix(name, "WebTransport")
}

// frameRealm are the properties that reach another document's realm.
var frameRealm = map[string]bool{"contentWindow": true, "contentDocument": true, "getSVGDocument": true}

// Properties whose value becomes markup.
var markupProps = map[string]bool{"innerHTML": true, "outerHTML": true, "srcdoc": true}

func isAssign(op jsast.TokenType) bool {
	switch op {
	case jsast.EqToken, jsast.AddEqToken, jsast.SubEqToken, jsast.MulEqToken, jsast.DivEqToken, jsast.ModEqToken, jsast.ExpEqToken,
		jsast.LtLtEqToken, jsast.GtGtEqToken, jsast.GtGtGtEqToken, jsast.BitAndEqToken, jsast.BitOrEqToken, jsast.BitXorEqToken,
		jsast.AndEqToken, jsast.OrEqToken, jsast.NullishEqToken:
		return true
	}
	return false
}

// constant reports whether e is built only from literals (and consts
// holding them): markup the page wrote itself, not data.
func (c *jsChecker) constant(e jsast.IExpr) bool {
	e = c.resolveGroup(e)
	if cond, ok := e.(*jsast.CondExpr); ok {
		return c.constant(cond.X) && c.constant(cond.Y)
	}
	if bin, ok := e.(*jsast.BinaryExpr); ok && (bin.Op == jsast.OrToken || bin.Op == jsast.NullishToken || bin.Op == jsast.AndToken) {
		return c.constant(bin.X) && c.constant(bin.Y)
	}
	_, ok := c.fold(e, 0)
	return ok
}

func (c *jsChecker) Enter(n jsast.INode) jsast.IVisitor {
	switch n := n.(type) {
	case *jsast.BinaryExpr:
		if isAssign(n.Op) {
			c.assignment(n)
		}
	case *jsast.UnaryExpr:
		// location++ and the like assign too.
		if n.Op == jsast.PreIncrToken || n.Op == jsast.PreDecrToken || n.Op == jsast.PostIncrToken || n.Op == jsast.PostDecrToken {
			c.assignment(&jsast.BinaryExpr{Op: jsast.AddEqToken, X: n.X, Y: &jsast.LiteralExpr{TokenType: jsast.IntegerToken, Data: []byte("1")}})
		}
	case *jsast.CallExpr:
		c.called[c.resolveGroup(n.X)] = true
		c.call(n.X, n.Args.List)
	case *jsast.NewExpr:
		c.called[c.resolveGroup(n.X)] = true
		var args []jsast.Arg
		if n.Args != nil {
			args = n.Args.List
		}
		c.construct(n.X, args)
	case *jsast.DotExpr, *jsast.IndexExpr:
		c.access(n.(jsast.IExpr))
	case *jsast.Var:
		if global(n, "parent", "top", "opener", "frames") {
			c.reportf(RuleBridgeOnly, "uses %s: talk to the host through the App bridge only", n.Data)
		}
		if global(n, "postMessage") {
			c.reportf(RuleBridgeOnly, "uses postMessage: the App bridge does the messaging")
		}
		if v := root(n); v.Decl == jsast.NoDecl && offCSP(string(v.Data)) {
			c.reportf(RuleNoNetwork, "uses %s: WebRTC and WebTransport are not available to a page", v.Data)
		}
		if v := root(n); v.Decl == jsast.NoDecl && string(v.Data) == "eval" && !c.called[jsast.IExpr(n)] {
			c.reportf(RulePlainNames, "takes eval as a value")
		}
	case *jsast.BindingObject:
		for _, item := range n.List {
			if item.Key == nil || item.Key.IsComputed() {
				continue
			}
			k := string(item.Key.Literal.Data)
			if callOnly[k] || markupProps[k] || offCSP(k) || frameRealm[k] {
				c.reportf(RulePlainNames, "takes %s out of an object by destructuring: use it directly", k)
			}
		}
	case *jsast.WithStmt:
		c.reportf(RulePlainNames, "uses a with statement")
	case *jsast.ImportStmt:
		c.importOf(n.Module)
	case *jsast.ExportStmt:
		if n.Module != nil {
			c.importOf(n.Module)
		}
	case *jsast.Property:
		if n.Name != nil && !n.Name.IsComputed() && markupProps[string(n.Name.Literal.Data)] && n.Value != nil && !c.constant(n.Value) {
			c.reportf(RuleDataNotMarkup, "sets %s from data in an object literal (%s)", n.Name.Literal.Data, src(n.Value))
		}
	}
	return c
}

func (c *jsChecker) Exit(jsast.INode) {}

func (c *jsChecker) importOf(module []byte) {
	spec, _ := unquoteJS(module)
	if mcpshim.IsExtAppsSpecifier(spec) {
		c.reportf(RuleImports, "imports %q: the App class is already on the page as window.McpApps", spec)
		return
	}
	c.reportf(RuleImports, "imports %q: hosts have no import map and no server; write the code inline", spec)
}

func (c *jsChecker) assignment(n *jsast.BinaryExpr) {
	target := n.X
	if c.isLocation(target) {
		c.reportf(RuleNoNavigation, "assigns location (%s): the page would navigate away", src(n))
		return
	}
	obj, name, _, ok := c.member(target)
	if !ok {
		if global(target, "onmessage") {
			c.reportf(RuleBridgeOnly, "sets onmessage: the App bridge does the messaging")
		}
		return
	}
	switch {
	case c.isLocation(obj):
		c.reportf(RuleNoNavigation, "assigns location.%s (%s): the page would navigate away", name, src(n))
	case markupProps[name] && !c.constant(n.Y):
		c.reportf(RuleDataNotMarkup, "sets %s from data (%s): use textContent and createElement", name, src(n))
	case name == "httpEquiv":
		c.reportf(RuleNoNavigation, "sets a meta element's httpEquiv (%s)", src(n))
	case name == "onmessage" && c.isWindow(obj):
		c.reportf(RuleBridgeOnly, "sets window.onmessage: the App bridge does the messaging")
	case name == "location" && (c.isWindow(obj) || c.isDocument(obj) || c.isHost(obj)):
		c.reportf(RuleNoNavigation, "assigns %s (%s): the page would navigate away", src(target), src(n))
	}
}

func (c *jsChecker) call(fn jsast.IExpr, args []jsast.Arg) {
	arg := func(i int) jsast.IExpr {
		if i < len(args) {
			return args[i].Value
		}
		return nil
	}
	if lit, ok := c.resolveGroup(fn).(*jsast.LiteralExpr); ok && lit.TokenType == jsast.ImportToken {
		spec, ok := "", false
		if a := arg(0); a != nil {
			spec, ok = c.fold(a, 0)
		}
		switch {
		case !ok:
			c.reportf(RuleImports, "imports a module computed at run time (import(%s))", src(arg(0)))
		case mcpshim.IsExtAppsSpecifier(spec):
			c.reportf(RuleImports, "imports %q: the App class is already on the page as window.McpApps", spec)
		default:
			c.reportf(RuleImports, "imports %q: hosts have no import map and no server; write the code inline", spec)
		}
		return
	}
	obj, name := c.callee(fn)
	if name == "" {
		return
	}
	literalArg := func(i int) (string, bool) {
		if a := arg(i); a != nil {
			return c.fold(a, 0)
		}
		return "", false
	}
	switch {
	case obj != nil && c.isLocation(obj) && (name == "assign" || name == "replace" || name == "reload"):
		c.reportf(RuleNoNavigation, "calls location.%s: the page would navigate away", name)
	case c.globalCall(obj, name, "open"):
		c.reportf(RuleNoNavigation, "calls window.open: open links with app.openLink({ url })")
	case obj != nil && (name == "submit" || name == "requestSubmit"):
		c.reportf(RuleNoNavigation, "calls %s.%s(): handle the form's submit event instead (event.preventDefault())", src(obj), name)
	case obj != nil && name == "insertAdjacentHTML" && (arg(1) == nil || !c.constant(arg(1))):
		c.reportf(RuleDataNotMarkup, "calls insertAdjacentHTML with data (%s): use createElement and textContent", src(arg(1)))
	case obj != nil && c.isDocument(obj) && (name == "write" || name == "writeln"):
		for _, a := range args {
			if !c.constant(a.Value) {
				c.reportf(RuleDataNotMarkup, "calls document.%s with data (%s)", name, src(a.Value))
			}
		}
	case obj != nil && c.isDocument(obj) && name == "open":
		c.reportf(RuleDataNotMarkup, "calls document.open(): the page would replace itself")
	case obj != nil && (name == "createContextualFragment" || name == "setHTMLUnsafe" || name == "parseHTMLUnsafe" || name == "parseFromString") &&
		(arg(0) == nil || !c.constant(arg(0))):
		c.reportf(RuleDataNotMarkup, "calls %s with data (%s): markup from data runs its scripts", name, src(arg(0)))
	case obj != nil && name == "setAttribute":
		attrName, ok := literalArg(0)
		if !ok {
			// A computed name (a helper's el(tag, attrs)) is safe by
			// structure: the CSP runs no handler attribute and no
			// javascript: URL, form-action and base-uri are 'none', the
			// sandbox opens no other frame or window, and the navigation
			// guard stops what a link or a refresh would start.
			return
		}
		value, valueConst := literalArg(1)
		switch a := strings.ToLower(attrName); {
		case strings.HasPrefix(a, "on"):
			c.reportf(RuleInlineHandlers, "sets an inline handler attribute %q from script: use addEventListener", attrName)
		case a == "action" || a == "formaction" || a == "http-equiv":
			c.reportf(RuleNoNavigation, "sets the %s attribute from script", a)
		case a == "srcdoc" && !valueConst:
			c.reportf(RuleDataNotMarkup, "sets srcdoc from data")
		case a == "target" && (!valueConst || (value != "_self" && value != "_blank")):
			c.reportf(RuleNoNavigation, "sets target=%s from script: links may only target _self or _blank", src(arg(1)))
		case (a == "href" || a == "src" || a == "action") && valueConst && strings.HasPrefix(strings.ToLower(strings.TrimSpace(value)), "javascript:"):
			c.reportf(RuleInlineHandlers, "sets a javascript: URL from script")
		}
	case obj != nil && (name == "createElement" || name == "createElementNS"):
		i := 0
		if name == "createElementNS" {
			i = 1
		}
		tag, ok := literalArg(i)
		if !ok {
			// A computed tag is safe by structure: the page guard refuses
			// script and frame elements at run time, and the CSP runs no
			// script the page did not hash.
			return
		}
		switch strings.ToLower(tag) {
		case "script":
			c.reportf(RuleSelfContained, "creates a script element: write the code in the page's own script")
		case "iframe", "frame", "object", "embed", "portal":
			c.reportf(RuleSelfContained, "creates an <%s> element", strings.ToLower(tag))
		case "base":
			c.reportf(RuleNoNavigation, "creates a <base> element")
		}
	case c.globalCall(obj, name, "eval"):
		c.reportf(RuleNoEval, "calls eval")
	case c.globalCall(obj, name, "Function"):
		c.reportf(RuleNoEval, "calls the Function constructor")
	case c.globalCall(obj, name, "setTimeout", "setInterval") && arg(0) != nil && c.constant(arg(0)):
		c.reportf(RuleNoEval, "passes a code string to %s", name)
	case c.globalCall(obj, name, "fetch", "importScripts"):
		c.reportf(RuleNoNetwork, "calls %s: the CSP allows no network; data arrives through the App bridge", name)
	case obj != nil && name == "sendBeacon":
		c.reportf(RuleNoNetwork, "calls sendBeacon: the CSP allows no network")
	case name == "postMessage":
		c.reportf(RuleBridgeOnly, "calls postMessage: talk to the host through the App bridge only")
	case name == "addEventListener" && (obj == nil || c.isWindow(obj)):
		if ev, ok := literalArg(0); ok && ev == "message" {
			c.reportf(RuleBridgeOnly, "listens for raw \"message\" events: the App bridge does the messaging")
		}
	case obj != nil && global(c.resolve(obj), "Reflect", "Object") && arg(0) != nil &&
		(c.isWindow(arg(0)) || c.isDocument(arg(0)) || c.isLocation(arg(0)) || c.isHost(arg(0))):
		c.reportf(RulePlainNames, "reaches into %s through %s.%s", src(arg(0)), src(obj), name)
	case obj != nil && global(c.resolve(obj), "Reflect", "Object") &&
		(name == "set" || name == "defineProperty" || name == "getOwnPropertyDescriptor" || name == "get"):
		prop, ok := literalArg(1)
		switch {
		case !ok && name != "get":
			c.reportf(RulePlainNames, "calls %s.%s with a computed property name (%s): name what you set plainly", src(obj), name, src(arg(1)))
		case ok && (markupProps[prop] || callOnly[prop]) && (name != "set" || arg(2) == nil || !c.constant(arg(2))):
			c.reportf(RuleDataNotMarkup, "reaches %s through %s.%s: set markup and call its methods directly", prop, src(obj), name)
		}
	}
}

func (c *jsChecker) construct(fn jsast.IExpr, args []jsast.Arg) {
	obj, name := c.callee(fn)
	switch {
	case c.globalCall(obj, name, "Function"):
		c.reportf(RuleNoEval, "calls the Function constructor")
	case c.globalCall(obj, name, "XMLHttpRequest", "WebSocket", "EventSource", "Worker", "SharedWorker", "RTCPeerConnection", "webkitRTCPeerConnection"):
		c.reportf(RuleNoNetwork, "creates a %s: the CSP allows no network; data arrives through the App bridge", name)
	}
}

// access checks a property read (writes and calls are checked above too).
func (c *jsChecker) access(e jsast.IExpr) {
	obj, name, computed, ok := c.member(e)
	if !ok {
		return
	}
	if computed {
		if name != "" {
			if sensitiveNames[name] {
				c.reportf(RulePlainNames, "spells %q out of pieces (%s): name what you use plainly", name, src(e))
			}
		} else if c.isWindow(obj) || c.isDocument(obj) || c.isLocation(obj) || c.isHost(obj) {
			c.reportf(RulePlainNames, "accesses %s with a computed name (%s)", src(obj), src(e))
		}
	}
	if callOnly[name] && !c.called[e] {
		c.reportf(RulePlainNames, "takes %s as a value (%s): call it directly, never through bind, call, apply, Reflect or a variable", name, src(e))
	}
	switch {
	case (name == "assign" || name == "replace" || name == "reload") && c.isLocation(obj) && !c.called[e]:
		c.reportf(RuleNoNavigation, "takes location.%s as a value: the page would navigate away", name)
	case offCSP(name) && (computed || obj == nil || c.isWindow(obj)):
		// window.RTCPeerConnection, window["RTC" + "PeerConnection"]; a
		// data field that happens to start with RTC is no finding.
		c.reportf(RuleNoNetwork, "uses %s: WebRTC and WebTransport are not available to a page", name)
	case frameRealm[name]:
		c.reportf(RuleSelfContained, "reaches into another document (%s)", src(e))
	case isIndex(name) && c.isWindow(obj):
		c.reportf(RuleSelfContained, "reaches into a frame's window (%s)", src(e))
	case (name == "parent" || name == "top" || name == "opener" || name == "frames") && c.isWindow(obj):
		c.reportf(RuleBridgeOnly, "uses window.%s: talk to the host through the App bridge only", name)
	case name == "serviceWorker" && global(c.resolve(obj), "navigator"):
		c.reportf(RuleNoNetwork, "uses navigator.serviceWorker")
	case c.isHost(obj):
		c.reportf(RuleBridgeOnly, "reaches into the host's window (%s)", src(e))
	}
}

// isIndex reports whether a property name is an array index (window[0]).
func isIndex(name string) bool {
	if name == "" {
		return false
	}
	_, err := strconv.ParseUint(name, 10, 32)
	return err == nil
}

// fold evaluates e when it is built only from literals, constants and a
// few string functions ("loc" + "ation", ["hr", "ef"].join(""),
// String.fromCharCode(...), atob("..."), "noitacol".split("").reverse().join("")).
func (c *jsChecker) fold(e jsast.IExpr, depth int) (string, bool) {
	if depth > maxFold || e == nil {
		return "", false
	}
	switch x := e.(type) {
	case *jsast.LiteralExpr:
		return literalValue(x)
	case *jsast.GroupExpr:
		return c.fold(x.X, depth+1)
	case *jsast.TemplateExpr:
		if x.Tag != nil {
			return "", false
		}
		var b strings.Builder
		for _, p := range x.List {
			s, ok := templateText(p.Value)
			if !ok {
				return "", false
			}
			b.WriteString(s)
			v, ok := c.fold(p.Expr, depth+1)
			if !ok {
				return "", false
			}
			b.WriteString(v)
		}
		s, ok := templateText(x.Tail)
		if !ok {
			return "", false
		}
		b.WriteString(s)
		return b.String(), true
	case *jsast.BinaryExpr:
		if x.Op != jsast.AddToken {
			return "", false
		}
		l, ok := c.fold(x.X, depth+1)
		if !ok {
			return "", false
		}
		r, ok := c.fold(x.Y, depth+1)
		return l + r, ok
	case *jsast.Var:
		init, ok := c.inits[root(x)]
		if !ok {
			return "", false
		}
		return c.fold(init, depth+1)
	case *jsast.CallExpr:
		return c.foldCall(x, depth)
	}
	return "", false
}

func (c *jsChecker) foldArgs(args []jsast.Arg, depth int) ([]string, bool) {
	out := make([]string, 0, len(args))
	for _, a := range args {
		if a.Rest {
			return nil, false
		}
		s, ok := c.fold(a.Value, depth+1)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

func (c *jsChecker) foldCall(x *jsast.CallExpr, depth int) (string, bool) {
	obj, name := c.callee(x.X)
	args, ok := c.foldArgs(x.Args.List, depth)
	if !ok {
		return "", false
	}
	num := func(i, def int) int {
		if i < len(args) {
			if n, err := strconv.Atoi(args[i]); err == nil {
				return n
			}
		}
		return def
	}
	if obj == nil || c.isWindow(obj) {
		switch name {
		case "atob":
			if len(args) == 1 {
				b, err := base64.StdEncoding.DecodeString(args[0])
				return string(b), err == nil
			}
		case "decodeURIComponent", "decodeURI", "unescape":
			if len(args) == 1 {
				s, err := url.PathUnescape(args[0])
				return s, err == nil
			}
		case "String":
			if len(args) == 1 {
				return args[0], true
			}
		}
		return "", false
	}
	if global(c.resolve(obj), "String") && (name == "fromCharCode" || name == "fromCodePoint") {
		var b strings.Builder
		for i := range args {
			r := num(i, -1)
			if r < 0 || r > utf8.MaxRune {
				return "", false
			}
			b.WriteRune(rune(r))
		}
		return b.String(), true
	}
	if name == "join" {
		list, ok := c.foldArray(obj, depth+1)
		if !ok {
			return "", false
		}
		sep := ","
		if len(args) > 0 {
			sep = args[0]
		}
		return strings.Join(list, sep), true
	}
	s, ok := c.fold(obj, depth+1)
	if !ok {
		return "", false
	}
	r := []rune(s)
	clamp := func(i int) int {
		if i < 0 {
			i += len(r)
		}
		return max(0, min(i, len(r)))
	}
	switch name {
	case "toLowerCase", "toLocaleLowerCase":
		return strings.ToLower(s), true
	case "toUpperCase", "toLocaleUpperCase":
		return strings.ToUpper(s), true
	case "trim":
		return strings.TrimSpace(s), true
	case "toString", "valueOf", "normalize":
		return s, true
	case "concat":
		return s + strings.Join(args, ""), true
	case "slice", "substring":
		a, b := clamp(num(0, 0)), clamp(num(1, len(r)))
		if name == "substring" && a > b {
			a, b = b, a
		}
		if a > b {
			return "", true
		}
		return string(r[a:b]), true
	case "substr":
		a := clamp(num(0, 0))
		return string(r[a:clamp(a+num(1, len(r)))]), true
	case "replace", "replaceAll":
		if len(args) == 2 {
			if name == "replace" {
				return strings.Replace(s, args[0], args[1], 1), true
			}
			return strings.ReplaceAll(s, args[0], args[1]), true
		}
	case "repeat":
		if n := num(0, -1); n >= 0 && n*len(s) < 1<<12 {
			return strings.Repeat(s, n), true
		}
	case "at", "charAt":
		if i := num(0, 0); i >= -len(r) && i < len(r) {
			return string(r[clamp(i)]), true
		}
	}
	return "", false
}

// foldArray evaluates an array of constant strings: a literal, a split
// string, reversed, concatenated.
func (c *jsChecker) foldArray(e jsast.IExpr, depth int) ([]string, bool) {
	if depth > maxFold || e == nil {
		return nil, false
	}
	e = c.resolve(e)
	switch x := e.(type) {
	case *jsast.ArrayExpr:
		var out []string
		for _, el := range x.List {
			if el.Spread || el.Value == nil {
				return nil, false
			}
			s, ok := c.fold(el.Value, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	case *jsast.CallExpr:
		obj, name := c.callee(x.X)
		if obj == nil {
			return nil, false
		}
		args, ok := c.foldArgs(x.Args.List, depth)
		if !ok {
			return nil, false
		}
		switch name {
		case "split":
			s, ok := c.fold(obj, depth+1)
			if !ok || len(args) != 1 {
				return nil, false
			}
			if args[0] == "" {
				var out []string
				for _, r := range s {
					out = append(out, string(r))
				}
				return out, true
			}
			return strings.Split(s, args[0]), true
		case "reverse", "toReversed":
			list, ok := c.foldArray(obj, depth+1)
			if !ok {
				return nil, false
			}
			out := make([]string, len(list))
			for i, s := range list {
				out[len(list)-1-i] = s
			}
			return out, true
		case "concat":
			list, ok := c.foldArray(obj, depth+1)
			return append(list, args...), ok
		}
	}
	return nil, false
}

// literalValue is the value of a string or number literal.
func literalValue(l *jsast.LiteralExpr) (string, bool) {
	switch l.TokenType {
	case jsast.StringToken:
		return unquoteJS(l.Data)
	case jsast.IntegerToken, jsast.DecimalToken:
		if f, err := strconv.ParseFloat(strings.ReplaceAll(string(l.Data), "_", ""), 64); err == nil {
			return strconv.FormatFloat(f, 'f', -1, 64), true
		}
	}
	return "", false
}

// templateText is the cooked text of a template piece (`abc${, }abc${,
// }abc`, `abc`).
func templateText(raw []byte) (string, bool) {
	s := string(raw)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "`"), "}")
	s = strings.TrimSuffix(strings.TrimSuffix(s, "`"), "${")
	return unescapeJS(s)
}

// unquoteJS decodes a quoted JavaScript string literal.
func unquoteJS(b []byte) (string, bool) {
	if len(b) < 2 {
		return "", false
	}
	return unescapeJS(string(b[1 : len(b)-1]))
}

// unescapeJS resolves JavaScript escape sequences.
func unescapeJS(s string) (string, bool) {
	if !strings.Contains(s, `\`) {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch != '\\' {
			b.WriteByte(ch)
			continue
		}
		i++
		if i >= len(s) {
			return "", false
		}
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0':
			b.WriteByte(0)
		case '\n':
			// line continuation
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case 'x':
			if i+2 >= len(s) {
				return "", false
			}
			n, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return "", false
			}
			b.WriteRune(rune(n))
			i += 2
		case 'u':
			hex := ""
			if i+1 < len(s) && s[i+1] == '{' {
				end := strings.IndexByte(s[i:], '}')
				if end < 0 {
					return "", false
				}
				hex = s[i+2 : i+end]
				i += end
			} else {
				if i+4 >= len(s) {
					return "", false
				}
				hex = s[i+1 : i+5]
				i += 4
			}
			n, err := strconv.ParseUint(hex, 16, 32)
			if err != nil {
				return "", false
			}
			b.WriteRune(rune(n))
		default:
			b.WriteByte(e)
		}
	}
	return b.String(), true
}
