/* genui offline UI: the page's script (after render.js; the two run as one classic script wrapped in
   a function, so it runs the moment the loader inserts it, not a task later as a module would). Reads
   the tool from #tool-data, builds the form (form.js), takes the App connect.js connected and shows
   results (rich.js). */
const { App } = window.McpApps;

const data = JSON.parse(document.getElementById("tool-data").textContent);
const tool = data.tool;
const fieldsEl = document.getElementById("fields");
const form = document.getElementById("tool-form");
const submit = document.getElementById("submit");
const statusEl = document.getElementById("status");
const callError = document.getElementById("call-error");
const resultEl = document.getElementById("result");

function setState(s, text) {
  document.body.dataset.state = s;
  statusEl.replaceChildren();
  if (s === "loading") statusEl.appendChild(el("span", "spinner"));
  if (text) statusEl.appendChild(document.createTextNode(" " + text));
}

function showError(msg) {
  callError.textContent = msg;
  callError.hidden = !msg;
}

/*
 * A failed call (a JSON-RPC error): its message cleaned, once, with the raw
 * text one click away; a message that is an error object as JSON (an API's
 * error body passed on) gives the object's own message.
 */
function showCallError(message) {
  const read = window.GenuiRich && window.GenuiRich.errorTextMessage ? window.GenuiRich.errorTextMessage(message) : null;
  errorMessage(callError, "The call failed.", [read || message], [message]);
  callError.hidden = false;
}

/* Tool descriptions often come indented inside their source: trimmed and dedented. */
function tidy(text) {
  const ls = String(text).replace(/\r\n?/g, "\n").replace(/^\s*\n|\s+$/g, "").split("\n");
  let pad = Infinity;
  ls.forEach(function (l, i) { if (l.trim() && (i > 0 || /^\s/.test(l))) pad = Math.min(pad, l.match(/^[ \t]*/)[0].length); });
  return ls.map(function (l, i) { return i === 0 ? l.trim() : l.slice(pad === Infinity ? 0 : pad); }).join("\n");
}

/* ---- schema -> form (form.js) ---- */

const formApi = window.GenuiForm.create(tool.inputSchema, fieldsEl);
const collect = formApi.collect;
const prefill = formApi.prefill;
let descEl = document.getElementById("tool-description");
if (descEl) {
  const desc = tidy(descEl.textContent);
  descEl.textContent = desc;
  /* A description written in markdown is drawn as markdown (its links open through the host). */
  const T = window.GenuiText;
  const kind = T ? T.classify(desc, "") : null;
  /* Markdown with headings (classified as headed sections) is markdown too. */
  if (kind && (kind.kind === "markdown" || (kind.kind === "sections" && kind.headed))) {
    const md = T.markdown(desc, { openLink: function (x) { return window.genuiApp ? window.genuiApp.openLink(x) : Promise.resolve(); } });
    md.id = "tool-description";
    md.classList.add("description", "md-description");
    descEl.replaceWith(md);
    descEl = md;
  }
  if (desc.length > 280 || desc.split("\n").length > 4) window.GenuiForm.fold(descEl);
}

function isPlainObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }

/* ---- bridge ---- */

/* connect.js created the App and started the handshake before this script was unpacked. */
const app = window.genuiApp || new App({ name: "genui-minimal-" + tool.name, version: "1.0.0" }, {}, { autoResize: true });
window.genuiApp = app;
/* The rich renderers (rich.js); the arguments of the call whose result is
   shown let them page through the tool. A packed page reads rich.js through
   the host after its handshake (pagepack's deferred block: the loader's
   window.genuiDeferred settles when it is in or cannot be). A result that
   comes before them is drawn at once, plainly (text by text.js, data as
   tables and fields), and drawn again richly when they come; on a host that
   does not pass the read on it stays plain, with a note that says why. */
let rich = null;
function makeRich() {
  if (rich || !window.GenuiRich) return rich;
  rich = window.GenuiRich.create({ app: app, tool: tool, helpers: { renderItem: renderItem, block: block, pretty: pretty, errorBanner: errorBanner,
    badges: annotationBadges, downloadButton: downloadButton } });
  return rich;
}
makeRich();
let plainWhy = "";
const richReady = (rich ? Promise.resolve(true) : Promise.resolve(window.genuiDeferred || Promise.reject(new Error("the page carries no rich views")))
  .then(function () {
    if (makeRich()) return true;
    plainWhy = "the scripts the host returned did not run";
    return false;
  }, function (e) { plainWhy = e && e.message ? e.message : String(e); return false; }))
  /* body[data-rich-views]: "in" once the rich views are in, "plain" when they cannot be (for hosts and tests). */
  .then(function (ok) { document.body.dataset.richViews = ok ? "in" : "plain"; return ok; });
