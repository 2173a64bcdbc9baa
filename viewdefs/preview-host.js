/*
 * genui preview: the page as an MCP host for the calls it makes. Calls carry
 * a call id; their progress, task status and end arrive on genui's /events
 * stream and move a progress bar (the page's own calls) or go to the view as
 * notifications/progress (the view's calls); Cancel cancels the call in
 * genui (the upstream gets notifications/cancelled, a task tasks/cancel).
 * The upstream's requests that genui's surfaces answer (elicitation in form
 * and URL mode, sampling) open a dialog; the first surface to answer wins,
 * the others see the request answered. Files the view hands over
 * (ui/download-file) are saved. Exposed as window.GenuiPreviewHost.
 * No dependencies; the elicitation form is window.GenuiForm (form.js).
 */
(function (global) {
  "use strict";

  var CANCELLED = -32800; /* the preview API's code for a cancelled call */

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function isObj(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }

  function json(path, body, method) {
    return fetch(path, {
      method: method || "POST", headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (b) {
        if (!r.ok) throw new Error((b && b.error) || ("HTTP " + r.status));
        return b;
      }, function () { throw new Error("HTTP " + r.status + " with a body that is not JSON"); });
    });
  }

  function newID(prefix) {
    var b = new Uint8Array(6);
    (global.crypto || {}).getRandomValues ? global.crypto.getRandomValues(b) : b.forEach(function (_, i) { b[i] = Math.random() * 256; });
    return prefix + Array.prototype.map.call(b, function (x) { return x.toString(16).padStart(2, "0"); }).join("");
  }

  /* fileName is a safe download name for a resource URI. */
  function fileName(uri, mime) {
    var s = String(uri || "").split(/[?#]/)[0];
    var name = decodeURIComponentSafe(s.slice(s.lastIndexOf("/") + 1)).replace(/[^\w.+-]+/g, "_").replace(/^\.+/, "");
    if (!name) name = "download";
    if (name.indexOf(".") < 0 && mime === "text/plain") name += ".txt";
    return name.slice(0, 120);
  }

  function decodeURIComponentSafe(s) {
    try { return decodeURIComponent(s); } catch (e) { return s; }
  }

  function base64Bytes(b64) {
    var bin = atob(String(b64).replace(/\s+/g, ""));
    var out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  /* save downloads one resource's contents (text or base64 blob). */
  function save(r) {
    var mime = typeof r.mimeType === "string" && /^[\w.+-]+\/[\w.+-]+$/.test(r.mimeType) ? r.mimeType : "application/octet-stream";
    var data = typeof r.blob === "string" ? base64Bytes(r.blob) : String(r.text === undefined ? "" : r.text);
    var url = URL.createObjectURL(new Blob([data], { type: mime }));
    var a = el("a");
    a.href = url;
    a.download = fileName(r.uri, mime);
    a.rel = "noopener";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
    return a.download;
  }

  /*
   * create wires the host side into the page. o: tool (name), addLog(dir,
   * method, detail, isError), readResource(uri) -> Promise of a
   * resources/read result, bridge() -> the current AppBridge, and the
   * elements: dialog, progress (wrap, fill, label, cancel) and taskStatus.
   */
  function create(o) {
    var calls = new Map();      /* call id -> {progress(p), task(t), finished(f)} */
    var requests = new Map();   /* pending request id -> PendingRequest */
    var order = [];             /* pending ids, oldest first */
    var shown = null;           /* the id the dialog shows */
    var state = { requests: requests, answered: [], downloads: [] };

    /* ---- calls ---- */

    function track(id, h) { calls.set(id, h || {}); }
    function untrack(id) { calls.delete(id); }

    function cancel(id) {
      return json("/api/calls/" + encodeURIComponent(id) + "/cancel", {}).then(function () {
        o.addLog("host", "cancel " + id, {}, false);
      }, function (e) {
        o.addLog("host", "cancel " + id + " failed", e.message, true);
      });
    }

    /* A task's status after which no other comes. */
    var FINAL_TASK = { completed: true, failed: true, cancelled: true };
    var lastTaskCall = null;    /* the id of the newest call run as a task */

    /* hostCall runs the page's own call with a progress bar and Cancel. */
    function hostCall(name, args, task) {
      var id = newID("p-");
      if (task) lastTaskCall = id;
      var p = o.progress;
      p.fill.style.width = "0%";
      p.fill.classList.add("indeterminate");
      p.label.textContent = "Calling " + name + "…";
      p.wrap.hidden = false;
      o.taskStatus.textContent = "";
      o.taskStatus.dataset.status = "";
      p.cancel.disabled = false;
      p.cancel.onclick = function () { p.cancel.disabled = true; p.label.textContent = "Cancelling…"; cancel(id); };
      state.progress = [];
      document.body.dataset.call = "running";
      track(id, {
        progress: function (ev) {
          state.progress.push(ev);
          var total = typeof ev.total === "number" && ev.total > 0 ? ev.total : 0;
          p.fill.classList.toggle("indeterminate", !total);
          if (total) p.fill.style.width = Math.max(0, Math.min(100, ev.progress / total * 100)).toFixed(1) + "%";
          p.wrap.setAttribute("aria-valuenow", String(ev.progress));
          p.label.textContent = (ev.message ? ev.message + " · " : "") + ev.progress + (total ? " of " + total : "");
        },
        task: function (t) { showTask(t); }
      });
      var body = { name: name, arguments: args, from: "host", callId: id };
      if (task) body.task = true;
      return { id: id, body: body, done: function (outcome) {
        p.wrap.hidden = true;
        document.body.dataset.call = outcome;
        if (!task || FINAL_TASK[o.taskStatus.dataset.status]) {
          untrack(id);
          return;
        }
        /* The task's last status comes over the event stream, which can reach the page
           after the call's answer: keep listening for it (at most a minute), shown while
           no newer task call took the status line. */
        var stop = setTimeout(function () { untrack(id); }, 60000);
        track(id, { task: function (t) {
          var st = (t.task || {}).status;
          if (lastTaskCall === id) showTask(t);
          if (FINAL_TASK[st]) { clearTimeout(stop); untrack(id); }
        } });
      } };
    }

    function showTask(t) {
      var task = t.task || {};
      var text = "Task " + task.taskId + " · " + task.status + (task.statusMessage ? " · " + task.statusMessage : "");
      o.taskStatus.textContent = text;
      o.taskStatus.dataset.status = task.status || "";
      o.addLog("engine", "task-status", task, task.status === "failed");
    }

    /* viewCall runs a tools/call of the view: its progress goes to the view. */
    function viewCall(params, extra) {
      var id = newID("v-");
      var token = isObj(params._meta) ? params._meta.progressToken : undefined;
      track(id, {
        progress: function (ev) {
          var b = o.bridge();
          if (token === undefined || !b) return;
          var n = { progressToken: token, progress: ev.progress };
          if (typeof ev.total === "number") n.total = ev.total;
          if (ev.message) n.message = ev.message;
          b.notify("notifications/progress", n);
        },
        task: function (t) { showTask(t); }
      });
      if (extra && extra.signal) {
        extra.signal.addEventListener("abort", function () {
          o.addLog("in", "notifications/cancelled", { call: id, reason: String(extra.signal.reason || "") });
          cancel(id);
        }, { once: true });
      }
      return { id: id, done: function () { untrack(id); } };
    }

    /* ---- the upstream's requests ---- */

    function add(p) {
      if (!p || !p.id || requests.has(p.id)) return;
      requests.set(p.id, p);
      order.push(p.id);
      o.addLog("engine", "request-pending", { id: p.id, kind: p.kind, tool: p.tool, call: p.callId });
      document.body.dataset.requests = String(requests.size);
      if (!shown) showNext();
    }

    function gone(a) {
      if (!requests.has(a.id)) return;
      requests.delete(a.id);
      order = order.filter(function (x) { return x !== a.id; });
      state.answered.push(a);
      document.body.dataset.requests = String(requests.size);
      o.addLog("engine", "request " + a.id + " " + a.outcome + (a.by ? " by " + a.by : ""), a, a.outcome === "timed-out");
      if (shown === a.id) {
        shown = null;
        if (o.dialog.open) o.dialog.close();
        showNext();
      }
    }

    function showNext() {
      var id = order[0];
      if (!id) { shown = null; return; }
      shown = id;
      render(requests.get(id));
      if (!o.dialog.open) {
        if (typeof o.dialog.showModal === "function") o.dialog.showModal();
        else o.dialog.setAttribute("open", "");
      }
    }

    function answer(p, body) {
      var err = o.dialog.querySelector(".error-text");
      err.textContent = "";
      body.source = "preview";
      o.dialog.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      return json("/api/requests/" + encodeURIComponent(p.id) + "/answer", body).then(function () {
        o.addLog("host", "answered " + p.id, body.result || { reject: body.reject });
        gone({ id: p.id, kind: p.kind, outcome: body.reject ? "rejected" : "answered", by: "preview" });
      }, function (e) {
        err.textContent = e.message;
        o.dialog.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
      });
    }

    function origin(p) {
      var who = p.tool ? "the tool " + p.tool : "a call";
      var src = p.source === "mcp" ? " of a connected MCP host (it did not declare " + p.kind + ")" : p.source ? " made from genui's " + p.source : "";
      var left = Math.max(0, Math.round((new Date(p.deadline) - Date.now()) / 1000));
      return "The upstream asks during " + who + src + ". Answer within " + left + " s, or it gets an error.";
    }

    function button(text, cls, id, f) {
      var b = el("button", cls, text);
      b.type = "button";
      b.id = id;
      b.addEventListener("click", f);
      return b;
    }

    function render(p) {
      var d = o.dialog;
      d.replaceChildren();
      d.dataset.kind = p.kind;
      d.dataset.id = p.id;
      var head = el("h2", "", p.kind === "sampling" ? "The server asks for a completion (sampling)" :
        (p.elicitation && p.elicitation.mode === "url" ? "The server asks you to open a URL" : "The server asks for input"));
      head.id = "request-title";
      d.appendChild(head);
      d.appendChild(el("p", "muted request-origin", origin(p)));
      var actions = el("div", "row request-actions");
      if (p.kind === "elicitation" && p.elicitation) renderElicitation(p, d, actions);
      else if (p.kind === "sampling" && p.sampling) renderSampling(p, d, actions);
      else {
        d.appendChild(el("pre", "request-params", JSON.stringify(p.params, null, 2)));
        actions.appendChild(button("Reject", "secondary", "req-reject", function () { answer(p, { reject: "declined in the genui preview" }); }));
      }
      d.appendChild(el("div", "error-text"));
      d.appendChild(actions);
    }

    function renderElicitation(p, d, actions) {
      var e = p.elicitation;
      d.appendChild(el("p", "request-message", e.message || ""));
      var decline = button("Decline", "secondary", "req-decline", function () { answer(p, { result: { action: "decline" } }); });
      var cancelB = button("Cancel", "secondary", "req-cancel", function () { answer(p, { result: { action: "cancel" } }); });
      if (e.mode === "url") {
        var u = String(e.url || ""), host;
        try { host = new URL(u).host; } catch (x) { host = "(not a valid URL)"; }
        var box = el("div", "request-url");
        box.appendChild(el("div", "muted", "Opens " + host));
        var code = el("code", "", u);
        code.id = "request-url";
        box.appendChild(code);
        var row = el("div", "row");
        if (/^https?:\/\//i.test(u)) {
          var a = el("a", "", "Open in a new tab");
          a.id = "request-open";
          a.href = u;
          a.target = "_blank";
          a.rel = "noopener noreferrer";
          row.appendChild(a);
        }
        row.appendChild(button("Copy", "secondary small", "req-copy", function () {
          if (navigator.clipboard) navigator.clipboard.writeText(u).catch(function () {});
        }));
        box.appendChild(row);
        d.appendChild(box);
        actions.append(button("Accept", "", "req-accept", function () { answer(p, { result: { action: "accept" } }); }), decline, cancelB);
        return;
      }
      var fields = el("div", "fields request-form");
      d.appendChild(fields);
      var form = global.GenuiForm ? global.GenuiForm.create(isObj(e.requestedSchema) ? e.requestedSchema : {}, fields) : null;
      actions.append(button("Accept", "", "req-accept", function () {
        var content = form ? form.collect() : {};
        if (!content) return; /* the form marked what is wrong */
        answer(p, { result: { action: "accept", content: content } });
      }), decline, cancelB);
    }

    function textOf(content) {
      var blocks = Array.isArray(content) ? content : [content];
      return blocks.map(function (b) {
        if (!isObj(b)) return "";
        return b.type === "text" ? String(b.text || "") : "[" + b.type + (b.mimeType ? " " + b.mimeType : "") + "]";
      }).join("\n");
    }

    function renderSampling(p, d, actions) {
      var s = p.sampling;
      if (s.systemPrompt) {
        d.appendChild(el("div", "muted", "System prompt"));
        d.appendChild(el("pre", "request-system", s.systemPrompt));
      }
      var msgs = el("ol", "request-messages");
      (Array.isArray(s.messages) ? s.messages : []).forEach(function (m) {
        var li = el("li", "");
        li.appendChild(el("strong", "", (m && m.role) || "?"));
        li.appendChild(el("pre", "", textOf(m && m.content)));
        msgs.appendChild(li);
      });
      d.appendChild(msgs);
      var prefs = [];
      if (s.maxTokens) prefs.push("max tokens " + s.maxTokens);
      if (typeof s.temperature === "number") prefs.push("temperature " + s.temperature);
      if (s.includeContext) prefs.push("context " + s.includeContext);
      if (s.modelPreferences) prefs.push("model preferences " + JSON.stringify(s.modelPreferences));
      if (prefs.length) d.appendChild(el("p", "muted request-prefs", prefs.join(" · ")));
      var ta = el("textarea", "");
      ta.id = "sampling-answer";
      ta.rows = 5;
      ta.placeholder = "The assistant's answer";
      ta.setAttribute("aria-label", "Answer");
      var model = el("input", "");
      model.id = "sampling-model";
      model.value = "genui-preview (by hand)";
      model.setAttribute("aria-label", "Model name sent with the answer");
      var note = el("div", "muted");
      note.id = "sampling-note";
      d.append(ta, model, note);
      actions.append(
        button("Send", "", "req-send", function () {
          if (!ta.value.trim()) { d.querySelector(".error-text").textContent = "Write an answer first (or draft one with the LLM)."; return; }
          answer(p, { result: { role: "assistant", model: model.value || "genui-preview", stopReason: "endTurn", content: { type: "text", text: ta.value } } });
        }),
        button("Draft with LLM", "secondary", "req-draft", function () {
          var b = this;
          b.disabled = true;
          note.textContent = "Asking genui's LLM provider…";
          json("/api/requests/" + encodeURIComponent(p.id) + "/draft", {}).then(function (dr) {
            ta.value = dr.text;
            model.value = dr.model;
            note.textContent = "Drafted by " + dr.provider + " (" + dr.model + ") in " + Math.round(dr.duration / 1e6) + " ms: read it, edit it, then Send.";
            d.dataset.drafted = "1";
          }, function (e) { note.textContent = "No draft: " + e.message; }).finally(function () { b.disabled = false; });
        }),
        button("Reject", "secondary", "req-reject", function () { answer(p, { reject: "The user rejected the sampling request in the genui preview." }); })
      );
    }

    function loadPending() {
      return json("/api/requests", undefined, "GET").then(function (list) {
        (Array.isArray(list) ? list : []).forEach(add);
      }, function (e) { o.addLog("host", "pending requests not loaded", e.message, true); });
    }

    /* listen adds the stream's call and request events to es (EventSource). */
    function listen(es) {
      var parse = function (ev) { try { return JSON.parse(ev.data); } catch (e) { return {}; } };
      var detail = function (ev) { return parse(ev).detail || {}; };
      es.addEventListener("call-progress", function (ev) {
        var d = detail(ev), h = calls.get(d.callId);
        if (h && h.progress) h.progress(d);
      });
      es.addEventListener("task-status", function (ev) {
        var d = detail(ev), h = calls.get(d.callId);
        if (h && h.task) h.task(d);
      });
      es.addEventListener("request-pending", function (ev) { add(detail(ev)); });
      es.addEventListener("request-answered", function (ev) { gone(detail(ev)); });
      es.addEventListener("open", function () { loadPending(); });
    }

    /* download saves the contents of ui/download-file (embedded resources,
       and resource links read through resources/read). */
    async function download(params) {
      var saved = [];
      for (var c of (Array.isArray(params && params.contents) ? params.contents : [])) {
        if (isObj(c) && c.type === "resource" && isObj(c.resource)) saved.push(save(c.resource));
        else if (isObj(c) && c.type === "resource_link" && typeof c.uri === "string") {
          var r = await o.readResource(c.uri);
          (isObj(r) && Array.isArray(r.contents) ? r.contents : []).forEach(function (x) { if (isObj(x)) saved.push(save(x)); });
        }
      }
      state.downloads = state.downloads.concat(saved);
      o.addLog("host", "download-file: saved " + (saved.join(", ") || "nothing"), params);
      return saved.length ? {} : { isError: true };
    }

    return { state: state, hostCall: hostCall, viewCall: viewCall, cancel: cancel, listen: listen, download: download,
      loadPending: loadPending, CANCELLED: CANCELLED };
  }

  global.GenuiPreviewHost = { create: create, fileName: fileName };
})(window);
