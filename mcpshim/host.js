/*
 * genui mcpshim host side: a small AppBridge that drives one MCP App view in
 * an iframe over postMessage (JSON-RPC 2.0, MCP Apps spec 2026-01-26).
 * It answers ui/initialize, holds host -> view notifications until the view
 * sent ui/notifications/initialized, routes view requests to callbacks and
 * reports every message in both directions to opts.onMessage(direction, msg).
 * Exposed as window.McpHost.AppBridge. No dependencies.
 */
(function (global) {
  "use strict";
  if (global.McpHost && global.McpHost.AppBridge) return;

  var PROTOCOL_VERSION = "2026-01-26";

  function isObject(v) {
    return v !== null && typeof v === "object" && !Array.isArray(v);
  }

  function rpcError(code, message) {
    var e = new Error(message);
    e.code = code;
    return e;
  }

  /**
   * @param {HTMLIFrameElement} iframe the view's iframe (already in the DOM)
   * @param {object} opts
   *   hostInfo, hostCapabilities, hostContext: sent in the ui/initialize result
   *   onMessage(direction "in"|"out", msg): every JSON-RPC message
   *   onInitialized(): the view finished the handshake
   *   onCallTool(params) -> CallToolResult | Promise  (tools/call)
   *   onReadResource(params), onListResources(params), onOpenLink(params),
   *   onSendMessage(params), onUpdateModelContext(params),
   *   onRequestDisplayMode(params) -> {mode}, onDownloadFile(params)
   *   onLog(params), onSizeChanged(params), onRequestTeardown(params)
   *   autoResize (default true): apply reported heights to the iframe
   *   timeout (ms, default 30000) for host -> view requests
   */
  function AppBridge(iframe, opts) {
    if (!iframe || !iframe.contentWindow) throw new Error("AppBridge: needs an iframe that is in the document");
    this.iframe = iframe;
    this.opts = opts || {};
    this.initialized = false;
    this.hostContext = Object.assign({}, this.opts.hostContext || {});
    this._queue = [];
    this._pending = new Map();
    this._nextId = 1;
    this._onMessage = this._handle.bind(this);
    var self = this;
    this.ready = new Promise(function (resolve) { self._resolveReady = resolve; });
  }

  /** Starts listening for the view's messages. Call before loading the iframe. */
  AppBridge.prototype.start = function () {
    global.addEventListener("message", this._onMessage);
    return this;
  };

  /** Stops listening and rejects pending requests. */
  AppBridge.prototype.close = function () {
    global.removeEventListener("message", this._onMessage);
    this._pending.forEach(function (p) { clearTimeout(p.timer); p.reject(new Error("AppBridge closed")); });
    this._pending.clear();
  };

  AppBridge.prototype._emit = function (dir, msg) {
    if (typeof this.opts.onMessage === "function") {
      try { this.opts.onMessage(dir, msg); } catch (e) { console.error("AppBridge onMessage threw", e); }
    }
  };

  AppBridge.prototype._post = function (msg) {
    this._emit("out", msg);
    this.iframe.contentWindow.postMessage(msg, "*");
  };

  /** Sends a notification now if the view is initialized, else queues it. */
  AppBridge.prototype.notify = function (method, params) {
    var msg = { jsonrpc: "2.0", method: method, params: params || {} };
    if (this.initialized) this._post(msg);
    else this._queue.push(msg);
  };

  /** Sends a host -> view request and resolves with its result. */
  AppBridge.prototype.request = function (method, params) {
    var self = this, id = "h" + this._nextId++;
    var timeout = this.opts.timeout > 0 ? this.opts.timeout : 30000;
    return new Promise(function (resolve, reject) {
      var timer = setTimeout(function () {
        self._pending.delete(id);
        reject(new Error("AppBridge: " + method + " timed out after " + timeout + " ms"));
      }, timeout);
      self._pending.set(id, { resolve: resolve, reject: reject, timer: timer });
      self._post({ jsonrpc: "2.0", id: id, method: method, params: params || {} });
    });
  };

  AppBridge.prototype.sendToolInput = function (args) {
    this.notify("ui/notifications/tool-input", { arguments: args || {} });
  };
  AppBridge.prototype.sendToolInputPartial = function (args) {
    this.notify("ui/notifications/tool-input-partial", { arguments: args || {} });
  };
  AppBridge.prototype.sendToolResult = function (result) {
    this.notify("ui/notifications/tool-result", result || { content: [] });
  };
  AppBridge.prototype.sendToolCancelled = function (reason) {
    this.notify("ui/notifications/tool-cancelled", reason ? { reason: reason } : {});
  };
  /** Merges a partial host context and tells the view. */
  AppBridge.prototype.setHostContext = function (partial) {
    Object.assign(this.hostContext, partial || {});
    this.notify("ui/notifications/host-context-changed", partial || {});
  };
  /** Asks the view to tear down (ui/resource-teardown). */
  AppBridge.prototype.teardown = function () {
    return this.request("ui/resource-teardown", {});
  };

  AppBridge.prototype._handle = function (event) {
    if (event.source !== this.iframe.contentWindow) return;
    var msg = event.data;
    if (!isObject(msg) || msg.jsonrpc !== "2.0") return;
    var method = msg.method;
    if (typeof method === "string" && method.indexOf("ui/notifications/sandbox-") === 0) return;
    this._emit("in", msg);
    var hasId = msg.id !== undefined && msg.id !== null;
    if (hasId && typeof method !== "string") {
      var p = this._pending.get(msg.id);
      if (!p) return;
      this._pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.error) p.reject(rpcError(msg.error.code, msg.error.message));
      else p.resolve(msg.result);
      return;
    }
    if (hasId) {
      this._request(msg);
      return;
    }
    this._notification(method, msg.params || {});
  };

  AppBridge.prototype._notification = function (method, params) {
    var o = this.opts;
    switch (method) {
      case "ui/notifications/initialized":
        if (this.initialized) return;
        this.initialized = true;
        var q = this._queue;
        this._queue = [];
        q.forEach(this._post, this);
        if (typeof o.onInitialized === "function") o.onInitialized();
        this._resolveReady();
        return;
      case "ui/notifications/size-changed":
        if (o.autoResize !== false && typeof params.height === "number" && params.height >= 0) {
          this.iframe.style.height = Math.ceil(params.height) + "px";
        }
        if (typeof o.onSizeChanged === "function") o.onSizeChanged(params);
        return;
      case "notifications/message":
        if (typeof o.onLog === "function") o.onLog(params);
        return;
      case "ui/notifications/request-teardown":
        if (typeof o.onRequestTeardown === "function") o.onRequestTeardown(params);
        return;
    }
  };

  // view request method -> opts callback name
  var ROUTES = {
    "tools/call": "onCallTool",
    "resources/read": "onReadResource",
    "resources/list": "onListResources",
    "ui/open-link": "onOpenLink",
    "ui/message": "onSendMessage",
    "ui/update-model-context": "onUpdateModelContext",
    "ui/request-display-mode": "onRequestDisplayMode",
    "ui/download-file": "onDownloadFile"
  };

  AppBridge.prototype._request = async function (msg) {
    var self = this, o = this.opts, params = msg.params || {};
    var reply = function (body) {
      body.jsonrpc = "2.0";
      body.id = msg.id;
      self._post(body);
    };
    try {
      var result;
      if (msg.method === "ui/initialize") {
        result = this._initialize(params);
      } else if (msg.method === "ping") {
        result = {};
      } else if (ROUTES[msg.method] && typeof o[ROUTES[msg.method]] === "function") {
        result = await o[ROUTES[msg.method]](params);
      } else {
        throw rpcError(-32601, "Method not found: " + msg.method);
      }
      reply({ result: result === undefined ? {} : result });
    } catch (e) {
      reply({ error: { code: typeof e.code === "number" ? e.code : -32603, message: (e && e.message) || String(e) } });
    }
  };

  AppBridge.prototype._initialize = function (params) {
    var missing = ["appInfo", "appCapabilities", "protocolVersion"].filter(function (k) {
      return params[k] === undefined || params[k] === null;
    });
    if (missing.length) {
      throw rpcError(-32602, "ui/initialize: missing required params: " + missing.join(", "));
    }
    var caps = this.opts.hostCapabilities || {};
    if (!this.opts.hostCapabilities) {
      if (this.opts.onCallTool) caps.serverTools = {};
      if (this.opts.onReadResource) caps.serverResources = {};
      if (this.opts.onOpenLink) caps.openLinks = {};
      if (this.opts.onLog) caps.logging = {};
    }
    return {
      protocolVersion: PROTOCOL_VERSION,
      hostInfo: this.opts.hostInfo || { name: "genui", version: "0" },
      hostCapabilities: caps,
      hostContext: this.hostContext
    };
  };

  global.McpHost = { AppBridge: AppBridge, PROTOCOL_VERSION: PROTOCOL_VERSION };
})(window);
