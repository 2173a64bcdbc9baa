/*
 * The quality invariants every offline UI page must hold, checked in the
 * page's own frame by corpus_browser_test.go. Called as check(window,
 * document, opts) and returns {invariant: [problem, ...]} for the invariants
 * broken (an empty object when the page passes). opts:
 *   tabular: the result holds tabular text (record lines, an HTML table, CSV,
 *            file:line: output): it must show as a table with a switch to
 *            see the text
 *   error:   the result is an error; error.message is the upstream's message
 *            cleaned (no markdown marker, ANSI codes or stacked prefixes)
 *   bound:   the tallest a text block may be outside a scrolling box (px)
 * The invariants:
 *   overflow: the page does not scroll sideways; nothing is cut off by a box
 *             that neither scrolls nor offers a way to see the rest
 *   tall:     no text block taller than the bound unless it scrolls in its box
 *             (scrolling boxes inside a block count as their own blocks)
 *   links:    every link has a target (an href)
 *   markers:  no raw HTML tags, ANSI escape codes or markdown markers shown
 *             as text (code blocks may hold tags and markers, never ANSI)
 *   (contrast, every visible text at 4.5:1 against its background, is checked
 *   by internal/browsertest's ContrastJS beside this function)
 *   tabular:  tabular text is a table with a "view as text" switch
 *   errors:   an error shows the upstream's message once, cleaned, with the
 *             raw text one click away
 */