let lastArgs = {};
let shown = null;
/* Draws result at once: richly when the rich views are in, else plainly, and again richly
   once they come unless another result took its place meanwhile. */
let plainNow = false; /* the result on screen is drawn plainly */
function showResult(result) {
  shown = result;
  const args = lastArgs;
  if (rich) {
    rich.render(result, resultEl, args);
    plainNow = false;
    markPainted("rich-painted");
    return;
  }
  drawPlain(result);
  plainNow = true;
  richReady.then(function (ok) {
    if (shown !== result) return;
    if (!ok) {
      plainNote();
      return;
    }
    rich.render(result, resultEl, args);
    plainNow = false;
    markPainted("rich-painted");
  });
}
/* A result drawn without rich.js: text read by text.js (markdown, code, diffs, sections), data
   without the fields the view hides as tables, cards and lists (plainData), media and resources
   as render.js draws them. */
function readJSON(id) {
  const e = document.getElementById(id);
  try { return e ? JSON.parse(e.textContent) : undefined; } catch (err) { return undefined; }
}
/* The fields the view hides (#view-config's hide, the spec's hidden and hidden parts): names at
   any depth and JSON Pointers, as rich.js reads them (its pruneHidden). */
const hidden = (function () {
  const cfg = readJSON("view-config") || {}, spec = readJSON("view-spec") || {};
  const norm = function (x) { return String(x).toLowerCase().replace(/[\s\-.]+/g, "_"); };
  const list = [].concat(Array.isArray(cfg.hide) ? cfg.hide : [], Array.isArray(spec.hidden) ? spec.hidden : [],
    (Array.isArray(spec.parts) ? spec.parts : []).filter(function (p) { return p && p.hidden && typeof p.path === "string"; }).map(function (p) { return p.path; }))
    .filter(function (h) { return typeof h === "string"; });
  const shownNames = (Array.isArray(spec.shown) ? spec.shown : Array.isArray(cfg.show) ? cfg.show : []).map(norm);
  return { norm: norm, names: list.filter(function (h) { return h.charAt(0) !== "/"; }).map(norm).filter(function (n) { return shownNames.indexOf(n) < 0; }),
    paths: list.filter(function (h) { return h.charAt(0) === "/"; }).map(function (h) { return h.slice(1).split("/").map(function (t) { return t.replace(/~1/g, "/").replace(/~0/g, "~"); }); }) };
})();
function pruned(v, path, depth) {
  if (!hidden.names.length && !hidden.paths.length) return v;
  path = path || [];
  depth = depth || 0;
  if (depth > 12 || v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(function (x) { return pruned(x, path, depth + 1); });
  const out = {};
  Object.keys(v).forEach(function (k) {
    const p = path.concat([k]);
    if (hidden.names.indexOf(hidden.norm(k)) >= 0 || hidden.paths.some(function (h) { return h.length === p.length && h.every(function (t, i) { return t === p[i]; }); })) return;
    out[k] = pruned(v[k], p, depth + 1);
  });
  return out;
}
/* Data drawn plainly: records as a table (as a card each when they have more than PLAIN_COLUMNS
   keys between them), an object as a card of its fields, a list one value a line, what lies deeper
   than four levels as its JSON; every value whole. A drawing is bounded: a list's rows or an
   object's fields past the first PLAIN_ROWS, or past PLAIN_VALUES values drawn in all (long texts
   count for more), are one click away. */
const PLAIN_ROWS = 200, PLAIN_COLUMNS = 40, PLAIN_VALUES = 2000;
/* A scalar's text, counted against the budget. */
function plainText(v, budget) {
  const t = v === null ? "null" : String(v);
  budget.left -= 1 + (t.length >> 7);
  return t;
}
/* Puts v into the cell (td, dd or li): a scalar as the cell's own text, with no element of its
   own (a records table has a value in every cell: hundreds fewer elements to style and lay out
   before the first paint); a number, boolean or null in the code font (.plain-scalar). */
function plainFill(cell, v, depth, budget) {
  if (v !== null && typeof v === "object") {
    cell.appendChild(plainData(v, depth, budget));
    return;
  }
  cell.textContent = plainText(v, budget);
  if (typeof v !== "string") cell.className = "plain-scalar";
}
function plainData(v, depth, budget) {
  depth = depth || 0;
  budget = budget || { left: PLAIN_VALUES };
  if (v === null || typeof v !== "object") return el("span", typeof v === "string" ? "plain-text" : "plain-scalar", plainText(v, budget));
  const items = Array.isArray(v) ? v : Object.keys(v);
  if (!items.length) return el("span", "plain-scalar", Array.isArray(v) ? "[]" : "{}");
  if (depth > 3) {
    const t = pretty(v);
    budget.left -= 1 + (t.length >> 7);
    return block(t, "json");
  }
  let cols = null;
  if (Array.isArray(v) && v.every(isPlainObject)) {
    const seen = new Set();
    for (let i = 0; i < v.length && seen.size <= PLAIN_COLUMNS; i++) Object.keys(v[i]).forEach(function (k) { seen.add(k); });
    if (seen.size <= PLAIN_COLUMNS) cols = Array.from(seen);
  }
  let wrap, row;
  if (!Array.isArray(v)) {
    wrap = el("dl", depth ? "card nested" : "card");
    row = function (k) {
      wrap.appendChild(el("dt", "", k));
      plainFill(wrap.appendChild(el("dd")), v[k], depth + 1, budget);
    };
  } else if (cols) {
    wrap = el("div", "table-wrap");
    const table = wrap.appendChild(el("table", "data plain-table"));
    const head = table.appendChild(el("thead")).appendChild(el("tr"));
    cols.forEach(function (c) { head.appendChild(el("th", "", c)); });
    const body = table.appendChild(el("tbody"));
    row = function (r) {
      const tr = body.appendChild(el("tr"));
      cols.forEach(function (c) {
        const td = tr.appendChild(el("td"));
        if (Object.prototype.hasOwnProperty.call(r, c)) plainFill(td, r[c], depth + 1, budget);
      });
    };
  } else {
    wrap = el("ol", "plain-list");
    row = function (x) { plainFill(wrap.appendChild(el("li")), x, depth + 1, budget); };
  }
  let drawn = 0;
  /* Up to PLAIN_ROWS more while the budget lasts (one at least: every level shows something). */
  const more = function () {
    const stop = Math.min(items.length, drawn + PLAIN_ROWS);
    while (drawn < stop && (budget.left > 0 || drawn === 0)) row(items[drawn++]);
  };
  more();
  if (drawn >= items.length) return wrap;
  const holder = el("div");
  holder.appendChild(wrap);
  const button = holder.appendChild(el("button", "plain-more"));
  button.type = "button";
  const label = function () { button.textContent = "Show the other " + (items.length - drawn) + " of " + items.length; };
  label();
  button.addEventListener("click", function () {
    budget.left = PLAIN_VALUES; /* asked for: drawn on a budget of their own */
    more();
    if (drawn >= items.length) button.remove();
    else label();
  });
  return holder;
}
function plainBlock(v) {
  const wrap = el("div", "item plain-data");
  wrap.appendChild(plainData(pruned(v)));
  return wrap;
}
function plainView(view) {
  const T = window.GenuiText;
  if (view.kind === "parts" && Array.isArray(view.parts)) {
    const wrap = el("div", "parts");
    view.parts.forEach(function (p) { if (p) wrap.appendChild(plainView(p)); });
    return wrap;
  }
  if (view.kind === "data") return view.data !== undefined ? plainBlock(view.data) : block(typeof view.text === "string" ? view.text : "", "text");
  return T.draw(view, { app: app, drawView: plainView });
}
function plainItem(item) {
  const T = window.GenuiText;
  if (!item || item.type !== "text" || typeof item.text !== "string") return renderItem(item);
  const parsed = parseJSONText(item.text);
  if (parsed !== undefined) return withBadges(item, plainBlock(parsed));
  const view = T ? T.classify(item.text, "") : null;
  if (!view || view.kind === "data") return renderItem(item);
  return plainView(view);
}
function plainNote() {
  let note = document.getElementById("plain-note");
  if (!note) {
    note = el("p", "note plain-note");
    note.id = "plain-note";
    resultEl.prepend(note);
  }
  note.textContent = "Drawn plainly: the page could not load its rich views (" + plainWhy + ").";
}
function drawPlain(result) {
  resultEl.replaceChildren();
  const items = result && Array.isArray(result.content) ? result.content : [];
  if (result && result.isError) resultEl.appendChild(errorBanner(items));
  else items.forEach(function (item) { resultEl.appendChild(plainItem(item)); });
  /* The structured data, unless a text item is that data as JSON (a text beside it is most often a summary). */
  const sc = result ? result.structuredContent : undefined;
  if (sc !== undefined && sc !== null) {
    const want = JSON.stringify(sc);
    const same = function (item) {
      if (!item || item.type !== "text" || typeof item.text !== "string" || item.text.length > want.length * 2 + 1024) return false;
      try { return JSON.stringify(JSON.parse(item.text)) === want; } catch (e) { return false; }
    };
    if (!items.some(same)) resultEl.appendChild(plainBlock(sc));
  }
  if (plainWhy) plainNote();
}
/* connect.js holds the page's content out of layout until the tool input comes (see there). */
const release = window.genuiRelease || function () {};
app.ontoolinput = function (p) {
  release(); /* before filling the form: a text area measures its text to size itself */
  prefill(p && p.arguments);
  lastArgs = isPlainObject(p && p.arguments) ? p.arguments : {};
};
app.ontoolinputpartial = function (p) { release(); prefill(p && p.arguments); };
/* Performance marks for hosts and `make bench`: "result-received" when the host's result
   arrives, "result-painted" once the frame that shows it has been painted (the task after the
   next animation frame), "rich-painted" once a frame shows it drawn by the rich views. */
function markPainted(name) {
  requestAnimationFrame(function () { setTimeout(function () { performance.mark(name); }, 0); });
}
app.ontoolresult = function (result) {
  performance.mark("result-received");
  release(); /* before drawing: the renderers measure what they draw in */
  showError("");
  showResult(result);
  setState(result && result.isError ? "error" : "result", "");
  markPainted("result-painted");
};
app.ontoolcancelled = function (p) {
  setState("ready", "Cancelled" + (p && p.reason ? ": " + p.reason : "") + ".");
};
app.onteardown = function () { return {}; };

/* Buttons use the host's inverse surface and text (--color-background-inverse,
   --color-text-inverse). A host that sets only one of them, or a pair that
   does not read (WCAG 4.5:1), gets the host's own primary text and page
   colours swapped, else a fixed dark blue with white text. */
function rgbOf(c) {
  const m = /rgba?\(([\d.]+)[, ]+([\d.]+)[, ]+([\d.]+)(?:[,/ ]+([\d.]+%?))?/.exec(c || "");
  if (!m) return null;
  let a = m[4] === undefined ? 1 : parseFloat(m[4]) / (m[4].endsWith("%") ? 100 : 1);
  return [+m[1], +m[2], +m[3], a];
}
function luminance(rgb) {
  const f = function (v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(rgb[0]) + 0.7152 * f(rgb[1]) + 0.0722 * f(rgb[2]);
}
function over(top, under) {
  if (!top || !under) return top;
  return [0, 1, 2].map(function (i) { return top[i] * top[3] + under[i] * (1 - top[3]); }).concat(1);
}
function contrast(a, b) {
  const x = luminance(a), y = luminance(b);
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}
function pairContrast(probe, page) {
  const cs = getComputedStyle(probe);
  const bg = over(rgbOf(cs.backgroundColor), page), fg = rgbOf(cs.color);
  return bg && fg ? contrast(over(fg, bg), bg) : 0;
}
function fixButtonContrast() {
  const root = document.documentElement;
  root.style.removeProperty("--g-btn-bg");
  root.style.removeProperty("--g-btn-fg");
  const page = rgbOf(getComputedStyle(document.body).backgroundColor) || [255, 255, 255, 1];
  const probe = document.createElement("button");
  probe.style.position = "absolute";
  probe.style.visibility = "hidden";
  document.body.appendChild(probe);
  try {
    if (pairContrast(probe, page) >= 4.5) return;
    root.style.setProperty("--g-btn-bg", "var(--g-fg)");
    root.style.setProperty("--g-btn-fg", "var(--g-bg)");
    if (pairContrast(probe, page) >= 4.5) return;
    root.style.setProperty("--g-btn-bg", "#1d4ed8");
    root.style.setProperty("--g-btn-fg", "#ffffff");
  } finally {
    probe.remove();
  }
}
window.genuiButtonContrast = fixButtonContrast;

/* The theme the view asks for (#view-config's theme, the spec's theme.scheme) over the host's,
   set here (and only here) whether or not the rich views are in:
   with the host's style variables describing the other theme, genui's own palette is used. */
const forcedTheme = (function () {
  const cfg = readJSON("view-config") || {}, spec = readJSON("view-spec") || {};
  const t = spec.theme && (spec.theme.scheme === "light" || spec.theme.scheme === "dark") ? spec.theme.scheme : cfg.theme;
  return t === "light" || t === "dark" ? t : "";
})();
function applyTheme() {
  if (!forcedTheme) return;
  const root = document.documentElement;
  const host = (app.getHostContext ? app.getHostContext() || {} : {}).theme;
  root.setAttribute("data-theme", forcedTheme);
  root.style.colorScheme = forcedTheme;
  if (host !== forcedTheme) root.setAttribute("data-theme-forced", forcedTheme);
  else root.removeAttribute("data-theme-forced");
}
if (app.addEventListener) app.addEventListener("hostcontextchanged", applyTheme);
/* Checked once the host's colours are in (on connect when the host sent style variables, and when
   they change): genui's own pair reads (4.5:1 in both themes), and each check forces a style pass
   over the whole page. */
if (app.addEventListener) app.addEventListener("hostcontextchanged", fixButtonContrast);

const connected = (window.genuiConnected || app.connect()).then(function () {
  const ctx = app.getHostContext();
  /* connect.js set the system's theme on the root until the host's came; a host that sends none
     leaves the page following the system's theme as it changes. */
  const root = document.documentElement;
  if (window.genuiThemeGuess && !(ctx && (ctx.theme === "light" || ctx.theme === "dark")) && root.getAttribute("data-theme") === window.genuiThemeGuess) {
    root.removeAttribute("data-theme");
    root.style.removeProperty("color-scheme");
  }
  applyTheme();
  if (ctx && ctx.styles && isPlainObject(ctx.styles.variables) && Object.keys(ctx.styles.variables).length) fixButtonContrast();
  if (document.body.dataset.state === "connecting") setState("ready", "");
  release();
  return true;
}, function (e) {
  release();
  setState("error", "");
  showError("Not connected to an MCP Apps host: " + e.message);
  return false;
});

/* Cancel stops the running call: the App sends the host notifications/cancelled. A model-only
   tool's page has no Run button (the App may not call it), so no Cancel either. */
const cancelBtn = el("button", "secondary cancel-call", "Cancel");
cancelBtn.type = "button";
cancelBtn.id = "cancel";
cancelBtn.hidden = true;
if (submit) submit.after(cancelBtn);
let abort = null;
cancelBtn.addEventListener("click", function () {
  if (abort) abort.abort("cancelled by the user");
});

let busy = false;
form.addEventListener("submit", async function (ev) {
  ev.preventDefault();
  if (busy || tool.modelOnly) return; /* hosts refuse UI calls to model-only tools */
  const args = collect();
  if (!args) return;
  showError("");
  if (!(await connected)) {
    showError("Not connected to an MCP Apps host; cannot call " + tool.name + ".");
    return;
  }
  busy = true;
  submit.disabled = true;
  const before = shown;
  shown = null; /* a result drawn plainly is not drawn again over this call */
  setState("loading", "Calling " + tool.name + "…");
  /* Progress notifications for this call (the host relays the server's) move a bar. */
  const bar = rich ? rich.progress(document.getElementById("progress-host")) : null;
  const onprogress = function (p) {
    if (bar) bar.update(p);
    else if (p && typeof p.progress === "number") setState("loading", "Calling " + tool.name + "… " + p.progress + (typeof p.total === "number" ? " of " + p.total : ""));
  };
  abort = new AbortController();
  cancelBtn.hidden = false;
  try {
    const result = await app.callServerTool({ name: tool.name, arguments: args }, { onprogress: onprogress, signal: abort.signal });
    lastArgs = args;
    showResult(result);
    setState(result && result.isError ? "error" : "result", "");
  } catch (e) {
    if (abort.signal.aborted) {
      /* The result shown before the call is still there; drawn plainly, it is drawn again (richly
         once the rich views are in), else left as the user left it. */
      if (before && plainNow) showResult(before);
      else shown = before;
      setState("ready", "Cancelled.");
    } else {
      resultEl.replaceChildren();
      showCallError(e && e.message ? e.message : String(e));
      setState("error", "");
    }
  } finally {
    if (bar) bar.done();
    busy = false;
    abort = null;
    cancelBtn.hidden = true;
    submit.disabled = false;
  }
});
