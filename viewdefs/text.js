/*
 * genui offline text renderers. Plain browser script, no network: defines
 * window.GenuiText. Most MCP servers answer in text, so text is read for the
 * data it holds before it is shown: classify(text) says what a text is
 * (JSON, a fenced block, a unified diff, CSV/TSV, a `[TAG] name` listing,
 * `key: value` lines, a bullet list, git log, `---`-separated file sections,
 * markdown, code/terminal output, or prose), and the data kinds come back as
 * JSON values for the rich data views. The rest is drawn here: markdown
 * through the vendored streaming-markdown parser (window.GenuiMarkdown) into
 * DOM nodes built one by one (no HTML strings, so nothing to sanitise but
 * URLs: links only to web/mail addresses, images only from data: URLs),
 * monospace blocks with diff lines coloured, and every long block bounded in
 * a scrolling box with a copy button.
 * This file is inlined into a script element: it must never contain a
 * closing script tag or an HTML comment opener.
 */
(function (global) {
  "use strict";

  var DOC = global.document;
  var SHOW_LIMIT = 200 * 1024;   // characters drawn per block (copy takes all)
  var NUM_RE = /^-?(?:\d+|\d*\.\d+)(?:[eE][+-]?\d+)?$/;
  var MARKER_RE = /^\[([A-Za-z][\w -]{0,15})\]\s+(\S.*)$/;
  var KV_RE = /^\s*([A-Za-z_][\w .\/()-]{0,39}?)\s*:\s+(\S.*)$/;
  var LIST_RE = /^\s*(?:[-*\u2022+]|(\d{1,4})[.)])\s+(\S.*)$/;
  var SIZE_RE = /^\d+(?:\.\d+)?\s*(?:[KMGTP]i?)?B$/i;
  var HEADER_RE = /^[\w .#%()\/-]{1,40}$/;
  var LOG_LEVEL_RE = /(?:^|[\s\[|])(ERROR|FATAL|CRITICAL|PANIC|WARN|WARNING)(?:[\]\s:|]|$)/m;
  var DIFF_HEAD_RE = /^(?:diff --git |index [0-9a-f]|--- |\+\+\+ |Index: |={10,}|@@ |new file mode|deleted file mode|similarity index|rename (?:from|to) )/;

  function el(tag, cls, text) {
    var e = DOC.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function lines(s) { return s.replace(/\r\n?/g, "\n").split("\n"); }
  function nonEmpty(ls) { return ls.filter((l) => l.trim() !== ""); }

  /* A scalar read from text: numbers and booleans typed, the rest as is; a number written otherwise
     than its own form (39.80, 1e3) stays as written (sorted and charted as a number all the same). */
  function typed(s) {
    var t = s.trim();
    if (NUM_RE.test(t) && t.length < 16 && !/^0\d/.test(t)) return String(Number(t)) === t ? Number(t) : t;
    if (t === "true" || t === "false") return t === "true";
    return t;
  }

  function parseJSON(s) {
    var t = s.trim(), c = t.charAt(0);
    if (!(c === "{" || c === "[")) return undefined;
    try { return JSON.parse(t); } catch (e) { return undefined; }
  }

  /* Splits one CSV/TSV line (RFC 4180 quotes for commas). */
  function splitRow(line, sep) {
    if (sep === "\t") return line.split("\t");
    var out = [], cur = "", q = false;
    for (var i = 0; i < line.length; i++) {
      var ch = line.charAt(i);
      if (q) {
        if (ch === "\"" && line.charAt(i + 1) === "\"") { cur += "\""; i++; }
        else if (ch === "\"") q = false;
        else cur += ch;
      } else if (ch === "\"" && cur === "") q = true;
      else if (ch === sep) { out.push(cur); cur = ""; }
      else cur += ch;
    }
    out.push(cur);
    return out;
  }

  /* CSV or TSV: a header of short names and rows with the same number of fields. */
  /*
   * firstRowIsData: the first line of delimited text is a row like the
   * others, not a header, when one of its cells is of the kind every cell
   * below it in that column is: a size, a date, a file name, a number that
   * is not a year (a directory listing `README.md<TAB>412<TAB>2026-01-09`).
   */
  function cellKind(c) {
    c = c.trim();
    if (SIZE_RE.test(c)) return "size";
    if (/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(c)) return "date";
    if (NUM_RE.test(c) && !/^(?:19|20)\d{2}$/.test(c)) return "number";
    if (/^[^\s\/]*(?:\/[^\s\/]+)*\.[A-Za-z0-9]{1,5}$/.test(c) && !NUM_RE.test(c)) return "file";
    return "";
  }

  function firstRowIsData(rows) {
    if (rows.length < 3) return false;
    return rows[0].some(function (c, i) {
      var k = cellKind(c);
      return k !== "" && rows.slice(1).every((r) => cellKind(r[i]) === k);
    });
  }

  function delimited(ls, sep) {
    ls = nonEmpty(ls);
    if (ls.length < 2) return null;
    var rows = ls.map((l) => splitRow(l, sep)), n = rows[0].length;
    if (n < 2 || !rows.every((r) => r.length === n)) return null;
    // Two lines of prose with a comma each are not a table: commas need a third row or column.
    if (sep === "," && rows.length < 3 && n < 3) return null;
    var head = rows[0].map((h) => h.trim()), body = rows.slice(1);
    if (firstRowIsData(rows)) {
      // No header line: every line is a row (a listing's first file is no column name).
      head = head.map((_, i) => "column " + (i + 1));
      body = rows;
    } else {
      if (!head.every((h) => HEADER_RE.test(h))) return null;
      if (head.some((h, i) => head.indexOf(h) !== i)) return null;
    }
    return body.map(function (r) {
      var o = {};
      head.forEach(function (h, i) { o[h] = typed(r[i]); });
      return o;
    });
  }

  /* `[FILE] a.txt   18 B` lines -> [{type, name, size}] (the detail column named size when it is one). */
  function markers(ls) {
    ls = nonEmpty(ls);
    if (!ls.length || !ls.every((l) => MARKER_RE.test(l.trim()))) return null;
    var sizes = true;
    var recs = ls.map(function (l) {
      var m = l.trim().match(MARKER_RE), rest = m[2], r = { type: m[1] };
      var d = rest.match(/^(.*?\S)\s{2,}(\S.*)$/);
      r.name = d ? d[1] : rest;
      if (d) { r.detail = d[2]; if (!SIZE_RE.test(d[2])) sizes = false; }
      return r;
    });
    if (sizes) recs.forEach(function (r) { if ("detail" in r) { r.size = r.detail; delete r.detail; } });
    return recs;
  }

  /* `key: value` lines -> an object, when every line is one and the keys differ. */
  function keyValues(ls) {
    ls = nonEmpty(ls);
    if (ls.length < 2) return null;
    var o = {}, n = 0;
    for (var i = 0; i < ls.length; i++) {
      var m = ls[i].match(KV_RE);
      // A "key" that ends a sentence inside it ("Start here. Active work") is prose, not a key.
      if (!m || Object.prototype.hasOwnProperty.call(o, m[1]) || /[.!?]\s/.test(m[1])) return null;
      o[m[1]] = typed(m[2]);
      n++;
    }
    return n ? o : null;
  }

  /* `- a` / `* a` / `1. a` lines -> the items; a task list or a nested list is markdown, not values. */
  function bulletList(ls) {
    ls = nonEmpty(ls);
    if (ls.length < 2 || !ls.every((l) => LIST_RE.test(l))) return null;
    var joined = ls.join("\n");
    if (TASK_RE.test(joined) || nestedList(joined)) return null;
    return ls.map((l) => l.match(LIST_RE)[2]);
  }

  function looksDiff(ls) {
    var head = 0, hunk = 0, bad = 0;
    ls.forEach(function (l) {
      if (/^@@ .* @@/.test(l)) hunk++;
      else if (DIFF_HEAD_RE.test(l)) head++;
      else if (l !== "" && !/^[ +\-\\]/.test(l)) bad++;
    });
    return hunk > 0 && head > 0 && bad <= 2;
  }

  /* Markdown: headings (setext ones too), fences, emphasis, links and wikilinks, tables, quotes, task lists, nested lists. */
  function looksMarkdown(s) {
    var D = global.GenuiTextData;
    return /^#{1,6}\s+\S/m.test(s) || (D && D.hasSetext(s)) || /^\s*```/m.test(s) || /\*\*[^*\n]+\*\*/.test(s) || /\[[^\]\n]+\]\([^)\s]+\)/.test(s) ||
      /^\s*\|.*\|\s*\n\s*\|?\s*:?-{3,}/m.test(s) || /^>\s+\S/m.test(s) || /\[\[[^\[\]\n]+\]\]/.test(s) || TASK_RE.test(s) || nestedList(s);
  }

  var TASK_RE = /^\s*(?:[-*+]|\d{1,4}[.)])\s+\[[ xX]\]\s/m;

  /* A list with an item indented under another (two spaces or more deeper than a list line above it). */
  function nestedList(s) {
    var ls = lines(s), outer = -1;
    for (var i = 0; i < ls.length; i++) {
      var m = ls[i].match(/^(\s*)(?:[-*+]|\d{1,4}[.)])\s+\S/);
      if (!m) { if (ls[i].trim() === "") continue; outer = -1; continue; }
      if (outer >= 0 && m[1].length >= outer + 2) return true;
      if (outer < 0 || m[1].length < outer) outer = m[1].length;
    }
    return false;
  }

  /* Multi-line text that reads as code, terminal output or a log rather than sentences. */
  function looksCode(ls, hint) {
    var ne = nonEmpty(ls);
    if (ne.length < 2) return false;
    var code = 0, sentences = 0, len = 0, output = 0;
    ne.forEach(function (l) {
      len += l.length;
      // Program output: ls -l lines, columns aligned by runs of spaces, key=value pairs.
      if (/^[-dlcbps][rwxsStT-]{9}[.+@]?\s/.test(l) || (/\S {2,}\S.* {2,}\S/.test(l.trim()) && !/[.!?] {2}[A-Z]/.test(l)) || /^\S+=\S/.test(l)) output++;
      if (/^(?:\t| {2,})\S/.test(l) || /[;{}]\s*$/.test(l) || /^\s*(?:\$|>>>|#!|\/\/|import |func |def |class |package |const |let |var |return )/.test(l) ||
        /^\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(l) || /^\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE)\b/.test(l) || /\x1b\[/.test(l) || /^\S+\/\S+$/.test(l.trim())) code++;
      if (/[.!?]["')]?\s*$/.test(l) && l.split(/\s+/).length > 5) sentences++;
    });
    if (code > 0 || output >= Math.max(2, ne.length * 0.3)) return true;
    if (/(?:read|file|log|diff|git|shell|exec|run|cat|tail|head|command|terminal|source|code|process|output|bash|script|build)/i.test(hint || "")) return sentences < ne.length / 2;
    // Short lines that never end a sentence (file contents, names, numbers); two lines could be either.
    return ne.length >= 3 && !ne.some((l) => /[.!?]["')]?\s*$/.test(l)) && len / ne.length < 60;
  }

  /* `path:\n body \n---\n path2:\n body` -> [{title, text}] (several files read in one answer). */
  function sections(ls) {
    var parts = [[]];
    ls.forEach(function (l) { if (l.trim() === "---") parts.push([]); else parts[parts.length - 1].push(l); });
    if (parts.length < 2) return null;
    var out = [];
    for (var i = 0; i < parts.length; i++) {
      var p = parts[i];
      while (p.length && p[0].trim() === "") p.shift();
      if (!p.length) continue;
      var m = p[0].match(/^(\S.{0,300}?):\s*$/);
      if (!m) return null;
      out.push({ title: m[1], text: p.slice(1).join("\n").replace(/\n+$/, "\n") });
    }
    return out.length >= 2 ? out : null;
  }

  /*
   * classify says what text is. Returns one of
   *   {kind: "empty"}
   *   {kind: "data", data, from}           JSON, csv, tsv, listing, kv, list, gitlog
   *   {kind: "parts", parts: [classified]}  paragraphs of different kinds
   *   {kind: "sections", sections: [{title, view}]}
   *   {kind: "commits" | "numbered" | "log", ...}  line-oriented text (textlines.js)
   *   {kind: "code", text, lang, alt?}      monospace; lang "diff" colours lines
   *   {kind: "markdown", text}
   *   {kind: "prose", text, alt?}
   * A reading as data must explain the whole text; alt is a weaker one
   * ({data, from, label}) that explains most of it, offered beside the text.
   * hint is the tool's name (a file reader's text is code, not prose).
   */
  function classify(text, hint, mime) {
    var D = global.GenuiTextData;
    // ANSI colour codes are never shown (search and build tools colour their output).
    var s = D ? D.stripANSI(text) : String(text), t = s.trim();
    if (!t) return { kind: "empty" };
    mime = String(mime || "").toLowerCase();
    var j = parseJSON(t);
    if (j !== undefined) return { kind: "data", data: j, from: "json" };
    // A lead-in line or two, then JSON to the end: both, the JSON as data.
    var at = t.search(/\n[ \t]*[\[{]/);
    if (at > 0 && at < 500) {
      j = parseJSON(t.slice(at));
      if (j !== undefined) {
        var leadIn = t.slice(0, at).trim();
        return { kind: "parts", parts: [{ kind: looksMarkdown(leadIn) ? "markdown" : "prose", text: leadIn }, { kind: "data", data: j, from: "json" }] };
      }
    }
    var fence = t.match(/^(`{3,}|~{3,})[ \t]*([\w+.#-]*)[^\n]*\n([\s\S]*?)\n?\1[ \t]*$/);
    if (fence && fence[3].indexOf(fence[1]) < 0) {
      var lang = fence[2].toLowerCase(), body = fence[3];
      if (lang === "json") { j = parseJSON(body); if (j !== undefined) return { kind: "data", data: j, from: "json" }; }
      if (lang === "markdown" || lang === "md") return { kind: "markdown", text: body };
      return { kind: "code", text: body, lang: lang === "patch" || looksDiff(lines(body)) ? "diff" : lang };
    }
    var ls = lines(t), L = global.GenuiLines;
    if (mime.indexOf("markdown") >= 0) return (D && D.readMarkdown(t, classify, hint)) || { kind: "markdown", text: t };
    if (mime === "text/csv") { var c = delimited(ls, ","); if (c) return { kind: "data", data: c, from: "csv", text: t }; }
    // HTML tables, record lines, search output, console lines (textdata.js).
    var dr = D ? D.read(t, classify, hint) : null;
    if (dr) return dr;
    // Version-control logs, commits with patches, numbered lines, logs (textlines.js).
    var lr = L ? L.read(t) : null;
    if (lr) return lr;
    if (looksDiff(ls)) return { kind: "code", text: s, lang: "diff" };
    var d = delimited(ls, "\t") || delimited(ls, ",");
    if (d && d.length) return { kind: "data", data: d, from: "table", text: t };
    var sec = sections(lines(s));
    if (sec) return { kind: "sections", sections: sec.map(function (x) { return { title: x.title, view: classify(x.text, x.title + " " + (hint || "")) }; }) };
    var paras = t.replace(/\r\n?/g, "\n").split(/\n[ \t]*\n/);
    if (paras.length > 1 && paras.length <= 12) {
      var kinds = paras.map(function (p) { return structured(lines(p)) || (lines(p.trim()).length === 1 && !looksMarkdown(p) ? { kind: "prose", text: p.trim() } : null); });
      if (kinds.every(Boolean) && kinds.some((k) => k.kind === "data")) return { kind: "parts", parts: kinds };
    }
    var st = structured(ls);
    if (st) return st;
    if (looksMarkdown(t)) return (D && D.readMarkdown(t, classify, hint)) || { kind: "markdown", text: t };
    var out = looksCode(ls, hint) ? { kind: "code", text: s, lang: "" } : { kind: "prose", text: s };
    // Most lines read as data but not all: text, with the data one click away.
    var alt = L ? L.weak(ls) : null;
    if (alt) out.alt = alt;
    return out;
  }

  function structured(ls) {
    var m = markers(ls);
    if (m) return { kind: "data", data: m, from: "listing" };
    var kv = keyValues(ls);
    if (kv) return { kind: "data", data: kv, from: "kv" };
    var b = bulletList(ls);
    if (b) return { kind: "data", data: b, from: "list" };
    return null;
  }

  /* ---------- drawing ---------- */

  /* copy puts text on the clipboard (a hidden text area when the Clipboard API is refused) and calls done(ok). */
  function copy(text, done) {
    var fallback = function () {
      var ta = el("textarea", "copy-buffer");
      ta.value = text;
      DOC.body.appendChild(ta);
      ta.select();
      var ok;
      try { ok = DOC.execCommand("copy"); } catch (e) { ok = false; }
      ta.remove();
      done(ok);
    };
    global.GenuiText.lastCopy = text;
    if (global.navigator && navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
    } else fallback();
  }

  function copyText(text, btn) {
    copy(text, function (ok) {
      btn.textContent = ok ? "Copied" : "Select and copy";
      btn.dataset.copied = ok ? "1" : "0";
      setTimeout(function () { btn.textContent = "Copy"; }, 1600);
    });
  }

  /*
   * box wraps body (a block element showing text) in a bounded, scrolling
   * frame with a bar: a label, the size, extra controls, and a Copy button
   * that copies all of text (also what was not drawn).
   */
  function box(body, text, label, extra) {
    var wrap = el("div", "tbox");
    var bar = el("div", "tbox-bar");
    var n = lines(text.replace(/\r?\n$/, "")).length;
    var lab = el("span", "tbox-label", (label ? label + " \u00b7 " : "") + n + (n === 1 ? " line" : " lines") + (text.length > 2048 ? " \u00b7 " + Math.round(text.length / 1024) + " KB" : ""));
    lab.title = lab.textContent;
    bar.appendChild(lab);
    (extra || []).forEach(function (x) { bar.appendChild(x); });
    var b = el("button", "secondary copy", "Copy");
    b.type = "button";
    b.addEventListener("click", function () { copyText(text, b); });
    bar.appendChild(b);
    wrap.appendChild(bar);
    var scroll = el("div", "tbox-body");
    scroll.appendChild(body);
    wrap.appendChild(scroll);
    if (text.length > SHOW_LIMIT) wrap.appendChild(el("div", "note", "Showing the first " + Math.round(SHOW_LIMIT / 1024) + " KB of " + Math.round(text.length / 1024) + " KB; Copy takes all of it."));
    return wrap;
  }

  /* A <pre> of text; a diff gets one span per line, coloured by its kind. */
  function codeBlock(text, lang) {
    var pre = el("pre", "code" + (lang ? " lang-" + lang : ""));
    var shown = text.length > SHOW_LIMIT ? text.slice(0, SHOW_LIMIT) : text;
    if (lang === "diff") colourDiff(pre, shown);
    else if (!lang && LOG_LEVEL_RE.test(shown)) colourLog(pre, shown);
    else pre.textContent = shown;
    return pre;
  }

  /* Log lines with a level: errors and warnings stand out. */
  function colourLog(pre, text) {
    var ls = lines(text);
    if (ls.length > 20000) { pre.textContent = text; return; }
    ls.forEach(function (l, i) {
      var m = l.match(LOG_LEVEL_RE);
      var lvl = m ? m[1].toUpperCase() : "";
      var cls = /^(?:ERROR|FATAL|CRITICAL|PANIC)$/.test(lvl) ? "l-error" : /^WARN/.test(lvl) ? "l-warn" : "";
      var span = el("span", cls, l + (i < ls.length - 1 ? "\n" : ""));
      pre.appendChild(span);
    });
  }

  function colourDiff(pre, text) {
    pre.classList.add("diff");
    lines(text).slice(0, 20000).forEach(function (l) {
      var cls = /^@@/.test(l) ? "d-hunk" : DIFF_HEAD_RE.test(l) ? "d-head" : l.charAt(0) === "+" ? "d-add" : l.charAt(0) === "-" ? "d-del" : "d-ctx";
      pre.appendChild(el("span", cls, l));
    });
  }

  function safeHref(u) { return /^(?:https?:|mailto:)/i.test(String(u).trim()) ? String(u).trim() : null; }

  /*
   * finishLink gives a markdown link its target once the parser closed it:
   * a web or mail address as is; a relative one resolved against base (a web
   * address the text names); anything else (a file path, a script URL) is
   * shown as its text and its target, which a click copies. Brackets with no
   * target (`[selected]`, `[LOG]`) were never a link: they stay text.
   */
  /*
   * localFileTarget: a relative link target that names a file a tool wrote
   * or read (a snapshot `../out/page.yml`, `docs/guide.md`, `data/orders.csv`)
   * rather than a page of the site the text names: a file extension that is
   * not a web page's. Such a target is never resolved against the text's
   * web address; it shows as the path it is.
   */
  var WEB_PAGE_EXT_RE = /\.(?:html?|xhtml|php|aspx?|jsp|cgi)$/i;
  function localFileTarget(target) {
    var path = target.replace(/[?#].*$/, "");
    var ext = path.match(/\.[A-Za-z0-9]{1,8}$/);
    return !!ext && !WEB_PAGE_EXT_RE.test(path);
  }

  function finishLink(a, base) {
    var target = a.dataset.target;
    delete a.dataset.target;
    var u = target === undefined ? null : safeHref(target);
    if (!u && target && base && !/^[a-z][\w+.-]*:/i.test(target.trim()) && !localFileTarget(target.trim())) {
      try { var abs = new URL(target.trim(), base).href; u = safeHref(abs); } catch (e) { u = null; }
    }
    if (u) {
      a.href = u;
      a.rel = "noopener noreferrer";
      a.target = "_blank";
      a.title = u;
      return;
    }
    var span = el("span", target === undefined ? "md-brackets" : "md-link-text");
    if (target === undefined) span.appendChild(DOC.createTextNode("["));
    while (a.firstChild) span.appendChild(a.firstChild);
    if (target === undefined) span.appendChild(DOC.createTextNode("]"));
    else if (target.trim() && span.textContent.trim() !== target.trim()) {
      var b = el("button", "md-link-target", target.trim());
      b.type = "button";
      b.title = "Copy " + target.trim();
      b.addEventListener("click", function (ev) {
        ev.stopPropagation();
        copy(target.trim(), function (ok) { b.dataset.copied = ok ? "1" : "0"; b.title = ok ? "Copied" : "Select and copy"; });
      });
      span.appendChild(DOC.createTextNode(" "));
      span.appendChild(b);
    }
    a.replaceWith(span);
  }

  /*
   * wikiLinks draws the `[[target|label]]` wikilinks textdata.js's
   * prepMarkdown marked (\uE000 target \uE001 label \uE002) as marked text:
   * the label (else the target) in a span.wikilink, the target in its title.
   * They are no links: nothing here can open a note. In code they are the
   * text they were.
   */
  function wikiLinks(root) {
    root.normalize();
    var walk = DOC.createTreeWalker(root, 4), found = [], n;
    while ((n = walk.nextNode())) if (n.nodeValue.indexOf("\uE000") >= 0) found.push(n);
    var MARK_RE = /\uE000([^\uE000-\uE002]*)\uE001([^\uE000-\uE002]*)\uE002/g;
    found.forEach(function (t) {
      var s = t.nodeValue;
      if (t.parentElement && t.parentElement.closest("code, pre")) {
        t.nodeValue = s.replace(MARK_RE, (_, target, label) => "[[" + target + (label ? "|" + label : "") + "]]");
        return;
      }
      var frag = DOC.createDocumentFragment(), at = 0, m;
      MARK_RE.lastIndex = 0;
      while ((m = MARK_RE.exec(s))) {
        if (m.index > at) frag.appendChild(DOC.createTextNode(s.slice(at, m.index)));
        var w = el("span", "wikilink", m[2] || m[1]);
        w.title = "Note: " + m[1];
        frag.appendChild(w);
        at = m.index + m[0].length;
      }
      if (at < s.length) frag.appendChild(DOC.createTextNode(s.slice(at)));
      t.parentNode.replaceChild(frag, t);
    });
  }

  /*
   * Renders markdown into DOM nodes with the vendored streaming-markdown
   * parser and our own renderer: elements are created one by one, text is
   * only ever text nodes, links keep web and mail addresses only, and images
   * only data: URLs (the CSP blocks the rest anyway; their alt text shows).
   */
  function markdown(text, app) {
    var M = global.GenuiMarkdown, root = el("div", "md"), D = global.GenuiTextData;
    if (!M) { root.appendChild(el("div", "text", text)); return root; }
    if (D) text = D.prepMarkdown(text);
    // Relative links resolve against the web address the text names, if any.
    var baseM = text.match(/https?:\/\/[^\s)<>"'`\]]+/), base = baseM ? baseM[0] : null;
    var stack = [root];
    var top = () => stack[stack.length - 1];
    var TAGS = {};
    TAGS[M.PARAGRAPH] = "p"; TAGS[M.HEADING_1] = "h3"; TAGS[M.HEADING_2] = "h4"; TAGS[M.HEADING_3] = "h5";
    TAGS[M.HEADING_4] = "h6"; TAGS[M.HEADING_5] = "h6"; TAGS[M.HEADING_6] = "h6"; TAGS[M.ITALIC_AST] = TAGS[M.ITALIC_UND] = "em";
    TAGS[M.STRONG_AST] = TAGS[M.STRONG_UND] = "strong"; TAGS[M.STRIKE] = "s"; TAGS[M.CODE_INLINE] = "code"; TAGS[M.LINK] = TAGS[M.RAW_URL] = "a";
    TAGS[M.BLOCKQUOTE] = "blockquote"; TAGS[M.LINE_BREAK] = "br"; TAGS[M.RULE] = "hr"; TAGS[M.LIST_UNORDERED] = "ul";
    TAGS[M.LIST_ORDERED] = "ol"; TAGS[M.LIST_ITEM] = "li"; TAGS[M.TABLE] = "table"; TAGS[M.TABLE_ROW] = "tr";
    TAGS[M.EQUATION_BLOCK] = "div"; TAGS[M.EQUATION_INLINE] = "code"; TAGS[M.IMAGE] = "span";
    var r = {
      data: null,
      add_token: function (_, type) {
        var parent = top(), node;
        if (type === M.CODE_BLOCK || type === M.CODE_FENCE) {
          parent = parent.appendChild(el("pre", "code"));
          node = el("code");
        } else if (type === M.CHECKBOX) {
          node = el("input");
          node.type = "checkbox";
          node.disabled = true;
        } else if (type === M.TABLE_ROW) {
          if (!parent.firstElementChild) parent = parent.appendChild(el("thead"));
          else if (parent.children.length === 1) parent = parent.appendChild(el("tbody"));
          else parent = parent.children[1];
          node = el("tr");
        } else if (type === M.TABLE_CELL) {
          node = el(parent.parentElement && parent.parentElement.tagName === "THEAD" ? "th" : "td");
        } else node = el(TAGS[type] || "span", type === M.IMAGE ? "md-img" : "");
        if (type === M.TABLE) { var w = parent.appendChild(el("div", "md-table")); parent = w; }
        stack.push(parent.appendChild(node));
      },
      end_token: function () {
        var n = stack.pop();
        if (n.tagName === "A") { finishLink(n, base); return; }
        if (n.tagName === "CODE" && n.parentElement && n.parentElement.tagName === "PRE" && (n.dataset.lang === "diff" || n.dataset.lang === "patch")) {
          var t = n.textContent;
          n.textContent = "";
          colourDiff(n, t);
        }
      },
      add_text: function (_, s) { top().appendChild(DOC.createTextNode(s)); },
      set_attr: function (_, type, value) {
        var n = top();
        if (type === M.HREF) n.dataset.target = String(value);
        else if (type === M.SRC) {
          if (/^data:image\/(?:png|jpeg|gif|webp);base64,/i.test(value)) { var img = el("img"); img.src = value; img.alt = ""; n.appendChild(img); }
          else n.title = "image not loaded: " + value;
        } else if (type === M.LANG) n.dataset.lang = String(value).toLowerCase();
        else if (type === M.START) n.start = parseInt(value, 10) || 1;
        else if (type === M.CHECKED) n.checked = true;
      }
    };
    var p = M.parser(r);
    // A heading inside a list item ("- ### **Step**"), which the parser reads as text, is drawn bold.
    var src = (text.length > SHOW_LIMIT ? text.slice(0, SHOW_LIMIT) : text).replace(/^([ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+)#{1,6}[ \t]+(.+?)[ \t]*$/gm, function (_, lead, h) {
      return lead + "**" + h.replace(/^\*\*(.*)\*\*$/, "$1") + "**";
    });
    M.parser_write(p, src);
    M.parser_end(p);
    // A link the text never closed (an excerpt cut inside "[[Projects/Billin..."): its bracket and text, as written.
    root.querySelectorAll("a:not([href])").forEach(function (a) {
      if (a.dataset.target !== undefined) { finishLink(a, base); return; }
      var span = el("span", "md-brackets");
      span.appendChild(DOC.createTextNode("["));
      while (a.firstChild) span.appendChild(a.firstChild);
      a.replaceWith(span);
    });
    wikiLinks(root);
    primaryColumns(root);
    // Links open through the host (the frame itself must not navigate).
    root.addEventListener("click", function (ev) {
      var a = ev.target && ev.target.closest ? ev.target.closest("a") : null;
      if (!a) return;
      ev.preventDefault();
      if (a.href && app && app.openLink) app.openLink({ url: a.href }).catch(function () {});
    });
    return root;
  }

  /*
   * primaryColumns gives each markdown table's primary text column (the one
   * holding the most text, ten or more characters a row) room to be read:
   * at least 12em wide, the table scrolling in its box at a narrow width,
   * rather than squeezed to a word a line between narrow columns.
   */
  function primaryColumns(root) {
    [].forEach.call(root.querySelectorAll(".md-table > table"), function (t) {
      var rows = [].filter.call(t.querySelectorAll("tr"), (r) => r.querySelector("td")).slice(0, 50), sums = [];
      if (!rows.length) return;
      rows.forEach(function (r) { [].forEach.call(r.children, function (c, ci) { sums[ci] = (sums[ci] || 0) + c.textContent.trim().length; }); });
      var pc = -1, max = 0;
      sums.forEach(function (v, ci) { if (v > max) { max = v; pc = ci; } });
      if (pc < 0 || max / rows.length < 10 || sums.filter((v) => v > 0).length < 2) return;
      [].forEach.call(t.querySelectorAll("tr"), function (r) { var c = r.children[pc]; if (c) c.classList.add("md-primary"); });
    });
  }

  /*
   * withAlt shows a text view (a box) with a "View as table" (or card)
   * button when the text has a weaker data reading; the data view replaces
   * the box until "View as text" brings it back.
   */
  function withAlt(view, o, make) {
    if (!view.alt || !o.drawView) return make([]);
    var wrap = el("div", "alt-view"), data = null;
    var asData = el("button", "secondary alt-toggle", "View as " + view.alt.label);
    asData.type = "button";
    var asText = el("button", "secondary alt-toggle", "View as text");
    asText.type = "button";
    var textBox = make([asData]);
    var dataBox = el("div", "alt-data");
    dataBox.hidden = true;
    var bar = el("div", "alt-bar note", "Most lines read as a " + view.alt.label + "; some do not. ");
    bar.appendChild(asText);
    dataBox.appendChild(bar);
    asData.addEventListener("click", function () {
      if (!data) data = dataBox.appendChild(o.drawView({ kind: "data", data: view.alt.data, from: view.alt.from }));
      textBox.hidden = true;
      dataBox.hidden = false;
    });
    asText.addEventListener("click", function () { dataBox.hidden = true; textBox.hidden = false; });
    wrap.appendChild(textBox);
    wrap.appendChild(dataBox);
    return wrap;
  }

  /*
   * tallDocument says whether a markdown document is long enough to scroll in
   * its box: over 900 characters or 24 lines, or over 30 lines once wrapped at
   * a phone's width (WRAP_CHARS a line, 400 px), where a few long lines (a
   * summary's bullets, a sentence each) run as tall as many short ones.
   */
  var WRAP_CHARS = 48;
  function tallDocument(text) {
    var ls = lines(text);
    if (text.length > 900 || ls.length > 24) return true;
    return ls.reduce((n, l) => n + Math.max(1, Math.ceil(l.length / WRAP_CHARS)), 0) > 30;
  }

  /* Draws a classified text view that is not data. */
  function draw(view, o) {
    o = o || {};
    var lined = global.GenuiLines ? global.GenuiLines.draw(view, o) : null;
    if (lined) return lined;
    switch (view.kind) {
      case "empty": return el("div", "note empty-result", "Done, no output.");
      case "code": return withAlt(view, o, (extra) => box(codeBlock(view.text, view.lang), view.text, view.lang === "diff" ? "diff" : view.lang, extra));
      case "markdown": {
        var md = markdown(view.text, o.app);
        return tallDocument(view.text) ? box(md, view.text, "markdown") : md;
      }
      case "heading": return el("h3", "tsec-title md-heading", view.text);
      case "sections": {
        var wrap = el("div", "sections" + (view.headed ? " headed" : ""));
        view.sections.forEach(function (s) {
          var sec = el("section", "tsec");
          // Markdown headings read as headings; file sections by their path.
          if (s.title) sec.appendChild(el("h3", view.headed ? "tsec-title md-heading" : "tsec-title", s.title));
          sec.appendChild(o.drawView ? o.drawView(s.view) : draw(s.view, o));
          wrap.appendChild(sec);
        });
        // A long markdown document read in sections scrolls in its box, with all of it to copy.
        if (view.headed && view.text && tallDocument(view.text)) return box(wrap, view.text, "markdown");
        return wrap;
      }
      default: {
        var t = view.text || "";
        return withAlt(view, o, function (extra) {
          var d = el("div", "text", t.length > SHOW_LIMIT ? t.slice(0, SHOW_LIMIT) : t);
          return t.length > 600 || lines(t).length > 12 || extra.length ? box(d, t, "", extra) : d;
        });
      }
    }
  }

  global.GenuiText = { classify: classify, draw: draw, box: box, copy: copy, codeBlock: codeBlock, markdown: markdown, parseJSON: parseJSON, lastCopy: null };
})(window);
