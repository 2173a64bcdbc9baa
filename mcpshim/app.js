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
  if (global.McpApps && global.McpApps.App) {
    return; // already loaded (the shim is idempotent)
  }

  var PROTOCOL_VERSION = "2026-01-26";
  var DEFAULT_TIMEOUT_MS = 30000;
  var RESIZE_DEBOUNCE_MS = 30;

  // Notification method -> event name of the on* handler it feeds.
  var NOTIFICATION_EVENTS = {
    "ui/notifications/tool-input": "toolinput",
    "ui/notifications/tool-input-partial": "toolinputpartial",
    "ui/notifications/tool-result": "toolresult",
    "ui/notifications/tool-cancelled": "toolcancelled",
    "ui/notifications/host-context-changed": "hostcontextchanged"
  };
  // Events whose last payload, if it arrived while no handler or listener
  // was set, is replayed once to a handler assigned later, so a UI that sets
  // ontoolresult after connect() still sees the result.
  var REPLAYED = { toolinput: true, toolresult: true };

  function isObject(v) {
    return v !== null && typeof v === "object" && !Array.isArray(v);
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
   * @param {{autoResize?: boolean, timeout?: number}} [options]
   */
  function App(appInfo, capabilities, options) {
    if (!(this instanceof App)) throw new TypeError("App must be called with new");
    this._appInfo = appInfo || { name: "mcp-app", version: "0.0.0" };
    this._capabilities = capabilities || {};
    this._options = options || {};
    if (this._options.autoResize === undefined) this._options.autoResize = true;
    this._timeout = this._options.timeout > 0 ? this._options.timeout : DEFAULT_TIMEOUT_MS;
    this._nextId = 1;
    this._pending = new Map();
    this._handlers = {};   // event name -> on* handler
    this._listeners = {};  // event name -> [listener]
    this._last = {};       // event name -> last params (REPLAYED only)
    this._requestHandlers = {};
    this._target = null;
    this._connected = false;
    this._hostContext = undefined;
    this._hostCapabilities = undefined;
    this._hostInfo = undefined;
    this._onMessage = this._handleMessage.bind(this);
    this._resizeCleanup = null;
    this.onteardown = undefined;
    this.oncalltool = undefined;
    this.onlisttools = undefined;
    this.onerror = undefined;
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
        if (this._handlers[ev] && REPLAYED[ev] && this._last[ev] !== undefined) {
          var self = this, params = this._last[ev];
          delete this._last[ev];
          Promise.resolve().then(function () { self._call(self._handlers[ev], params, ev); });
        }
      }
    });
  });

  App.prototype.addEventListener = function (ev, fn) {
    if (typeof fn !== "function") return;
    (this._listeners[ev] = this._listeners[ev] || []).push(fn);
  };

  App.prototype.removeEventListener = function (ev, fn) {
    var l = this._listeners[ev];
    if (l) this._listeners[ev] = l.filter(function (f) { return f !== fn; });
  };

  /** Registers a handler for a host -> view request method. */
  App.prototype.setRequestHandler = function (method, fn) {
    this._requestHandlers[method] = fn;
  };

  App.prototype._call = function (fn, params, ev) {
    try {
      fn.call(this, params);
    } catch (e) {
      console.error("mcp-apps: " + ev + " handler threw", e);
    }
  };

  App.prototype.getHostContext = function () { return this._hostContext; };
  App.prototype.getHostCapabilities = function () { return this._hostCapabilities; };
  App.prototype.getHostVersion = function () { return this._hostInfo; };

  /**
   * Performs the ui/initialize handshake with window.parent, stores the
   * host context, sends ui/notifications/initialized and starts auto-resize.
   */
  App.prototype.connect = async function (transport, options) {
    if (this._target) throw new Error("App is already connected. Call close() before connecting again.");
    var target = transport && transport.eventTarget ? transport.eventTarget : global.parent;
    if (!target || target === global) {
      throw new Error("MCP Apps: not running inside a host iframe (window.parent is this window); nothing to connect to");
    }
    this._target = target;
    global.addEventListener("message", this._onMessage);
    try {
      var result = await this.request("ui/initialize", {
        appInfo: this._appInfo,
        appCapabilities: this._capabilities,
        protocolVersion: PROTOCOL_VERSION
      }, options);
      if (!isObject(result)) throw new Error("MCP Apps: host sent an invalid ui/initialize result");
      this._hostCapabilities = result.hostCapabilities || {};
      this._hostInfo = result.hostInfo;
      this._hostContext = isObject(result.hostContext) ? result.hostContext : {};
      applyHostContext(this._hostContext);
      this._connected = true;
      this.notification("ui/notifications/initialized", {});
      if (this._options.autoResize) this.setupSizeChangedNotifications();
    } catch (e) {
      this.close();
      throw e;
    }
  };

  /** Stops listening, rejects pending requests and stops auto-resize. */
  App.prototype.close = function () {
    global.removeEventListener("message", this._onMessage);
    if (this._resizeCleanup) this._resizeCleanup();
    this._resizeCleanup = null;
    this._pending.forEach(function (p) {
      clearTimeout(p.timer);
      p.reject(new Error("MCP Apps: connection closed before the host answered " + p.method));
    });
    this._pending.clear();
    this._target = null;
    this._connected = false;
  };

  App.prototype._post = function (msg) {
    if (!this._target) throw new Error("MCP Apps: not connected (call app.connect() first)");
    this._target.postMessage(msg, "*");
  };

  /**
   * Sends a JSON-RPC request and resolves with its result. Rejects with an
   * Error on a JSON-RPC error or after the timeout (options.timeout ms).
   */
  App.prototype.request = function (method, params, options) {
    var self = this;
    var timeout = options && options.timeout > 0 ? options.timeout : this._timeout;
    return new Promise(function (resolve, reject) {
      var id = self._nextId++;
      var timer = setTimeout(function () {
        self._pending.delete(id);
        reject(new Error("MCP Apps: request " + method + " timed out after " + timeout + " ms (no answer from the host)"));
      }, timeout);
      self._pending.set(id, { resolve: resolve, reject: reject, timer: timer, method: method });
      try {
        var msg = { jsonrpc: "2.0", id: id, method: method };
        if (params !== undefined) msg.params = params;
        self._post(msg);
      } catch (e) {
        clearTimeout(timer);
        self._pending.delete(id);
        reject(e);
      }
    });
  };

  /** Sends a JSON-RPC notification. Resolves once posted. */
  App.prototype.notification = function (method, params) {
    var msg = { jsonrpc: "2.0", method: method };
    if (params !== undefined) msg.params = params;
    try {
      this._post(msg);
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
    this._pending.delete(msg.id);
    clearTimeout(p.timer);
    if (msg.error) {
      var e = new Error(msg.error.message || ("MCP Apps: " + p.method + " failed with code " + msg.error.code));
      e.code = msg.error.code;
      e.data = msg.error.data;
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
      try { self._post(body); } catch (e) { console.warn("mcp-apps: reply failed", e); }
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
      reply({ error: { code: -32601, message: "Method not found: " + msg.method } });
      return;
    }
    try {
      var result = await handler.call(this, msg.params || {}, { requestId: msg.id });
      reply({ result: result === undefined ? {} : result });
    } catch (e) {
      reply({ error: { code: -32603, message: (e && e.message) || String(e) } });
    }
  };

  App.prototype._handleNotification = function (msg) {
    var ev = NOTIFICATION_EVENTS[msg.method];
    if (!ev) return;
    var params = msg.params || {};
    if (ev === "hostcontextchanged") {
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

  /** tools/call through the host. params is {name, arguments}. */
  App.prototype.callServerTool = function (params, options) {
    if (typeof params === "string") {
      return Promise.reject(new Error('callServerTool() expects an object: callServerTool({ name: "' + params + '", arguments: { ... } })'));
    }
    if (!isObject(params) || typeof params.name !== "string" || !params.name) {
      return Promise.reject(new Error("callServerTool() needs { name: string, arguments?: object }"));
    }
    return this.request("tools/call", params, options);
  };

  App.prototype.readServerResource = function (params, options) {
    if (!isObject(params) || typeof params.uri !== "string") {
      return Promise.reject(new Error("readServerResource() needs { uri: string }"));
    }
    return this.request("resources/read", params, options);
  };

  App.prototype.listServerResources = function (params, options) {
    return this.request("resources/list", params || {}, options);
  };

  /** ui/message, e.g. {role: "user", content: [{type: "text", text}]}. */
  App.prototype.sendMessage = function (params, options) {
    return this.request("ui/message", params, options);
  };

  /** ui/update-model-context {content?, structuredContent?}. */
  App.prototype.updateModelContext = function (params, options) {
    return this.request("ui/update-model-context", params, options);
  };

  App.prototype.openLink = function (params, options) {
    if (typeof params === "string") params = { url: params };
    return this.request("ui/open-link", params, options);
  };
  App.prototype.sendOpenLink = App.prototype.openLink;

  App.prototype.downloadFile = function (params, options) {
    return this.request("ui/download-file", params, options);
  };

  App.prototype.requestDisplayMode = function (params, options) {
    if (typeof params === "string") params = { mode: params };
    return this.request("ui/request-display-mode", params, options);
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
    applyDocumentTheme: applyDocumentTheme,
    getDocumentTheme: getDocumentTheme,
    applyHostStyleVariables: applyHostStyleVariables,
    applyHostFonts: applyHostFonts
  };
  if (global.App === undefined) global.App = App;
})(window);
