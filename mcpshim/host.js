/*
 * genui mcpshim host side: a small AppBridge that drives one MCP App view in
 * an iframe over postMessage (JSON-RPC 2.0, MCP Apps spec 2026-01-26).
 * It answers ui/initialize, holds every host -> view message until the view
 * sent ui/notifications/initialized, validates view requests (-32602 on bad
 * params), routes them to callbacks and reports every message in both
 * directions to opts.onMessage(direction, msg).
 * Exposed as window.McpHost.AppBridge. No dependencies.
 */
(function (global) {
  "use strict";
  if (global.McpHost && global.McpHost.AppBridge) return;

  var PROTOCOL_VERSION = "2026-01-26";
  var SUPPORTED_PROTOCOL_VERSIONS = [PROTOCOL_VERSION];
  var DISPLAY_MODES = ["inline", "fullscreen", "pip"];
  var DEFAULT_TIMEOUT_MS = 30000;

  var INVALID_PARAMS = -32602;
  var METHOD_NOT_FOUND = -32601;
  var INTERNAL_ERROR = -32603;

  function isObject(v) {
    return v !== null && typeof v === "object" && !Array.isArray(v);
  }

  function rpcError(code, message) {
    var e = new Error(message);
    e.code = code;
    return e;
  }

  function invalid(method, what) {
    return rpcError(INVALID_PARAMS, method + ": invalid params: " + what);
  }

  // Checks of view -> host request params, by method. Each returns an error
  // text, or "" when the params are acceptable.
  var CHECKS = {
    "ui/initialize": function (p) {
      var missing = ["appInfo", "appCapabilities", "protocolVersion"].filter(function (k) {
        return p[k] === undefined || p[k] === null;
      });
      if (missing.length) return "missing required params: " + missing.join(", ");
      if (!isObject(p.appInfo) || typeof p.appInfo.name !== "string" || typeof p.appInfo.version !== "string") {
        return "appInfo must be {name: string, version: string}";
      }
      if (!isObject(p.appCapabilities)) return "appCapabilities must be an object";
      if (typeof p.protocolVersion !== "string") return "protocolVersion must be a string";
      return "";
    },
    "tools/call": function (p) {
      if (typeof p.name !== "string" || !p.name) return "name must be a non-empty string";
      if (p.arguments !== undefined && !isObject(p.arguments)) return "arguments must be an object";
      return "";
    },
    "resources/read": function (p) {
      return typeof p.uri === "string" && p.uri ? "" : "uri must be a non-empty string";
    },
    "ui/open-link": function (p) {
      return typeof p.url === "string" && p.url ? "" : "url must be a non-empty string";
    },
    "ui/message": function (p) {
      if (p.role !== "user") return 'role must be "user"';
      if (!Array.isArray(p.content) || !p.content.every(function (c) { return isObject(c) && typeof c.type === "string"; })) {
        return "content must be an array of content blocks";
      }
      return "";
    },
    "ui/update-model-context": function (p) {
      if (p.content !== undefined && (!Array.isArray(p.content) || !p.content.every(function (c) { return isObject(c) && typeof c.type === "string"; }))) {
        return "content must be an array of content blocks";
      }
      if (p.structuredContent !== undefined && !isObject(p.structuredContent)) return "structuredContent must be an object";
      return "";
    },
    "ui/request-display-mode": function (p) {
      return DISPLAY_MODES.indexOf(p.mode) >= 0 ? "" : "mode must be one of " + DISPLAY_MODES.join(", ");
    },
    "ui/download-file": function (p) {
      return Array.isArray(p.contents) ? "" : "contents must be an array of resources";
    }
  };

  /**
   * @param {HTMLIFrameElement} iframe the view's iframe (already in the DOM)
   * @param {object} opts
   *   hostInfo, hostCapabilities, hostContext: sent in the ui/initialize result
   *   onMessage(direction "in"|"out", msg): every JSON-RPC message
   *   onInitialized(): the view finished the handshake
   *   onCallTool(params, extra) -> CallToolResult | Promise  (tools/call)
   *     Every request callback gets extra = {id, signal}: the view's
   *     request id and an AbortSignal that aborts when the view cancels
   *     the request (notifications/cancelled); a cancelled request gets
   *     no answer, as MCP says.
   *   onReadResource(params), onListResources(params), onOpenLink(params),
   *   onSendMessage(params), onUpdateModelContext(params),
   *   onRequestDisplayMode(params) -> {mode}, onDownloadFile(params),
   *   onCreateSamplingMessage(params)
   *   onLog(params), onSizeChanged(params), onRequestTeardown(params)
   *   autoResize (default true): apply reported heights to the iframe
   *   strict: throw on host-side ordering mistakes instead of warning
   *   timeout (ms, default 30000) for host -> view requests
   * Public state: initialized, toolInputSent, hostContext, appInfo,
   * appCapabilities, ready (a Promise resolved at initialized).
   */
  function AppBridge(iframe, opts) {
    if (!iframe || !iframe.contentWindow) throw new Error("AppBridge: needs an iframe that is in the document");
    this.iframe = iframe;
    this.opts = opts || {};
    this.initialized = false;
    this.hostContext = Object.assign({}, this.opts.hostContext || {});
    this.appInfo = undefined;
    this.appCapabilities = undefined;
    this._queue = [];
    this._pending = new Map();
    this._inflight = new Map(); // view request id -> AbortController
    this._nextId = 1;
    this.toolInputSent = false; // a tool-input was sent (or queued) to this view
    this._onMessage = this._handle.bind(this);
    var self = this;
    this.ready = new Promise(function (resolve) { self._resolveReady = resolve; });
  }

  /** Starts listening for the view's messages. Call before loading the iframe. */
  AppBridge.prototype.start = function () {
    global.addEventListener("message", this._onMessage);
    return this;
  };

  /** Stops listening, drops queued messages and rejects pending requests. */
  AppBridge.prototype.close = function () {
    global.removeEventListener("message", this._onMessage);
    this._queue = [];
    this._inflight.forEach(function (ctl) { ctl.abort("AppBridge closed"); });
    this._inflight.clear();
    this._pending.forEach(function (p) { clearTimeout(p.timer); p.reject(new Error("AppBridge closed")); });
    this._pending.clear();
  };

  /** The view's appInfo and appCapabilities from ui/initialize. */
  AppBridge.prototype.getAppVersion = function () { return this.appInfo; };
  AppBridge.prototype.getAppCapabilities = function () { return this.appCapabilities; };

  AppBridge.prototype._emit = function (dir, msg) {
    if (typeof this.opts.onMessage === "function") {
      try { this.opts.onMessage(dir, msg); } catch (e) { console.error("AppBridge onMessage threw", e); }
    }
  };

  AppBridge.prototype._post = function (msg) {
    this._emit("out", msg);
    this.iframe.contentWindow.postMessage(msg, "*");
  };

  /**
   * Sends a host -> view message now if the view is initialized, else queues
   * it: the spec forbids any request or notification before initialized.
   */
  AppBridge.prototype._send = function (msg) {
    if (this.initialized) this._post(msg);
    else this._queue.push(msg);
  };

  /** Sends (or queues) a notification. */
  AppBridge.prototype.notify = function (method, params) {
    this._send({ jsonrpc: "2.0", method: method, params: params || {} });
  };

  /**
   * Sends a host -> view request (queued until initialized) and resolves with
   * its result; rejects on an error reply or after opts.timeout.
   */
  AppBridge.prototype.request = function (method, params) {
    var self = this, id = "h" + this._nextId++;
    var timeout = this.opts.timeout > 0 ? this.opts.timeout : DEFAULT_TIMEOUT_MS;
    return new Promise(function (resolve, reject) {
      var timer = setTimeout(function () {
        self._pending.delete(id);
        reject(new Error("AppBridge: " + method + " timed out after " + timeout + " ms"));
      }, timeout);
      self._pending.set(id, { resolve: resolve, reject: reject, timer: timer });
      self._send({ jsonrpc: "2.0", id: id, method: method, params: params || {} });
    });
  };

  /**
   * Sends the complete tool arguments. Partial input after this is dropped
   * (the spec: hosts stop sending partials once tool-input is sent).
   */
  AppBridge.prototype.sendToolInput = function (args) {
    this.toolInputSent = true;
    this.notify("ui/notifications/tool-input", { arguments: args || {} });
  };
  AppBridge.prototype.sendToolInputPartial = function (args) {
    if (this.toolInputSent) {
      console.warn("AppBridge: tool-input-partial after tool-input dropped");
      return;
    }
    this.notify("ui/notifications/tool-input-partial", { arguments: args || {} });
  };
  /**
   * Sends a CallToolResult. The spec requires tool-input first: without it
   * this warns, or throws when opts.strict is set.
   */
  AppBridge.prototype.sendToolResult = function (result) {
    if (!this.toolInputSent) {
      var text = "AppBridge: sendToolResult before sendToolInput (the spec requires tool-input before tool-result)";
      if (this.opts.strict) throw new Error(text);
      console.warn(text);
    }
    this.notify("ui/notifications/tool-result", isObject(result) ? result : { content: [] });
  };
  AppBridge.prototype.sendToolCancelled = function (reason) {
    this.notify("ui/notifications/tool-cancelled", reason ? { reason: String(reason) } : {});
  };
  /** Merges a partial host context and tells the view the changed fields. */
  AppBridge.prototype.setHostContext = function (partial) {
    var changed = {}, any = false, ctx = this.hostContext;
    Object.keys(partial || {}).forEach(function (k) {
      if (JSON.stringify(ctx[k]) === JSON.stringify(partial[k])) return;
      ctx[k] = partial[k];
      changed[k] = partial[k];
      any = true;
    });
    if (any) this.notify("ui/notifications/host-context-changed", changed);
  };
  /** Asks the view to tear down (ui/resource-teardown) and resolves with its answer. */
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
      if (isObject(msg.error)) p.reject(rpcError(msg.error.code, msg.error.message));
      else p.resolve(msg.result);
      return;
    }
    if (hasId) {
      this._request(msg);
      return;
    }
    if (typeof method === "string") this._notification(method, isObject(msg.params) ? msg.params : {});
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
      case "notifications/cancelled":
        var ctl = this._inflight.get(params.requestId);
        if (ctl) ctl.abort(params.reason !== undefined ? String(params.reason) : "cancelled by the view");
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
    "ui/download-file": "onDownloadFile",
    "sampling/createMessage": "onCreateSamplingMessage"
  };

  AppBridge.prototype._request = async function (msg) {
    var self = this, o = this.opts, method = msg.method;
    var params = msg.params === undefined ? {} : msg.params;
    var ctl = new AbortController();
    this._inflight.set(msg.id, ctl);
    var reply = function (body) {
      self._inflight.delete(msg.id);
      if (ctl.signal.aborted) return; // cancelled: MCP sends no answer
      body.jsonrpc = "2.0";
      body.id = msg.id;
      self._post(body);
    };
    try {
      if (!isObject(params)) throw invalid(method, "params must be an object");
      if (CHECKS[method]) {
        var bad = CHECKS[method](params);
        if (bad) throw invalid(method, bad);
      }
      var result;
      if (method === "ui/initialize") {
        result = this._initialize(params);
      } else if (method === "ping") {
        result = {};
      } else if (method === "ui/request-display-mode") {
        result = await this._displayMode(params);
      } else if (ROUTES[method] && typeof o[ROUTES[method]] === "function") {
        result = await o[ROUTES[method]](params, { id: msg.id, signal: ctl.signal });
      } else {
        throw rpcError(METHOD_NOT_FOUND, "Method not found: " + method);
      }
      reply({ result: result === undefined ? {} : result });
    } catch (e) {
      reply({ error: { code: typeof (e && e.code) === "number" ? e.code : INTERNAL_ERROR, message: (e && e.message) || String(e) } });
    }
  };

  /**
   * ui/request-display-mode: a mode the view did not declare in
   * appCapabilities.availableDisplayModes, or the host does not offer in
   * hostContext.availableDisplayModes, leaves the mode unchanged; the answer
   * is always the resulting mode (the spec's host rules).
   */
  AppBridge.prototype._displayMode = async function (params) {
    var current = this.hostContext.displayMode || "inline";
    var appModes = this.appCapabilities && this.appCapabilities.availableDisplayModes;
    var hostModes = this.hostContext.availableDisplayModes;
    if ((Array.isArray(appModes) && appModes.indexOf(params.mode) < 0) ||
        (Array.isArray(hostModes) && hostModes.indexOf(params.mode) < 0) ||
        typeof this.opts.onRequestDisplayMode !== "function") {
      return { mode: current };
    }
    var r = await this.opts.onRequestDisplayMode(params);
    var mode = isObject(r) && DISPLAY_MODES.indexOf(r.mode) >= 0 ? r.mode : current;
    return Object.assign({}, isObject(r) ? r : {}, { mode: mode });
  };

  AppBridge.prototype._initialize = function (params) {
    this.appInfo = params.appInfo;
    this.appCapabilities = params.appCapabilities;
    var caps = this.opts.hostCapabilities;
    if (!caps) {
      caps = {};
      if (this.opts.onCallTool) caps.serverTools = {};
      if (this.opts.onReadResource) caps.serverResources = {};
      if (this.opts.onOpenLink) caps.openLinks = {};
      if (this.opts.onDownloadFile) caps.downloadFile = {};
      if (this.opts.onLog) caps.logging = {};
      if (this.opts.onSendMessage) caps.message = { text: {} };
      if (this.opts.onUpdateModelContext) caps.updateModelContext = { text: {}, structuredContent: {} };
      if (this.opts.onCreateSamplingMessage) caps.sampling = {};
    }
    var v = SUPPORTED_PROTOCOL_VERSIONS.indexOf(params.protocolVersion) >= 0 ? params.protocolVersion : PROTOCOL_VERSION;
    return {
      protocolVersion: v,
      hostInfo: this.opts.hostInfo || { name: "genui", version: "0" },
      hostCapabilities: caps,
      hostContext: this.hostContext
    };
  };

  global.McpHost = { AppBridge: AppBridge, PROTOCOL_VERSION: PROTOCOL_VERSION };
})(window);
