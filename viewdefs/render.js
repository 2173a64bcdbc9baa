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

function renderLink(item) {
  const wrap = el("div", "item link-item");
  wrap.appendChild(el("div", "link-name", item.name || item.title || "Resource link"));
  wrap.appendChild(el("div", "link", item.uri || ""));
  if (item.description) wrap.appendChild(el("div", "note", item.description));
  if (typeof item.uri === "string" && /^https?:/i.test(item.uri) && window.genuiApp) {
    const b = el("button", "secondary", "Open link");
    b.type = "button";
    b.addEventListener("click", function () {
      window.genuiApp.openLink({ url: item.uri }).catch(function (e) { wrap.appendChild(el("div", "field-error", e.message)); });
    });
    wrap.appendChild(b);
  }
  return wrap;
}

function renderResource(item) {
  const r = item.resource || {};
  const wrap = el("div", "item");
  wrap.appendChild(el("div", "link", (r.uri || "embedded resource") + (r.mimeType ? " (" + r.mimeType + ")" : "")));
  if (typeof r.text === "string") wrap.appendChild(renderText(r.text));
  else if (typeof r.blob === "string") wrap.appendChild(el("div", "note", "Binary blob, " + Math.round(r.blob.length * 3 / 4) + " bytes, not shown."));
  else wrap.appendChild(block(pretty(r), "json"));
  return wrap;
}

function renderItem(item) {
  if (!item || typeof item !== "object") return block(pretty(item), "json");
  switch (item.type) {
    case "text": return renderText(item.text);
    case "image": return renderMedia("image", "image/", item);
    case "audio": return renderMedia("audio", "audio/", item);
    case "resource_link": return renderLink(item);
    case "resource": return renderResource(item);
    default: return block(pretty(item), "json");
  }
}

/* The banner of an isError result: a heading plus the result's text items (the message). */
function errorBanner(items) {
  const banner = el("div", "error-banner", "The tool reported an error.");
  banner.setAttribute("role", "alert");
  items.forEach(function (item) {
    if (item && item.type === "text" && typeof item.text === "string" && item.text.trim()) banner.appendChild(el("span", "error-detail", clip(item.text).text));
  });
  return banner;
}
