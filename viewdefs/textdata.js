/*
 * genui offline readers of tabular and structured text. Plain browser
 * script, no network: defines window.GenuiTextData, which text.js asks
 * before its generic readers. Each reader must explain the whole text (a
 * short lead-in line aside) or it reads nothing:
 *   - HTML that holds a table (`<table>...`) -> its tables as records, its
 *     headings, lists and paragraphs as text parts. The HTML is parsed by an
 *     inert DOMParser document and only its text is read: nothing of it is
 *     ever inserted into the page;
 *   - record lines (`PID: 4121, Command: node, CPU: 0.3%`) -> records;
 *   - search output (`path:line: match`, `path:line:col: match`, context
 *     lines `path-line-text`) -> {file, line, text} records, the folder all
 *     paths share said once above them;
 *   - console lines of several levels (`[LOG] ready`, `msgid=3 [warn] ...`)
 *     -> a log view (textlines.js draws it);
 *   - markdown split at its headings when a section holds data (JSON,
 *     console lines, a table reading), each section drawn as what it holds.
 * Also: ANSI escape codes removed (stripANSI), markdown prepared for the
 * parser (prepMarkdown: CommonMark's rule that `_` inside a word is not
 * emphasis, raw HTML tags as code, unfenced JSON blocks fenced, setext
 * headings as the ATX headings the parser reads), and a
 * "View as text" switch for data read from text (textSwitch).
 * This file is inlined into a script element: it must never contain a
 * closing script tag or an HTML comment opener.
 */
