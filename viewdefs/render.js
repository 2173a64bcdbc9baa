/* genui offline UIs: result rendering shared by the pages' module scripts (page.js, emergency.js);
   all data goes through textContent. Minified with them into min/ by go generate. */
const LIMIT = 100 * 1024;
const MEDIA_LIMIT = 8 * 1024 * 1024;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function clip(s) {
  s = String(s);
  if (s.length <= LIMIT) return { text: s, note: "" };
  return { text: s.slice(0, LIMIT), note: "Truncated: showing the first " + Math.round(LIMIT / 1024) + " KB of " + Math.round(s.length / 1024) + " KB." };
}

function pretty(v) {
  try {
    const s = JSON.stringify(v, null, 2);
    return s === undefined ? String(v) : s;
  } catch (e) {
    return String(v);
  }
}

/* A <pre> (or text block) holding s, clipped with a note. */
function block(s, cls) {
  const c = clip(s);
  const wrap = el("div", "item");
  wrap.appendChild(el(cls === "text" ? "div" : "pre", cls === "text" ? "text" : "", c.text));
  if (c.note) wrap.appendChild(el("div", "note", c.note));
  return wrap;
}

function parseJSONText(s) {
  const t = typeof s === "string" ? s.trim() : "";
  if (!(t.startsWith("{") || t.startsWith("["))) return undefined;
  try { return JSON.parse(t); } catch (e) { return undefined; }
}

function renderText(text) {
  const parsed = parseJSONText(text);
  if (parsed !== undefined) return block(pretty(parsed), "json");
  return block(text, "text");
}

function renderMedia(tag, prefix, item) {
  const mime = typeof item.mimeType === "string" ? item.mimeType : "";
  const data = typeof item.data === "string" ? item.data : "";
  const ok = mime.toLowerCase().startsWith(prefix) && /^[\w.+-]+\/[\w.+-]+$/.test(mime);
  if (!ok || !data) return el("div", "note", tag + " content with an unsupported or missing mimeType: " + mime);
  if (data.length > MEDIA_LIMIT) return el("div", "note", tag + " of " + Math.round(data.length / 1024) + " KB (base64) not shown: too large.");
  const m = el(tag === "image" ? "img" : "audio", tag === "image" ? "content-image" : "");
  if (tag === "image") m.alt = "image (" + mime + ")";
  else m.controls = true;
  m.src = "data:" + mime + ";base64," + data;
  const wrap = el("div", "item");
  wrap.appendChild(m);
  return wrap;
}

/* The host's App (page.js sets window.genuiApp), when the host offers cap. */
function hostOffers(cap) {
  const app = window.genuiApp;
  const caps = app && typeof app.getHostCapabilities === "function" ? app.getHostCapabilities() : null;
  return !!(caps && caps[cap]);
}

/* A Download button for one resource's contents (text or base64 blob),
   handed to the host (ui/download-file): sandboxed views cannot save files. */
function downloadButton(r, wrap) {
  if (!hostOffers("downloadFile")) return el("div", "note", "The host offers no downloads (downloadFile).");
  const b = el("button", "secondary download", "Download");
  b.type = "button";
  b.addEventListener("click", function () {
    window.genuiApp.downloadFile({ contents: [{ type: "resource", resource: r }] }).catch(function (e) {
      wrap.appendChild(el("div", "field-error", "Download failed: " + e.message));
    });
  });
  return b;
}

/* The contents of a resources/read result, each with a Download button. */
function renderContents(result, wrap) {
  const list = result && Array.isArray(result.contents) ? result.contents : [];
  if (!list.length) wrap.appendChild(el("div", "note", "The resource is empty."));
  list.forEach(function (r) {
    if (!r || typeof r !== "object") return;
    const box = el("div", "item resource-contents");
    box.appendChild(el("div", "link", (r.uri || "") + (r.mimeType ? " (" + r.mimeType + ")" : "")));
    if (typeof r.text === "string") box.appendChild(renderText(r.text));
    else if (typeof r.blob === "string") box.appendChild(el("div", "note", "Binary, " + Math.round(r.blob.length * 3 / 4) + " bytes."));
    box.appendChild(downloadButton(r, box));
    wrap.appendChild(box);
  });
}

