/*
 * genui mcpshim: a self-contained implementation of the MCP Apps view side
 * (the App class of @modelcontextprotocol/ext-apps, spec 2026-01-26).
 * It talks JSON-RPC 2.0 with the host over postMessage to window.parent.
 * No dependencies, no network. Exposed as window.McpApps.App and window.App.
 * This file must never contain a closing script tag or an HTML comment opener:
 * it is inlined into a script element.
 */
(function (global) {
  "use strict";
  /**
   * The navigation guard: an MCP App never leaves its own document (a page
   * that navigates its frame can carry tool results out in the URL; links
   * go through app.openLink). Cross-document navigations the page starts
   * (location.href = ..., a form submission, a meta refresh, a link in the
   * frame) are cancelled through the Navigation API and reported to the
   * host as an error log, logger "genui/navigation-guard". Same-document
   * navigations (#hash, pushState) and srcdoc/about:blank loads a host
   * starts are left alone. Where the Navigation API is missing (it is in
   * Chromium since 102; other engines as they ship it) nothing is guarded
   * here: the host's own checks remain.
   * It is installed before anything else of the shim, whatever the page set
   * (no global flag says it is there), and takes what it calls at an event
   * (preventDefault, the event's getters, the host's postMessage) now, so a
   * page that patches Event.prototype or NavigateEvent.prototype later does
   * not turn it off. In a model-written page the shim is the document's
   * first script (InjectGuarded), so nothing of the page runs before it.
   */
  (function installNavigationGuard() {
    var nav = global.navigation;
    if (!nav || typeof nav.addEventListener !== "function" || typeof global.NavigateEvent !== "function") return;
    var apply = Reflect.apply, getDesc = Object.getOwnPropertyDescriptor;
    var getter = function (ctor, name) {
      for (var p = ctor && ctor.prototype; p; p = Object.getPrototypeOf(p)) {
        var d = getDesc(p, name);
        if (d) return d.get;
      }
      return undefined;
    };
    var preventDefault = global.Event.prototype.preventDefault;
    var cancelable = getter(global.Event, "cancelable");
    var destination = getter(global.NavigateEvent, "destination");
    var hashChange = getter(global.NavigateEvent, "hashChange");
    var navigationType = getter(global.NavigateEvent, "navigationType");
    var destURL = getter(global.NavigationDestination, "url");
    var sameDocument = getter(global.NavigationDestination, "sameDocument");
    var host = global.parent, post = host && host.postMessage;
    var toStr = String, slice = String.prototype.slice;
    var get = function (g, obj) { return g ? apply(g, obj, []) : undefined; };
    nav.addEventListener("navigate", function (e) {
      var dest = get(destination, e), url = dest ? toStr(get(destURL, dest) || "") : "";
      if (!get(cancelable, e) || (dest && get(sameDocument, dest)) || get(hashChange, e) || url === "about:srcdoc" || url === "about:blank") return;
      apply(preventDefault, e, []);
      try {
        apply(post, host, [{ jsonrpc: "2.0", method: "notifications/message", params: { level: "error",
          logger: "genui/navigation-guard", data: { blocked: true, url: apply(slice, url, [0, 2000]), navigationType: toStr(get(navigationType, e) || "") } } }, "*"]);
      } catch (err) { /* no host to tell */ }
    });
  })();

  if (global.McpApps && global.McpApps.App) {
    return; // already loaded (the shim is idempotent)
  }

  var PROTOCOL_VERSION = "2026-01-26";
  // The SDK's default request timeout (DEFAULT_REQUEST_TIMEOUT_MSEC).
  var DEFAULT_TIMEOUT_MS = 60000;
  var RESIZE_DEBOUNCE_MS = 30;
  // Auto-resize's first report waits for the first result's frame or an
  // idle moment, at most this long after the handshake (see _startAutoResize).
  var FIRST_SIZE_MS = 200;
  var FIRST_SIZE_FALLBACK_MS = 50;

  // JSON-RPC error codes used here.
  var METHOD_NOT_FOUND = -32601;
  var INTERNAL_ERROR = -32603;
  var REQUEST_TIMEOUT = -32001;

  // Notification method -> event name of the on* handler it feeds.
  var NOTIFICATION_EVENTS = {
    "ui/notifications/tool-input": "toolinput",
    "ui/notifications/tool-input-partial": "toolinputpartial",
    "ui/notifications/tool-result": "toolresult",
    "ui/notifications/tool-cancelled": "toolcancelled",
    "ui/notifications/host-context-changed": "hostcontextchanged"
  };
  // Events the host sends once: if one arrives while no handler or listener
  // is set, its payload is replayed once to a handler assigned later, so a UI
  // that sets ontoolresult after connect() still sees the result.
  var REPLAYED = { toolinput: true, toolresult: true, toolcancelled: true };

  function isObject(v) {
    return v !== null && typeof v === "object" && !Array.isArray(v);
  }

  /** Reports whether v looks like a schema object (zod, Standard Schema). */
  function isSchema(v) {
    return isObject(v) && (typeof v.parse === "function" || typeof v.safeParse === "function" || isObject(v["~standard"]));
  }

  function rpcError(code, message, data) {
    var e = new Error(message);
    e.code = code;
    if (data !== undefined) e.data = data;
    return e;
  }

  /** Sets data-theme and color-scheme on the root element. */
  function applyDocumentTheme(theme) {
    if (theme !== "light" && theme !== "dark") return;
    var root = document.documentElement;
    root.setAttribute("data-theme", theme);
    root.style.colorScheme = theme;
  }

  /** Returns the theme set on the root element, else the system preference. */
  function getDocumentTheme() {
    var t = document.documentElement.getAttribute("data-theme");
    if (t === "light" || t === "dark") return t;
    return global.matchMedia && global.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }

  /** Applies host style variables ("--name": value) as custom properties. */
  function applyHostStyleVariables(vars, root) {
    if (!isObject(vars)) return;
    root = root || document.documentElement;
    Object.keys(vars).forEach(function (k) {
      var v = vars[k];
      if (k.indexOf("--") !== 0 || v === undefined || v === null) return;
      root.style.setProperty(k, String(v));
    });
  }

  /** Installs the host's font CSS (styles.css.fonts) in one style element. */
  function applyHostFonts(css) {
    if (typeof css !== "string" || !css) return;
    var el = document.getElementById("mcp-host-fonts");
    if (!el) {
      el = document.createElement("style");
      el.id = "mcp-host-fonts";
      (document.head || document.documentElement).appendChild(el);
    }
    el.textContent = css;
  }

  function applyHostContext(ctx) {
    if (!isObject(ctx)) return;
    try {
      if (ctx.theme) applyDocumentTheme(ctx.theme);
      if (isObject(ctx.styles)) {
        applyHostStyleVariables(ctx.styles.variables);
        if (isObject(ctx.styles.css)) applyHostFonts(ctx.styles.css.fonts);
      }
    } catch (e) {
      console.warn("mcp-apps: applying host context failed", e);
    }
  }

  /**
   * PostMessageTransport is accepted by App.connect for compatibility with
   * code written against the SDK; the shim only uses its target window.
   */
  function PostMessageTransport(eventTarget, eventSource) {
    this.eventTarget = eventTarget || global.parent;
    this.eventSource = eventSource || this.eventTarget;
  }

  /**
   * App is the view side of an MCP App.
   * @param {{name: string, version: string}} appInfo
   * @param {object} [capabilities] McpUiAppCapabilities
   * @param {{autoResize?: boolean, timeout?: number, strict?: boolean}} [options]
   *   autoResize defaults to true; timeout (ms) is the default per-request
   *   timeout (60000); strict makes host-bound calls before connect() throw.
   */
  function App(appInfo, capabilities, options) {
    if (!(this instanceof App)) throw new TypeError("App must be called with new");
    this._appInfo = appInfo || { name: "mcp-app", version: "0.0.0" };
    this._capabilities = capabilities || {};
    this._options = options || {};
    if (this._options.autoResize === undefined) this._options.autoResize = true;
    this._timeout = this._options.timeout > 0 ? this._options.timeout : DEFAULT_TIMEOUT_MS;
    this._nextId = 1;
    this._pending = new Map();   // request id -> pending request
    this._handlers = {};         // event name -> on* handler
    this._listeners = {};        // event name -> [listener]
    this._last = {};             // event name -> last params (REPLAYED only)
    this._requestHandlers = {};  // host -> view request method -> fn(params, extra)
    this._notificationHandlers = {}; // other notification method -> fn(params)
    this._inflight = new Map();  // host request id -> AbortController
    this._tools = {};            // registerTool registry
    this._target = null;
    this._transport = null;
    this._connected = false;     // ui/notifications/initialized was sent
    this._outbox = [];           // messages held back during the handshake
    this._hostContext = undefined;
    this._hostCapabilities = undefined;
    this._hostInfo = undefined;
    this._onMessage = this._handleMessage.bind(this);
    this._resizeCleanup = null;
    this._resultShown = null;    // auto-resize's wait for the first result (_startAutoResize)
    this.onteardown = undefined;
    this.oncalltool = undefined;
    this.onlisttools = undefined;
    this.onerror = undefined;
    this.onclose = undefined;
  }

  // on* handler properties with DOM replace semantics.
  Object.keys(NOTIFICATION_EVENTS).forEach(function (method) {
    var ev = NOTIFICATION_EVENTS[method];
    Object.defineProperty(App.prototype, "on" + ev, {
      configurable: true,
      enumerable: true,
      get: function () { return this._handlers[ev]; },
      set: function (fn) {
        this._handlers[ev] = typeof fn === "function" ? fn : undefined;
        if (this._handlers[ev]) this._replay(ev, this._handlers[ev]);
      }
    });
  });

  /** The transport passed to connect() (or the default one) while connected. */
  Object.defineProperty(App.prototype, "transport", {
    configurable: true,
    get: function () { return this._transport || undefined; }
  });

  App.prototype._replay = function (ev, fn) {
    if (!REPLAYED[ev] || this._last[ev] === undefined) return;
    var self = this, params = this._last[ev];
    delete this._last[ev];
    Promise.resolve().then(function () { self._call(fn, params, ev); });
  };

  /** Appends a listener for a notification event (toolinput, toolresult, ...). */
  App.prototype.addEventListener = function (ev, fn) {
    if (typeof fn !== "function") return;
    (this._listeners[ev] = this._listeners[ev] || []).push(fn);
    this._replay(ev, fn);
  };

  App.prototype.removeEventListener = function (ev, fn) {
    var l = this._listeners[ev];
    if (l) this._listeners[ev] = l.filter(function (f) { return f !== fn; });
  };

  /**
   * handlerArgs accepts the SDK's registration forms: (method, handler),
   * (method, {params, result}, handler) and the deprecated
   * (Schema, handler) whose handler receives the whole {method, params}.
   * It returns [method, fn(params, extra)].
   */
  function handlerArgs(args, kind) {
    var first = args[0], fn = args[args.length - 1];
    if (typeof fn !== "function") throw new TypeError(kind + " needs a handler function");
    if (typeof first === "string") return [first, fn];
    var shape = first && first.shape;
    var m = shape && shape.method && (shape.method.value !== undefined ? shape.method.value : shape.method._def && shape.method._def.value);
    if (typeof m !== "string") throw new TypeError(kind + " needs a method name");
    return [m, function (params, extra) { return fn({ method: m, params: params }, extra); }];
  }

  /** Registers a handler for a host -> view request method. */
  App.prototype.setRequestHandler = function () {
    var a = handlerArgs(arguments, "setRequestHandler");
    this._requestHandlers[a[0]] = a[1];
  };

  App.prototype.removeRequestHandler = function (method) {
    delete this._requestHandlers[method];
  };

  /** Registers a handler for a host -> view notification method. */
  App.prototype.setNotificationHandler = function () {
    var a = handlerArgs(arguments, "setNotificationHandler");
    this._notificationHandlers[a[0]] = a[1];
  };

  App.prototype.removeNotificationHandler = function (method) {
    delete this._notificationHandlers[method];
  };

  App.prototype._call = function (fn, params, ev) {
    try {
      fn.call(this, params);
    } catch (e) {
      console.error("mcp-apps: " + ev + " handler threw", e);
    }
    if (ev === "toolresult" && this._resultShown) this._resultShown();
  };

  App.prototype.getHostContext = function () { return this._hostContext; };
  App.prototype.getHostCapabilities = function () { return this._hostCapabilities; };
  App.prototype.getHostVersion = function () { return this._hostInfo; };

  /**
   * Performs the ui/initialize handshake with window.parent, stores the
   * host context, sends ui/notifications/initialized and starts auto-resize.
   * Requests and notifications the app sends while the handshake is running
   * are held back and sent right after ui/notifications/initialized.
   */
  App.prototype.connect = async function (transport, options) {
    if (this._target) throw new Error("App is already connected. Call close() before connecting again.");
    var target = transport && transport.eventTarget ? transport.eventTarget : global.parent;
    if (!target || target === global) {
      throw new Error("MCP Apps: not running inside a host iframe (window.parent is this window); nothing to connect to");
    }
    this._target = target;
    this._transport = transport || new PostMessageTransport(target, target);
    global.addEventListener("message", this._onMessage);
    try {
      var opts = Object.assign({}, options || {}, { _handshake: true });
      var result = await this.request("ui/initialize", {
        appInfo: this._appInfo,
        appCapabilities: this._capabilities,
        protocolVersion: PROTOCOL_VERSION
      }, opts);
      if (!isObject(result)) throw new Error("MCP Apps: host sent an invalid ui/initialize result");
      this._hostCapabilities = isObject(result.hostCapabilities) ? result.hostCapabilities : {};
      this._hostInfo = result.hostInfo;
      this._hostContext = isObject(result.hostContext) ? result.hostContext : {};
      applyHostContext(this._hostContext);
      this._send({ jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} }, true);
      this._connected = true;
      var held = this._outbox;
      this._outbox = [];
      held.forEach(function (msg) { this._send(msg, true); }, this);
      if (this._options.autoResize) this._startAutoResize();
    } catch (e) {
      this.close();
      throw e;
    }
  };

  /** Stops listening, rejects pending requests and stops auto-resize. */
  App.prototype.close = function () {
    var wasOpen = !!this._target;
    global.removeEventListener("message", this._onMessage);
    if (this._resizeCleanup) this._resizeCleanup();
    this._resizeCleanup = null;
    var pending = Array.from(this._pending.keys());
    pending.forEach(function (id) {
      var p = this._pending.get(id);
      this._settle(id);
      p.reject(new Error("MCP Apps: connection closed before the host answered " + p.method));
    }, this);
    this._inflight.forEach(function (c) { if (c) c.abort(); });
    this._inflight.clear();
    this._outbox = [];
    this._target = null;
    this._transport = null;
    this._connected = false;
    if (wasOpen && typeof this.onclose === "function") {
      try { this.onclose(); } catch (e) { console.error("mcp-apps: onclose threw", e); }
    }
    return Promise.resolve();
  };

  /**
   * _send posts msg to the host, or holds it back while the handshake runs
   * (unless now is set: the handshake's own messages and replies).
   */
  App.prototype._send = function (msg, now) {
    if (!this._target) throw new Error("MCP Apps: not connected (call app.connect() first)");
    if (!now && !this._connected) {
      this._outbox.push(msg);
      return;
    }
    this._target.postMessage(msg, "*");
  };

  /** Throws under options.strict when called before connect() finished. */
  App.prototype._assertInitialized = function (what) {
    if (this._connected || !this._options.strict) return;
    throw new Error("[ext-apps] App." + what + "() called before connect() completed the ui/initialize handshake. Await app.connect() before calling this method.");
  };

  // normalizeCall accepts request(method, params, options) and the SDK's
  // request({method, params}, resultSchema?, options?).
  function normalizeCall(a, b, c) {
    if (isObject(a) && typeof a.method === "string") {
      return { method: a.method, params: a.params, options: isSchema(b) ? c : (b || c) };
    }
    return { method: a, params: b, options: c };
  }

  /**
   * Sends a JSON-RPC request and resolves with its result. Accepts
   * request(method, params, options) and request({method, params}, schema?, options?).
   * options: timeout (ms), signal (AbortSignal), onprogress(progress),
   * resetTimeoutOnProgress, maxTotalTimeout (ms). Rejects with an Error
   * (with .code) on a JSON-RPC error, a timeout, an abort or close().
   */
  App.prototype.request = function (a, b, c) {
    var self = this, call = normalizeCall(a, b, c);
    var method = call.method, params = call.params, o = call.options || {};
    var timeout = o.timeout > 0 ? o.timeout : this._timeout;
    return new Promise(function (resolve, reject) {
      if (typeof method !== "string" || !method) {
        reject(new TypeError("request() needs a method name"));
        return;
      }
      if (o.signal && o.signal.aborted) {
        reject(abortError(o.signal, method));
        return;
      }
      var id = self._nextId++;
      var msg = { jsonrpc: "2.0", id: id, method: method };
      if (params !== undefined) msg.params = params;
      if (typeof o.onprogress === "function") {
        msg.params = Object.assign({}, params || {});
        msg.params._meta = Object.assign({}, (params && params._meta) || {}, { progressToken: id });
      }
      var p = {
        method: method, resolve: resolve, reject: reject, timeout: timeout, start: Date.now(),
        onprogress: o.onprogress, reset: !!o.resetTimeoutOnProgress, maxTotal: o.maxTotalTimeout,
        signal: o.signal, onAbort: null, timer: null
      };
      p.onTimeout = function () {
        self._settle(id);
        reject(rpcError(REQUEST_TIMEOUT, "MCP Apps: request " + method + " timed out after " + timeout + " ms (no answer from the host)", { timeout: timeout }));
      };
      p.timer = setTimeout(p.onTimeout, timeout);
      if (o.signal && typeof o.signal.addEventListener === "function") {
        p.onAbort = function () {
          self._settle(id);
          var reason = o.signal.reason !== undefined ? String(o.signal.reason) : "aborted";
          try { self._send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: reason } }); } catch (e) { /* closed */ }
          reject(abortError(o.signal, method));
        };
        o.signal.addEventListener("abort", p.onAbort, { once: true });
      }
      self._pending.set(id, p);
      try {
        self._send(msg, !!o._handshake);
      } catch (e) {
        self._settle(id);
        reject(e);
      }
    });
  };

  function abortError(signal, method) {
    var r = signal && signal.reason;
    if (r instanceof Error) return r;
    return new Error("MCP Apps: request " + method + " was aborted" + (r !== undefined ? ": " + String(r) : ""));
  }

  /** Forgets a pending request: clears its timer and abort listener. */
  App.prototype._settle = function (id) {
    var p = this._pending.get(id);
    if (!p) return;
    this._pending.delete(id);
    clearTimeout(p.timer);
    if (p.onAbort && p.signal) p.signal.removeEventListener("abort", p.onAbort);
  };

  /**
   * Sends a JSON-RPC notification. Accepts notification(method, params) and
   * the SDK's notification({method, params}). Resolves once posted.
   */
  App.prototype.notification = function (a, b) {
    var call = normalizeCall(a, b);
    var msg = { jsonrpc: "2.0", method: call.method };
    if (call.params !== undefined) msg.params = call.params;
    try {
      this._send(msg);
      return Promise.resolve();
    } catch (e) {
      return Promise.reject(e);
    }
  };

  App.prototype._handleMessage = function (event) {
    if (event.source !== this._target) return;
    var msg = event.data;
    if (!isObject(msg) || msg.jsonrpc !== "2.0") return;
    var hasId = msg.id !== undefined && msg.id !== null;
    if (hasId && typeof msg.method !== "string") {
      this._handleResponse(msg);
    } else if (hasId) {
      this._handleRequest(msg);
    } else if (typeof msg.method === "string") {
      this._handleNotification(msg);
    }
  };

  App.prototype._handleResponse = function (msg) {
    var p = this._pending.get(msg.id);
    if (!p) return;
    this._settle(msg.id);
    if (isObject(msg.error)) {
      var e = rpcError(msg.error.code, msg.error.message || ("MCP Apps: " + p.method + " failed with code " + msg.error.code), msg.error.data);
      p.reject(e);
    } else {
      p.resolve(msg.result);
    }
  };

  App.prototype._handleRequest = async function (msg) {
    var self = this;
    var reply = function (body) {
      body.jsonrpc = "2.0";
      body.id = msg.id;
      try { self._send(body, true); } catch (e) { console.warn("mcp-apps: reply failed", e); }
    };
    var handler = null;
    if (msg.method === "ui/resource-teardown") {
      handler = this.onteardown || function () { return {}; };
    } else if (msg.method === "ping") {
      handler = function () { return {}; };
    } else if (msg.method === "tools/call" && this.oncalltool) {
      handler = this.oncalltool;
    } else if (msg.method === "tools/list" && this.onlisttools) {
      handler = this.onlisttools;
    } else if (this._requestHandlers[msg.method]) {
      handler = this._requestHandlers[msg.method];
    }
    if (!handler) {
      reply({ error: { code: METHOD_NOT_FOUND, message: "Method not found: " + msg.method } });
      return;
    }
    var ctrl = typeof AbortController === "function" ? new AbortController() : null;
    this._inflight.set(msg.id, ctrl);
    var extra = {
      requestId: msg.id,
      signal: ctrl ? ctrl.signal : undefined,
      _meta: isObject(msg.params) ? msg.params._meta : undefined,
      sendNotification: function (n) { return self.notification(n); },
      sendRequest: function (r, s, o) { return self.request(r, s, o); }
    };
    try {
      var result = await handler.call(this, isObject(msg.params) ? msg.params : {}, extra);
      if (!ctrl || !ctrl.signal.aborted) reply({ result: result === undefined ? {} : result });
    } catch (e) {
      if (!ctrl || !ctrl.signal.aborted) {
        reply({ error: { code: typeof (e && e.code) === "number" ? e.code : INTERNAL_ERROR, message: (e && e.message) || String(e) } });
      }
    } finally {
      this._inflight.delete(msg.id);
    }
  };

  App.prototype._handleNotification = function (msg) {
    var params = isObject(msg.params) ? msg.params : {};
    if (msg.method === "notifications/progress") {
      this._progress(params);
      return;
    }
    if (msg.method === "notifications/cancelled") {
      var c = this._inflight.get(params.requestId);
      if (c) c.abort(params.reason);
      return;
    }
    var ev = NOTIFICATION_EVENTS[msg.method];
    if (!ev) {
      var nh = this._notificationHandlers[msg.method];
      if (nh) this._call(nh, params, msg.method);
      return;
    }
    if (ev === "hostcontextchanged") {
      // Partial update: merge top-level fields, as the SDK does.
      this._hostContext = Object.assign({}, this._hostContext || {}, params);
      applyHostContext(params);
    }
    var h = this._handlers[ev];
    var listeners = (this._listeners[ev] || []).slice();
    if (REPLAYED[ev]) {
      if (!h && !listeners.length) this._last[ev] = params;
      else delete this._last[ev];
    }
    if (h) this._call(h, params, ev);
    listeners.forEach(function (fn) { this._call(fn, params, ev); }, this);
  };

  /** Handles notifications/progress for a request sent with onprogress. */
  App.prototype._progress = function (params) {
    var id = params.progressToken, p = this._pending.get(id);
    if (!p || typeof p.onprogress !== "function") return;
    if (p.reset) {
      if (p.maxTotal > 0 && Date.now() - p.start >= p.maxTotal) {
        this._settle(id);
        p.reject(rpcError(REQUEST_TIMEOUT, "MCP Apps: request " + p.method + " exceeded its maximum total timeout of " + p.maxTotal + " ms", { maxTotalTimeout: p.maxTotal }));
        return;
      }
      clearTimeout(p.timer);
      p.timer = setTimeout(p.onTimeout, p.timeout);
    }
    try { p.onprogress(params); } catch (e) { console.error("mcp-apps: onprogress threw", e); }
  };

  /**
   * tools/call through the host. params is {name, arguments}. As in the SDK,
   * the request carries a progress token and progress resets its timeout.
   */
  App.prototype.callServerTool = function (params, options) {
    if (typeof params === "string") {
      return Promise.reject(new Error('callServerTool() expects an object: callServerTool({ name: "' + params + '", arguments: { ... } })'));
    }
    if (!isObject(params) || typeof params.name !== "string" || !params.name) {
      return Promise.reject(new Error("callServerTool() needs { name: string, arguments?: object }"));
    }
    try { this._assertInitialized("callServerTool"); } catch (e) { return Promise.reject(e); }
    var o = Object.assign({ onprogress: function () {}, resetTimeoutOnProgress: true }, options || {});
    return this.request("tools/call", params, o);
  };

  App.prototype._hostRequest = function (what, method, params, options) {
    try { this._assertInitialized(what); } catch (e) { return Promise.reject(e); }
    return this.request(method, params, options);
  };

  App.prototype.readServerResource = function (params, options) {
    if (!isObject(params) || typeof params.uri !== "string") {
      return Promise.reject(new Error("readServerResource() needs { uri: string }"));
    }
    return this._hostRequest("readServerResource", "resources/read", params, options);
  };

  App.prototype.listServerResources = function (params, options) {
    return this._hostRequest("listServerResources", "resources/list", params || {}, options);
  };

  /** sampling/createMessage through the host (needs hostCapabilities.sampling). */
  App.prototype.createSamplingMessage = function (params, options) {
    if (this._connected && !(this._hostCapabilities && this._hostCapabilities.sampling)) {
      return Promise.reject(new Error("Host does not support sampling (required for sampling/createMessage)"));
    }
    return this._hostRequest("createSamplingMessage", "sampling/createMessage", params, options);
  };

  /** ui/message, e.g. {role: "user", content: [{type: "text", text}]}. */
  App.prototype.sendMessage = function (params, options) {
    return this._hostRequest("sendMessage", "ui/message", params, options);
  };

  /** ui/update-model-context {content?, structuredContent?}. */
  App.prototype.updateModelContext = function (params, options) {
    return this._hostRequest("updateModelContext", "ui/update-model-context", params, options);
  };

  /** ui/open-link {url}; a plain string is accepted as the url. */
  App.prototype.openLink = function (params, options) {
    if (typeof params === "string") params = { url: params };
    return this._hostRequest("openLink", "ui/open-link", params, options);
  };
  App.prototype.sendOpenLink = App.prototype.openLink;

  /** ui/download-file {contents: [EmbeddedResource | ResourceLink]}. */
  App.prototype.downloadFile = function (params, options) {
    return this._hostRequest("downloadFile", "ui/download-file", params, options);
  };

  /** ui/request-display-mode {mode}; a plain string is accepted as the mode. */
  App.prototype.requestDisplayMode = function (params, options) {
    if (typeof params === "string") params = { mode: params };
    return this._hostRequest("requestDisplayMode", "ui/request-display-mode", params, options);
  };

  App.prototype.requestTeardown = function (params) {
    return this.notification("ui/notifications/request-teardown", params || {});
  };

  /** notifications/message {level, data, logger?}. */
  App.prototype.sendLog = function (params) {
    return this.notification("notifications/message", params);
  };

  /** ui/notifications/size-changed {width?, height?}. */
  App.prototype.sendSizeChanged = function (params) {
    return this.notification("ui/notifications/size-changed", params);
  };

  /** notifications/tools/list_changed, for tools the app exposes. */
  App.prototype.sendToolListChanged = function (params) {
    return this.notification("notifications/tools/list_changed", params || {});
  };

  // validateWith runs a Standard Schema (zod, valibot, ...) if schema is one;
  // plain JSON Schema objects are only advertised, not enforced.
  async function validateWith(schema, value, prefix) {
    var std = isObject(schema) && schema["~standard"];
    if (!std || typeof std.validate !== "function") return value;
    var r = await std.validate(value);
    if (r && r.issues) {
      throw new Error(prefix + r.issues.map(function (i) { return i.message; }).join("; "));
    }
    return r ? r.value : value;
  }

  // jsonSchemaOf returns a JSON Schema for tools/list: a plain schema object
  // as is, a Standard Schema's JSON form when it offers one, else an object.
  function jsonSchemaOf(schema) {
    var std = isObject(schema) && schema["~standard"];
    if (!std) return isObject(schema) ? schema : { type: "object", properties: {} };
    try {
      if (std.jsonSchema && typeof std.jsonSchema.input === "function") return std.jsonSchema.input({ target: "draft-2020-12" });
    } catch (e) { /* fall through */ }
    return { type: "object", properties: {} };
  }

  /**
   * Registers a tool the host may call on the app (tools/call, tools/list),
   * as the SDK's App.registerTool: cb(args, extra) with an inputSchema,
   * cb(extra) without. Returns a handle with enable/disable/update/remove.
   */
  App.prototype.registerTool = function (name, config, cb) {
    if (typeof name !== "string" || !name) throw new TypeError("registerTool() needs a tool name");
    if (typeof cb !== "function") throw new TypeError("registerTool(" + name + ") needs a callback");
    if (this._tools[name]) throw new Error("Tool " + name + " is already registered");
    config = config || {};
    var self = this;
    var changed = function () {
      if (self._connected && self._capabilities.tools && self._capabilities.tools.listChanged) {
        self.sendToolListChanged().catch(function () {});
      }
    };
    var tool = {
      title: config.title, description: config.description, inputSchema: config.inputSchema,
      outputSchema: config.outputSchema, annotations: config.annotations, _meta: config._meta,
      enabled: true,
      enable: function () { this.enabled = true; changed(); },
      disable: function () { this.enabled = false; changed(); },
      update: function (u) { Object.assign(this, u || {}); changed(); },
      remove: function () { if (self._tools[name] === tool) { delete self._tools[name]; changed(); } },
      handler: async function (args, extra) {
        if (!tool.enabled) throw new Error("Tool " + name + " is disabled");
        var r;
        if (tool.inputSchema !== undefined) {
          r = await cb(await validateWith(tool.inputSchema, args || {}, "Invalid input for tool " + name + ": "), extra);
        } else {
          r = await cb(extra);
        }
        if (tool.outputSchema && r && !r.isError) {
          r.structuredContent = await validateWith(tool.outputSchema, r.structuredContent, "Invalid output for tool " + name + ": ");
        }
        return r;
      }
    };
    this._tools[name] = tool;
    if (!this._capabilities.tools && !this._target) this._capabilities = Object.assign({}, this._capabilities, { tools: { listChanged: true } });
    if (!this._toolHandlers) {
      this._toolHandlers = true;
      this.oncalltool = function (params, extra) {
        var t = self._tools[params && params.name];
        if (!t) throw new Error("Tool " + (params && params.name) + " not found");
        return t.handler(params.arguments, extra);
      };
      this.onlisttools = function () {
        var tools = Object.keys(self._tools).filter(function (n) { return self._tools[n].enabled; }).map(function (n) {
          var t = self._tools[n], out = { name: n, inputSchema: jsonSchemaOf(t.inputSchema) };
          if (t.title !== undefined) out.title = t.title;
          if (t.description !== undefined) out.description = t.description;
          if (t.outputSchema) out.outputSchema = jsonSchemaOf(t.outputSchema);
          if (t.annotations) out.annotations = t.annotations;
          if (t._meta) out._meta = t._meta;
          return out;
        });
        return { tools: tools };
      };
    }
    changed();
    return tool;
  };

  /**
   * Auto-resize after connect() starts at the first of: the frame after the
   * page's first tool-result handler ran (painted: the next task), an idle
   * moment (requestIdleCallback, at most FIRST_SIZE_MS after the handshake;
   * without it FIRST_SIZE_FALLBACK_MS). A host sends the result right after
   * the handshake when it has it: a size measured before it is one the host
   * lays its frame out for only to do so again a moment later, and measuring
   * forces a layout of a page about to change (bench/pagerender: the host
   * and a same-origin frame share one thread). A result that takes longer
   * comes after an idle moment, so the host still learns the page's size at
   * once.
   */
  App.prototype._startAutoResize = function () {
    var self = this, done = false, idle = null, timer = null;
    var start = function () {
      if (done) return;
      stop();
      if (self._target) self.setupSizeChangedNotifications();
    };
    var stop = function () {
      done = true;
      self._resultShown = null;
      if (idle !== null) global.cancelIdleCallback(idle);
      if (timer !== null) clearTimeout(timer);
      if (self._resizeCleanup === stop) self._resizeCleanup = null;
    };
    this._resultShown = function () {
      self._resultShown = null;
      requestAnimationFrame(function () { setTimeout(start, 0); });
    };
    if (typeof global.requestIdleCallback === "function") idle = global.requestIdleCallback(start, { timeout: FIRST_SIZE_MS });
    else timer = setTimeout(start, FIRST_SIZE_FALLBACK_MS);
    this._resizeCleanup = stop;
  };

  /**
   * Reports document.body.scrollHeight (plus body margins) to the host
   * whenever the layout changes, debounced. Returns a cleanup function.
   */
  App.prototype.setupSizeChangedNotifications = function () {
    var self = this, timer = null, lastW = -1, lastH = -1;
    var measure = function () {
      timer = null;
      var body = document.body;
      if (!body || !self._target) return;
      var cs = getComputedStyle(body);
      var h = Math.ceil(body.scrollHeight + (parseFloat(cs.marginTop) || 0) + (parseFloat(cs.marginBottom) || 0));
      var w = Math.ceil(global.innerWidth);
      if (w === lastW && h === lastH) return;
      lastW = w;
      lastH = h;
      self.sendSizeChanged({ width: w, height: h }).catch(function () {});
    };
    var schedule = function () {
      if (timer === null) timer = setTimeout(measure, RESIZE_DEBOUNCE_MS);
    };
    schedule();
    var ro = null;
    if (typeof ResizeObserver === "function" && document.body) {
      ro = new ResizeObserver(schedule);
      ro.observe(document.documentElement);
      ro.observe(document.body);
    }
    var cleanup = function () {
      if (ro) ro.disconnect();
      if (timer !== null) clearTimeout(timer);
    };
    this._resizeCleanup = cleanup;
    return cleanup;
  };


  global.McpApps = {
    App: App,
    PostMessageTransport: PostMessageTransport,
    PROTOCOL_VERSION: PROTOCOL_VERSION,
    LATEST_PROTOCOL_VERSION: PROTOCOL_VERSION,
    RESOURCE_MIME_TYPE: "text/html;profile=mcp-app",
    RESOURCE_URI_META_KEY: "ui/resourceUri",
    INITIALIZE_METHOD: "ui/initialize",
    INITIALIZED_METHOD: "ui/notifications/initialized",
    TOOL_INPUT_METHOD: "ui/notifications/tool-input",
    TOOL_INPUT_PARTIAL_METHOD: "ui/notifications/tool-input-partial",
    TOOL_RESULT_METHOD: "ui/notifications/tool-result",
    TOOL_CANCELLED_METHOD: "ui/notifications/tool-cancelled",
    HOST_CONTEXT_CHANGED_METHOD: "ui/notifications/host-context-changed",
    SIZE_CHANGED_METHOD: "ui/notifications/size-changed",
    REQUEST_TEARDOWN_METHOD: "ui/notifications/request-teardown",
    RESOURCE_TEARDOWN_METHOD: "ui/resource-teardown",
    OPEN_LINK_METHOD: "ui/open-link",
    DOWNLOAD_FILE_METHOD: "ui/download-file",
    MESSAGE_METHOD: "ui/message",
    REQUEST_DISPLAY_MODE_METHOD: "ui/request-display-mode",
    applyDocumentTheme: applyDocumentTheme,
    getDocumentTheme: getDocumentTheme,
    applyHostStyleVariables: applyHostStyleVariables,
    applyHostFonts: applyHostFonts
  };
  if (global.App === undefined) global.App = App;
})(window);