function check(w, d, opts) {
  "use strict";
  opts = opts || {};
  var out = {};
  var BOUND = opts.bound || 640;
  function add(inv, msg) { (out[inv] = out[inv] || []).push(msg); }
  function cs(e) { return w.getComputedStyle(e); }
  function path(e) {
    var parts = [];
    for (var n = e; n && n.nodeType === 1 && n !== d.body && parts.length < 4; n = n.parentElement) {
      parts.unshift(n.tagName.toLowerCase() + (n.id ? "#" + n.id : "") + (n.classList.length ? "." + [].slice.call(n.classList, 0, 2).join(".") : ""));
    }
    return parts.join(" > ");
  }
  function shown(e) {
    if (!e || !e.getClientRects().length) return false;
    var s = cs(e);
    return s.visibility !== "hidden" && s.display !== "none" && Number(s.opacity) > 0.05;
  }
  // Content a person sees only after asking for the raw data or the text view.
  function inRaw(e) { return !!(e.closest && e.closest("details.raw, [data-raw-view]")); }
  var root = d.body;

  /* ---- overflow ---- */
  var de = d.documentElement;
  if (de.scrollWidth > de.clientWidth + 1) add("overflow", "the page scrolls sideways: " + de.scrollWidth + " px of content in " + de.clientWidth + " px");
  var all = root.querySelectorAll("*");
  for (var i = 0; i < all.length; i++) {
    var e = all[i];
    if (!shown(e) || inRaw(e) || e.closest("svg, select, option, textarea, input")) continue;
    var s = cs(e);
    var ox = s.overflowX, oy = s.overflowY;
    var clipsX = ox === "hidden" || ox === "clip", clipsY = oy === "hidden" || oy === "clip";
    if (!clipsX && !clipsY) continue;
    // A clamp or fold with a way to unfold it (a More button, a click) is not lost content.
    var unfoldable = e.matches(".folded, .clamp, [role=button], [aria-expanded]") || (e.nextElementSibling && e.nextElementSibling.matches("button.more"));
    if (unfoldable) continue;
    if (clipsX && e.scrollWidth > e.clientWidth + 1) {
      var titled = s.textOverflow === "ellipsis" && e.title && e.title.length >= e.textContent.trim().length;
      if (!titled) add("overflow", path(e) + ": " + e.scrollWidth + " px of content cut to " + e.clientWidth + " px");
    }
    if (clipsY && e.scrollHeight > e.clientHeight + 2 && e.clientHeight > 0) add("overflow", path(e) + ": " + e.scrollHeight + " px tall content cut to " + e.clientHeight + " px");
  }

  /* ---- tall ---- */
  var blocks = root.querySelectorAll("#result pre, #result .text, #result .md, #result dl.card, #result ul.values, #result ul.tree, #result .sections, #result .log-view, #result blockquote");
  // A scrolling box within its bound holds its own text; a block is as tall as what is left.
  function scrollsWithin(a) { var as = cs(a); return (as.overflowY === "auto" || as.overflowY === "scroll") && a.clientHeight <= BOUND; }
  function unboundedHeight(blk) {
    var h = blk.getBoundingClientRect().height;
    var inner = blk.querySelectorAll("*");
    for (var k = 0; k < inner.length; k++) {
      var x = inner[k];
      if (!scrollsWithin(x) || !shown(x)) continue;
      var outer = x.parentElement && x.parentElement.closest("*");
      var nested = false;
      for (var q = x.parentElement; q && q !== blk; q = q.parentElement) if (scrollsWithin(q)) { nested = true; break; }
      if (!nested) h -= x.getBoundingClientRect().height;
    }
    return h;
  }
  for (var b = 0; b < blocks.length; b++) {
    var blk = blocks[b];
    if (!shown(blk) || inRaw(blk)) continue;
    var h = unboundedHeight(blk);
    if (h <= BOUND) continue;
    var bounded = false;
    for (var a = blk; a && a !== root; a = a.parentElement) {
      if (scrollsWithin(a)) { bounded = true; break; }
    }
    // Nested blocks are reported once, at the outermost.
    if (!bounded && !(blk.parentElement && blk.parentElement.closest("#result pre, #result .text, #result .md, #result dl.card, #result ul.values, #result ul.tree, #result .sections"))) {
      add("tall", path(blk) + ": " + Math.round(h) + " px of text outside any scrolling box (bound " + BOUND + " px)");
    }
  }

  /* ---- links ---- */
  var links = root.querySelectorAll("a");
  for (var l = 0; l < links.length; l++) {
    var ln = links[l];
    if (!shown(ln) || inRaw(ln)) continue;
    var href = ln.getAttribute("href");
    if (!href || !href.trim()) add("links", "link \"" + ln.textContent.trim().slice(0, 60) + "\" has no target");
  }

  /* ---- markers: every visible text node ---- */
  var HTML_TAG = /<\/?(?:table|thead|tbody|tr|td|th|div|span|p|br|b|i|em|strong|a|img|ul|ol|li|h[1-6]|script|style|html|body|head|pre|code|font|center|section|article|nav)\b[^<>]*>/i;
  var MD = [
    [/(?:^|\n)\s{0,3}#{1,6}\s+\S/, "a markdown heading marker (#)"],
    [/\*\*[^*\n]+\*\*/, "markdown bold markers (**)"],
    // A dunder identifier (__name__, __address__: a Prometheus label, a Python name) is a
    // name, not bold: __ is bold only around words that are not one lowercase identifier.
    [/(?:^|[^\w])__(?![a-z][a-z0-9_]*__(?:[^\w]|$))[^_\n]+__(?:[^\w]|$)/, "markdown bold markers (__)"],
    [/\[[^\]\n]+\]\([^)\s]+\)/, "a markdown link ([text](url))"],
    [/(?:^|\n)\s*```/, "a markdown code fence (```)"]
  ];
  var ANSI = /\u001b|\[(?:\d{1,3};)*\d{1,3}m(?=\S)/;
  var walker = d.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  var texts = [], node;
  while ((node = walker.nextNode())) {
    var t = node.nodeValue;
    if (!t || !t.trim()) continue;
    var p = node.parentElement;
    if (!p || p.closest("script, style, template, textarea, select, option, noscript") || inRaw(p) || !shown(p)) continue;
    texts.push(node);
  }
  // Markers are judged on the text of each block (a marker may span nodes).
  var seen = new Set();
  texts.forEach(function (n) {
    var p = n.parentElement;
    // Code and compact JSON (monospace text) may hold tags and markers.
    var code = p.closest("pre, code, .code, kbd, samp, .mono") || /mono/i.test(cs(p).fontFamily);
    if (ANSI.test(n.nodeValue)) add("markers", path(p) + ": ANSI escape code shown: " + JSON.stringify(n.nodeValue.slice(0, 60)));
    if (code) return;
    var blockEl = p.closest("p, li, td, th, dd, dt, h1, h2, h3, h4, h5, h6, .text, .error-banner, .note, label, div") || p;
    if (seen.has(blockEl)) return;
    seen.add(blockEl);
    var bt = "";
    var bw = d.createTreeWalker(blockEl, 4);
    var bn;
    while ((bn = bw.nextNode())) {
      var bp = bn.parentElement;
      if (bp && !bp.closest("pre, code, .code, kbd, samp, .mono, script, style, textarea, select, details.raw") && !/mono/i.test(cs(bp).fontFamily) && shown(bp)) bt += bn.nodeValue;
    }
    var m = bt.match(HTML_TAG);
    if (m) add("markers", path(blockEl) + ": raw HTML shown as text: " + JSON.stringify(m[0].slice(0, 60)));
    MD.forEach(function (r) {
      var mm = bt.match(r[0]);
      if (mm) add("markers", path(blockEl) + ": " + r[1] + " shown as text: " + JSON.stringify(mm[0].trim().slice(0, 60)));
    });
  });

  /* ---- tabular ---- */
  var result = d.getElementById("result");
  if (opts.tabular) {
    var tables = [].filter.call(result ? result.querySelectorAll("table") : [], function (tb) { return shown(tb) && !inRaw(tb); });
    if (!tables.length) add("tabular", "tabular text (" + opts.tabular + ") is not shown as a table");
    else {
      var sw = [].filter.call(result.querySelectorAll("button, summary, [role=tab], a, label"), function (x) { return /\b(?:view|show) as text\b|\btext view\b/i.test(x.textContent); });
      if (!sw.length) add("tabular", "the table read from text (" + opts.tabular + ") has no \"view as text\" switch");
    }
  }

  /* ---- errors ---- */
  if (opts.error) {
    var region = [].filter.call(d.querySelectorAll("#result, #call-error, #status"), shown);
    var lines = [];
    texts.forEach(function (n) {
      if (region.some(function (r) { return r.contains(n); })) lines = lines.concat(n.nodeValue.split("\n"));
    });
    var visible = lines.join("\n");
    var msg = String(opts.error.message || "").trim();
    var probe = msg.split("\n")[0].trim().slice(0, 80);
    var count = probe ? visible.split(probe).length - 1 : 0;
    if (probe && count === 0) add("errors", "the upstream's message is not shown: " + JSON.stringify(probe));
    if (count > 1) add("errors", "the upstream's message is shown " + count + " times: " + JSON.stringify(probe));
    // The message stands on its own line: no "Error:", "MCP error -32603:" or
    // repeated prefixes before it.
    lines.forEach(function (line) {
      var at = probe ? line.indexOf(probe) : -1;
      if (at > 0 && line.slice(0, at).trim()) add("errors", "prefixes before the message: " + JSON.stringify(line.slice(0, at + 20).trim().slice(0, 100)));
    });
    if (/(?:^|\n)\s*#{1,6}\s*Error\b/.test(visible)) add("errors", "a markdown \"### Error\" marker is shown");
    if (/\u001b|\[\d{1,2}m/.test(visible)) add("errors", "ANSI escape codes are shown");
    var raw = [].filter.call(d.querySelectorAll("details > summary, button"), function (x) { return shown(x) && /\braw\b/i.test(x.textContent); });
    if (!raw.length) add("errors", "no way to see the raw error text");
  }
  return out;
}