function renderLink(item) {
  const wrap = el("div", "item link-item");
  wrap.appendChild(el("div", "link-name", item.name || item.title || "Resource link"));
  wrap.appendChild(el("div", "link", (item.uri || "") + (item.mimeType ? " (" + item.mimeType + ")" : "")));
  if (item.description) wrap.appendChild(el("div", "note", item.description));
  const uri = typeof item.uri === "string" ? item.uri : "";
  if (!uri || !window.genuiApp) return wrap;
  if (/^https?:/i.test(uri)) {
    const b = el("button", "secondary", "Open link");
    b.type = "button";
    b.addEventListener("click", function () {
      window.genuiApp.openLink({ url: uri }).catch(function (e) { wrap.appendChild(el("div", "field-error", e.message)); });
    });
    wrap.appendChild(b);
    return wrap;
  }
  /* An MCP resource (ui://, a server's own scheme): read it through the host. */
  if (!hostOffers("serverResources")) return wrap;
  const b = el("button", "secondary open-resource", "Open");
  b.type = "button";
  const out = el("div", "resource-view");
  b.addEventListener("click", function () {
    b.disabled = true;
    out.replaceChildren(el("div", "note", "Reading " + uri + "…"));
    window.genuiApp.readServerResource({ uri: uri }).then(function (r) {
      out.replaceChildren();
      renderContents(r, out);
    }, function (e) {
      out.replaceChildren(el("div", "field-error", "Reading " + uri + " failed: " + e.message));
    }).finally(function () { b.disabled = false; });
  });
  wrap.append(b, out);
  return wrap;
}

function renderResource(item) {
  const r = item.resource || {};
  const wrap = el("div", "item");
  wrap.appendChild(el("div", "link", (r.uri || "embedded resource") + (r.mimeType ? " (" + r.mimeType + ")" : "")));
  if (typeof r.text === "string") wrap.appendChild(renderText(r.text));
  else if (typeof r.blob === "string") wrap.appendChild(el("div", "note", "Binary blob, " + Math.round(r.blob.length * 3 / 4) + " bytes."));
  else wrap.appendChild(block(pretty(r), "json"));
  if (typeof r.text === "string" || typeof r.blob === "string") wrap.appendChild(downloadButton(r, wrap));
  return wrap;
}

/* Badges for a content block's annotations: whom it is for (audience),
   how important it is (priority 0-1), when it changed. */
function annotationBadges(a) {
  if (!a || typeof a !== "object" || Array.isArray(a)) return null;
  const row = el("div", "badges");
  if (Array.isArray(a.audience) && a.audience.length) row.appendChild(el("span", "badge audience", "for " + a.audience.map(String).join(", ")));
  if (typeof a.priority === "number") row.appendChild(el("span", "badge priority" + (a.priority >= 0.7 ? " high" : ""), "priority " + a.priority));
  if (typeof a.lastModified === "string") row.appendChild(el("span", "badge modified", "modified " + a.lastModified));
  return row.children.length ? row : null;
}

/* node with its block's annotation badges above it, when it has any. */
function withBadges(item, node) {
  const b = annotationBadges(item && item.annotations);
  if (!b) return node;
  const w = el("div", "annotated");
  w.append(b, node);
  return w;
}

function renderItem(item) {
  if (!item || typeof item !== "object") return block(pretty(item), "json");
  switch (item.type) {
    case "text": return withBadges(item, renderText(item.text));
    case "image": return withBadges(item, renderMedia("image", "image/", item));
    case "audio": return withBadges(item, renderMedia("audio", "audio/", item));
    case "resource_link": return withBadges(item, renderLink(item));
    case "resource": return withBadges(item, renderResource(item));
    default: return block(pretty(item), "json");
  }
}