(function (global) {
  "use strict";

  var DOC = global.document;
  var MAX_LINES = 20000;
  var ANSI_RE = /\u001b(?:\[[0-9;?]*[ -\/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-_])/g;
  var NUM_RE = /^-?(?:\d+|\d*\.\d+)(?:[eE][+-]?\d+)?$/;

  function lines(s) { return String(s).replace(/\r\n?/g, "\n").split("\n"); }
  function nonEmpty(ls) { return ls.filter((l) => l.trim() !== ""); }
  /* A cell's value: a number when its text is the number's own form; a number written otherwise
     (39.80, 1e3) stays as written (sorted and charted as a number all the same). */
  function typed(s) {
    var t = String(s).trim();
    if (NUM_RE.test(t) && t.length < 16 && !/^0\d/.test(t)) return String(Number(t)) === t ? Number(t) : t;
    if (t === "true" || t === "false") return t === "true";
    return t;
  }

  function stripANSI(s) { return String(s).replace(ANSI_RE, ""); }

  /* ---------- HTML tables ---------- */

  var HTML_TABLE_RE = /<table\b[^>]*>[\s\S]*?<t[dh]\b[\s\S]*?<\/table>/i;

  /* The rows of table t as records keyed by its header (the thead, or a first row of th cells). */
  function tableRecords(t) {
    var rows = [].slice.call(t.rows);
    if (!rows.length) return null;
    var cells = function (r) { return [].slice.call(r.cells).map((c) => c.textContent.replace(/\s+/g, " ").trim()); };
    var headRow = t.tHead && t.tHead.rows.length ? t.tHead.rows[0] : ([].every.call(rows[0].cells, (c) => c.tagName === "TH") ? rows[0] : null);
    var body = rows.filter((r) => r !== headRow && !(t.tHead && t.tHead.contains(r)));
    var width = Math.max.apply(null, rows.map((r) => r.cells.length));
    var head = headRow ? cells(headRow) : [];
    var seen = {};
    var keys = [];
    for (var i = 0; i < width; i++) {
      var k = head[i] || (i === 0 && body.every((r) => r.cells[0] && r.cells[0].tagName === "TH") ? "#" : "column " + (i + 1));
      while (seen[k]) k += "\u2032";
      seen[k] = true;
      keys.push(k);
    }
    if (!body.length) return null;
    return body.map(function (r) {
      var o = {}, cs = cells(r);
      keys.forEach(function (k, j) { o[k] = j < cs.length ? typed(cs[j]) : null; });
      return o;
    });
  }

  /* Text of an element with block breaks kept (lists one item per line). */
  function blockText(e) {
    if (e.tagName === "UL" || e.tagName === "OL") return [].map.call(e.children, (li) => li.textContent.replace(/\s+/g, " ").trim()).filter(Boolean).join("\n");
    return e.textContent.replace(/[ \t]+/g, " ").trim();
  }

  /*
   * htmlTables reads HTML that holds tables into parts: headings, text and
   * the tables as data. A whole web page (doctype, head, scripts) is not
   * data: its tables are only offered beside its source (alt).
   */
  function htmlTables(t) {
    if (!HTML_TABLE_RE.test(t) || typeof DOMParser === "undefined") return null;
    // Only text is read: event handler attributes and scripts are dropped before
    // parsing, so the inert document never even compiles them (a CSP would report it).
    var doc = new DOMParser().parseFromString(t.replace(/<script\b[\s\S]*?<\/script\s*>/gi, "").replace(/\son[a-z]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi, ""), "text/html");
    var tables = doc.querySelectorAll("table");
    var recs = [].map.call(tables, tableRecords).filter(Boolean);
    if (!recs.length) return null;
    if (/^\s*(?:<!doctype|<html\b)/i.test(t) || doc.querySelector("head > title, script, style, link[rel]")) {
      return { page: true, alt: { data: recs.length === 1 ? recs[0] : recs, from: "html", label: "table" } };
    }
    var parts = [], text = [];
    var flush = function () {
      var s = text.join("\n").trim();
      text = [];
      if (s) parts.push(global.GenuiText.classify(s, ""));
    };
    var walk = function (node) {
      [].forEach.call(node.childNodes, function (n) {
        if (n.nodeType === 3) { if (n.nodeValue.trim()) text.push(n.nodeValue.trim()); return; }
        if (n.nodeType !== 1) return;
        if (n.tagName === "TABLE") {
          flush();
          var r = tableRecords(n);
          // Its switch to text shows the HTML as it came (the whole text).
          if (r) parts.push({ kind: "data", data: r, from: "html", text: t });
        } else if (/^H[1-6]$/.test(n.tagName)) { flush(); parts.push({ kind: "heading", text: n.textContent.trim() }); }
        else if (n.querySelector("table")) walk(n);
        else { var s = blockText(n); if (s) text.push(s); if (/^(?:P|DIV|UL|OL|PRE|SECTION)$/.test(n.tagName)) flush(); }
      });
    };
    walk(doc.body);
    flush();
    return parts.length === 1 ? parts[0] : { kind: "parts", parts: parts };
  }

  /* ---------- record lines ---------- */

  var REC_KEY_RE = /(?:^|,\s+)([A-Za-z][\w.\/%()-]*(?: [\w.\/%()-]+){0,2}):\s/g;

  /* The keys of a record line and where each value starts, or null. */
  function recordKeys(l) {
    var out = [], m;
    REC_KEY_RE.lastIndex = 0;
    while ((m = REC_KEY_RE.exec(l))) out.push({ key: m[1], at: m.index, from: m.index + m[0].length });
    return out.length >= 3 && out[0].at === 0 ? out : null;
  }

  /* `PID: 4121, Command: node, CPU: 0.3%` lines (the same keys each line) -> records. */
  function recordLines(ls) {
    var ne = nonEmpty(ls);
    if (ne.length < 2 || ne.length > MAX_LINES) return null;
    var lead = [];
    if (!recordKeys(ne[0].trim()) && ne.length > 2 && ne[0].length < 200) lead.push(ne.shift());
    var sig = null, recs = [];
    for (var i = 0; i < ne.length; i++) {
      var l = ne[i].trim(), ks = recordKeys(l);
      if (!ks) return null;
      var s = ks.map((k) => k.key).join("\u0000");
      if (sig === null) sig = s;
      else if (s !== sig) return null;
      var o = {};
      ks.forEach(function (k, j) { o[k.key] = typed(l.slice(k.from, j + 1 < ks.length ? ks[j + 1].at : l.length)); });
      recs.push(o);
    }
    return { lead: lead.join("\n"), data: recs };
  }

  /* ---------- search output ---------- */

  var MATCH_RE = /^((?:[A-Za-z]:)?[^\s:][^:\n]*?):(\d+):(?:(\d+):)?\s?(.*)$/;
  var CONTEXT_RE = /^((?:[A-Za-z]:)?[^\s:][^:\n]*?)-(\d+)-(.*)$/;

  function pathLike(p) { return /[\/\\.]/.test(p) && !/\s{2,}/.test(p) && p.length < 400; }

  /* `path:line:[col:] text` lines (ripgrep, grep -n, vimgrep) -> {file, line, col?, text, context?} records. */
  function searchOutput(ls) {
    var ne = ls.filter((l) => l.trim() !== "" && l.trim() !== "--");
    if (ne.length < 2 || ne.length > MAX_LINES) return null;
    var recs = [], matches = 0, cols = false;
    for (var i = 0; i < ne.length; i++) {
      var l = ne[i], m = l.match(MATCH_RE), ctx = false;
      if (!m || !pathLike(m[1])) {
        var c = l.match(CONTEXT_RE);
        if (!c || !pathLike(c[1]) || !recs.some((r) => r.file === c[1])) {
          // Context lines come beside matches of the same file; anything else is not search output.
          if (c && pathLike(c[1])) { recs.push({ file: c[1], line: Number(c[2]), text: c[3], context: true }); continue; }
          return null;
        }
        m = [l, c[1], c[2], "", c[3]];
        ctx = true;
      } else matches++;
      var r = { file: m[1], line: Number(m[2]), text: m[4] };
      if (m[3]) { r.col = Number(m[3]); cols = true; }
      if (ctx) r.context = true;
      recs.push(r);
    }
    if (matches < 2 || recs.some((r) => r.context && !recs.some((x) => !x.context && x.file === r.file))) return null;
    // The folder every path shares is said once.
    var dirs = recs.map((r) => r.file.split("/").slice(0, -1));
    var common = dirs[0].slice();
    dirs.forEach(function (d) { var k = 0; while (k < common.length && d[k] === common[k]) k++; common.length = k; });
    var prefix = common.length > 1 ? common.join("/") + "/" : "";
    var hasCtx = recs.some((r) => r.context);
    var out = recs.map(function (r) {
      var o = { file: prefix ? r.file.slice(prefix.length) : r.file, line: r.line };
      if (cols) o.col = r.col === undefined ? null : r.col;
      o.text = r.text;
      if (hasCtx) o.match = !r.context;
      return o;
    });
    return { lead: prefix ? "In " + prefix : "", data: out };
  }

  /* ---------- console lines ---------- */

  var CONSOLE_RE = /^\s*(?:[-*]\s+)?(?:(msgid=\d+)\s+)?\[(log|info|warn|warning|error|debug|verbose|trace|assert|dir|table)\]\s+(.*)$/i;

  function consoleLevel(l) {
    var u = l.toLowerCase();
    return u === "error" || u === "assert" ? "error" : u.indexOf("warn") === 0 ? "warn" : u === "debug" || u === "verbose" || u === "trace" ? "debug" : "info";
  }

  /*
   * Console messages with their levels -> a log view ({kind: "log"}, drawn
   * by textlines.js); a message's id (`msgid=3`), which a later call may
   * name, is its first column, as written.
   */
  function consoleLines(ls, text) {
    var ne = nonEmpty(ls), entries = [], lead = [];
    if (ne.length < 2 || ne.length > MAX_LINES) return null;
    for (var i = 0; i < ne.length; i++) {
      var m = ne[i].match(CONSOLE_RE);
      if (!m) {
        if (!entries.length && lead.length < 2 && ne[i].length < 200) { lead.push(ne[i].trim()); continue; }
        if (entries.length && /^\s/.test(ne[i])) { entries[entries.length - 1].msg += "\n" + ne[i]; continue; }
        return null;
      }
      entries.push({ ts: m[1] || "", label: m[2].toUpperCase(), level: consoleLevel(m[2]), msg: m[3] });
    }
    if (entries.length < 2) return null;
    return { kind: "log", lead: lead.join(" "), entries: entries, text: text };
  }

  /* ---------- markdown ---------- */

  /*
   * prepMarkdown prepares text for the streaming markdown parser, outside
   * code fences and code spans: an underscore inside a word is escaped
   * (CommonMark: `x86_64` and `snake_case` are not emphasis), raw HTML tags
   * become code spans (shown as what they are, never as markup), a JSON
   * block that is not fenced is fenced (its indentation and brackets kept),
   * and a setext heading (`Title` over `=====`, `Sub` over `-----`), which
   * the parser does not read, becomes the ATX heading it is (`# Title`).
   */
  function prepMarkdown(text) {
    var ls = lines(text), out = [], fence = null, front = frontMatterEnd(ls);
    for (var i = 0; i < ls.length; i++) {
      var l = ls[i], f = l.match(/^\s{0,3}(`{3,}|~{3,})/);
      if (fence) {
        out.push(l);
        if (f && f[1].charAt(0) === fence.charAt(0) && f[1].length >= fence.length && !l.trim().slice(f[1].length).trim()) fence = null;
        continue;
      }
      if (f) { fence = f[1]; out.push(l); continue; }
      var level = i > front ? setextAt(ls, i) : 0;
      if (level) {
        out.push(inline((level === 1 ? "# " : "## ") + l.trim()));
        i++;
        continue;
      }
      // An unfenced JSON object or array starting on its own line: fence it while it parses.
      if (/^\s*[\[{]\s*$|^\s*[\[{]\s*["\[{]/.test(l)) {
        for (var j = i; j < ls.length && j < i + 5000; j++) {
          if (!/^\s*[\]}],?\s*$/.test(ls[j])) continue;
          var block = ls.slice(i, j + 1).join("\n");
          try { JSON.parse(block.replace(/,\s*$/, "")); } catch (e) { continue; }
          out.push("```json", block, "```");
          i = j;
          block = null;
          break;
        }
        if (block === null) continue;
      }
      out.push(inline(l));
    }
    return out.join("\n");
  }

  var HTML_TAG_RE = /<\/?[A-Za-z][\w-]*(?:\s[^<>`]*)?\/?>/g;

  /*
   * setextAt is the level (1 for `===`, 2 for `---`, three or more) of a
   * setext heading whose text is line i, else 0. The text is one line of
   * its own paragraph (the first line, or after a blank line or a block)
   * that nothing else claims: no list item, quote, ATX heading, fence,
   * table row (a `|`), HTML or thematic break; so `---` after a blank line
   * stays a rule, under a list item or in a table's delimiter row never
   * makes a heading, and a paragraph of several lines over `---` keeps its
   * rule (CommonMark would make all of it the heading).
   */
  var SETEXT_RE = /^ {0,3}(={3,}|-{3,})[ \t]*$/;
  function setextAt(ls, i) {
    var u = i + 1 < ls.length ? ls[i + 1].match(SETEXT_RE) : null, l = ls[i];
    if (!u || !/^ {0,3}\S/.test(l) || l.indexOf("|") >= 0) return 0;
    if (/^\s*(?:[-*+](?:\s|$)|\d{1,9}[.)](?:\s|$)|>|#{1,6}(?:\s|$)|`{3,}|~{3,}|<)/.test(l) || /^ {0,3}([-*_=])(?:[ \t]*\1){2,}[ \t]*$/.test(l)) return 0;
    // A paragraph starts at the top, after a blank line, or after a block that ends on its line
    // (a heading, a rule or underline, a fence's end, front matter).
    var p = i > 0 ? ls[i - 1] : "";
    if (p.trim() !== "" && !HEADING_RE.test(p) && !SETEXT_RE.test(p) && !/^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/.test(p) && !/^ {0,3}(?:`{3,}|~{3,})[ \t]*$/.test(p)) return 0;
    return u[1].charAt(0) === "=" ? 1 : 2;
  }

  /* The index of front matter's closing line (a first line `---`, up to `---` or `...`), else -1. */
  function frontMatterEnd(ls) {
    if (!ls.length || !/^---[ \t]*$/.test(ls[0])) return -1;
    for (var i = 1; i < ls.length && i < 200; i++) if (/^(?:---|\.\.\.)[ \t]*$/.test(ls[i])) return i;
    return -1;
  }

  /* Whether markdown text holds a setext heading outside fences and front matter. */
  function hasSetext(text) {
    var ls = lines(text), fence = null, front = frontMatterEnd(ls);
    for (var i = front + 1; i < ls.length - 1 && i < MAX_LINES; i++) {
      var f = ls[i].match(/^\s{0,3}(`{3,}|~{3,})/);
      if (fence) { if (f && f[1].charAt(0) === fence.charAt(0)) fence = null; continue; }
      if (f) { fence = f[1]; continue; }
      if (setextAt(ls, i)) return true;
    }
    return false;
  }

  /*
   * One line outside fences: code spans kept, intraword `_` escaped, HTML
   * tags as code spans, `[[wikilinks]]` (`[[target]]`, `[[target|label]]`)
   * as private-use markers the parser passes through as text (a `|` inside
   * one would split a table row), which text.js's markdown() draws as
   * marked text (wikiLinks).
   */
  function inline(l) {
    var parts = l.split(/(`+[^`]*`+|\]\([^)\s]*\)|<?https?:\/\/[^\s)>]+>?)/);
    return parts.map(function (p, i) {
      if (i % 2) return p;
      p = p.replace(/([A-Za-z0-9])_(?=[A-Za-z0-9])/g, "$1\\_");
      p = p.replace(WIKILINK_RE, function (_, target, label) { return "\uE000" + target.trim() + "\uE001" + (label || "").trim() + "\uE002"; });
      return p.replace(HTML_TAG_RE, function (tag) { return "`" + tag + "`"; });
    }).join("");
  }

  var WIKILINK_RE = /\[\[([^\[\]|\n]+)(?:\|([^\[\]\n]+))?\]\]/g;

  var HEADING_RE = /^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$/;

  /*
   * headedSections splits markdown at its headings when at least one
   * section holds data (JSON, a table reading, console lines, records):
   * [{title, text}], or null (then the text stays one markdown document).
   */
  function headedSections(text) {
    var ls = lines(text), secs = [], cur = { title: "", lines: [] }, fence = null;
    ls.forEach(function (l) {
      var f = l.match(/^\s{0,3}(`{3,}|~{3,})/);
      if (fence) { if (f && f[1].charAt(0) === fence.charAt(0)) fence = null; cur.lines.push(l); return; }
      if (f) { fence = f[1]; cur.lines.push(l); return; }
      var h = l.match(HEADING_RE);
      if (h) { secs.push(cur); cur = { title: h[2], lines: [] }; return; }
      cur.lines.push(l);
    });
    secs.push(cur);
    secs = secs.filter((s) => s.title || s.lines.join("").trim());
    if (!secs.some((s) => s.title) || secs.length > 40) return null;
    return secs.map((s) => ({ title: s.title, text: s.lines.join("\n").replace(/^\n+|\n+$/g, "") }));
  }

  /* ---------- the reader ---------- */

  /*
   * read returns a classified view (see text.js's classify) for text this
   * file reads, or null. classify is text.js's, for the parts.
   */
  function read(t, classify, hint) {
    var h = htmlTables(t);
    if (h) {
      if (h.page) return { kind: "code", text: t, lang: "html", alt: h.alt };
      return h;
    }
    var ls = lines(t);
    if (ls.length > MAX_LINES) return null;
    // Markdown with headings is split at them first (readMarkdown); its sections come back here.
    if (ls.some((l) => HEADING_RE.test(l))) return null;
    var wrap = function (r, from) {
      var v = { kind: "data", data: r.data, from: from, text: t };
      return r.lead ? { kind: "parts", parts: [{ kind: "prose", text: r.lead }, v] } : v;
    };
    var rec = recordLines(ls);
    if (rec) return wrap(rec, "records");
    var so = searchOutput(ls);
    if (so) return wrap(so, "search");
    var cl = consoleLines(ls, t);
    if (cl) return cl;
    return null;
  }

  /* Markdown with headings whose sections hold data: a section view, else null. */
  /* Inline markdown a reader would see as markup if drawn as plain text: links, wikilinks, emphasis, code spans. */
  function holdsInlineMarkdown(t) {
    return /\[\[[^\]\n]+\]\]|\[[^\]\n]+\]\([^)\s]+\)|\*\*[^*\n]+\*\*|`[^`\n]+`/.test(t);
  }

  function readMarkdown(t, classify, hint) {
    var secs = headedSections(t);
    if (!secs) return null;
    var views = secs.map(function (s) {
      var v = s.text.trim() ? classify(s.text, (s.title || "") + " " + (hint || "")) : { kind: "empty" };
      // In markdown a bullet list or a plain paragraph is markdown (links, emphasis), not a list of values;
      // lines of prose with a colon are no key/value record when their values hold markdown.
      // Paragraphs of such (a bold line over a list) are markdown as a whole.
      var prosaic = function (x) { return (x.kind === "data" && x.from === "list") || x.kind === "prose" || x.kind === "markdown" || (x.kind === "data" && x.from === "kv" && holdsInlineMarkdown(s.text)); };
      if (prosaic(v) || (v.kind === "parts" && v.parts.every(prosaic))) v = { kind: "markdown", text: s.text };
      return { title: s.title, view: v };
    });
    var dataLike = views.some((v) => v.view.kind === "data" || v.view.kind === "log" || v.view.kind === "parts" || v.view.kind === "commits");
    if (!dataLike) return null;
    return { kind: "sections", headed: true, text: t, sections: views.filter((v) => v.title || v.view.kind !== "empty") };
  }

  /*
   * textSwitch puts a "View as text" switch above dataEl, a view of data read
   * from text, that shows the text as it came (monospace, bounded, Copy)
   * instead; "View as table" brings the data view back.
   */
  function textSwitch(dataEl, text, label) {
    var wrap = DOC.createElement("div");
    wrap.className = "text-switch";
    var bar = DOC.createElement("div");
    bar.className = "switch-bar";
    var b = DOC.createElement("button");
    b.type = "button";
    b.className = "secondary switch-text";
    b.textContent = "View as text";
    b.setAttribute("aria-pressed", "false");
    var textEl = null;
    b.addEventListener("click", function () {
      var toText = dataEl.hidden === false;
      if (toText && !textEl) {
        textEl = global.GenuiText.draw({ kind: "code", text: text, lang: "" });
        textEl.dataset.rawView = "1";
        wrap.appendChild(textEl);
      }
      dataEl.hidden = toText;
      if (textEl) textEl.hidden = !toText;
      b.textContent = toText ? "View as " + (label || "table") : "View as text";
      b.setAttribute("aria-pressed", String(toText));
    });
    bar.appendChild(b);
    wrap.appendChild(bar);
    dataEl.hidden = false;
    wrap.appendChild(dataEl);
    return wrap;
  }

  global.GenuiTextData = {
    read: read, readMarkdown: readMarkdown, stripANSI: stripANSI, prepMarkdown: prepMarkdown, hasSetext: hasSetext, textSwitch: textSwitch,
    // For tests.
    recordLines: recordLines, searchOutput: searchOutput, htmlTables: htmlTables, consoleLines: consoleLines
  };
})(window);