/*
 * cleanError makes an upstream's error text readable: ANSI codes and a
 * markdown "### Error" heading removed (any other heading of up to three
 * words over more text, the message's title in any language, leads the
 * message's line without its markers: "錯誤: ..."; a longer one keeps its
 * words without the markers), prefixes that say nothing to a person
 * ("Error:", "MCP error -32603:", code locations such as
 * "browserBackend.callTool:") dropped, and a prefix the next one repeats
 * ("tools/call q failed: tools/call q:") said once. Returns {headline,
 * detail}: the first line and the lines after it.
 */
function cleanError(text) {
  const ansi = /\u001b(?:\[[0-9;?]*[ -\/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-_])/g;
  let title = "";
  const s = String(text).replace(ansi, "").replace(/^\s*#{1,6}\s*(?:Error|Errors|Failed)\s*\n/i, "").trim()
    // A short markdown heading over the message is its title in any language ("## 錯誤"): said
    // before the message on its line, without the markers.
    .replace(/^#{1,6}[ \t]+(\S+(?:[ \t]+\S+){0,2})[ \t]*#*[ \t]*\n\s*(?=\S)/, function (_, t) { title = t; return ""; })
    .replace(/^#{1,6}[ \t]+/, "");
  const nl = s.indexOf("\n");
  const first = nl < 0 ? s : s.slice(0, nl), rest = nl < 0 ? "" : s.slice(nl + 1).replace(/^\n+|\s+$/g, "");
  const segs = first.split(": ");
  const noise = /^(?:error|mcp error -?\d+|error executing tool [\w.-]+|[a-z_$][\w$]*(?:\.[\w$]+)+)$/i;
  const core = (x) => x.toLowerCase().replace(/error|failed|failure/g, "").split(/\s+/).filter(Boolean).join(" ");
  const keep = [];
  segs.forEach(function (seg, i) {
    if (i < segs.length - 1) {
      if (noise.test(seg.trim())) return;
      const a = core(seg), b = core(segs[i + 1]);
      if (a && b && (a === b || b.indexOf(a) === 0 || a.indexOf(b) === 0)) return;
    }
    keep.push(seg);
  });
  const headline = keep.join(": ").trim();
  return { headline: title && headline.indexOf(title) < 0 ? title + ": " + headline : headline, detail: rest };
}

/*
 * errorMessage fills box with an error: a title, the cleaned message once
 * (its first line on its own, the rest below in a bounded monospace block)
 * and the text as it came one click away ("Raw error text", in the page
 * behind its fold, so nothing cleaning dropped is further away); raws, when
 * given, are the texts as they came where texts are messages read from them.
 */
function errorMessage(box, title, texts, raws) {
  box.replaceChildren();
  box.appendChild(el("div", "error-title", title));
  const raw = [];
  texts.forEach(function (t, i) {
    if (typeof t !== "string" || !t.trim()) return;
    raw.push(raws && typeof raws[i] === "string" ? raws[i] : t);
    const c = cleanError(clip(t).text);
    if (c.headline) box.appendChild(el("div", "error-message", c.headline));
    if (c.detail) box.appendChild(el("pre", "error-more", c.detail));
  });
  if (raw.length) {
    // Drawn now, folded: what cleaning left out (a code location, "MCP error -32603") is one click away.
    const d = el("details", "raw error-raw");
    d.appendChild(el("summary", "", "Raw error text"));
    d.appendChild(el("pre", "", clip(raw.join("\n")).text));
    box.appendChild(d);
  }
  return box;
}

/* The banner of an isError result: a title plus the result's text items (the message), cleaned. */
function errorBanner(items) {
  const banner = el("div", "error-banner");
  banner.setAttribute("role", "alert");
  const shown = items.filter((item) => item && item.type === "text" && typeof item.text === "string");
  // An item read as an error object keeps the text it came as (raw) for the raw fold.
  return errorMessage(banner, "The tool reported an error.", shown.map((item) => item.text), shown.map((item) => typeof item.raw === "string" ? item.raw : item.text));
}
