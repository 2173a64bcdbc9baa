/*
 * genui offline readers of line-oriented text. Plain browser script, no
 * network: defines window.GenuiLines, which text.js asks before its generic
 * readers. Each reader must explain the whole text (at most a short lead-in
 * line) or it reads nothing:
 *   - version-control logs: one commit per line (`hash [refs] message`,
 *     `hash - author, date : message`, `hash author date message`, ...) or
 *     blocks (`commit <hash>` / `Author:` / `Date:` / indented message, and
 *     the `Commit: '<hash>'` / `Message: '...'` form) -> records;
 *   - commits with their patch (git show, git log -p) -> a commit view:
 *     header card, message as text, patch as a coloured diff;
 *   - numbered lines (`Line 12: text`, `12: text`, `12 | text`, `12<TAB>text`)
 *     -> monospace lines with a line-number gutter;
 *   - log lines with timestamps and/or levels (also logfmt) -> a log view,
 *     levels coloured and filterable, continuation lines kept with their entry.
 * weak(lines) finds a reading that explains most but not all of a text (a
 * table or a card), offered as "View as table" beside the text.
 * This file is inlined into a script element: it must never contain a
 * closing script tag or an HTML comment opener.
 */
(function (global) {
  "use strict";

  var DOC = global.document;
  var MAX_LINES = 20000;         // lines a reader looks at; longer texts stay text
  var MON = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec";
  var DAY = "Mon|Tue|Wed|Thu|Fri|Sat|Sun";
  var ISO = "\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2}(?:[.,]\\d+)?)?(?:\\s?(?:Z|UTC|[+-]\\d{2}:?\\d{2}))?)?";
  var REL = "\\b(?:\\d+|an?|one)\\s+(?:second|minute|hour|day|week|month|year)s?(?:,?\\s+(?:\\d+|an?)\\s+(?:second|minute|hour|day|week|month|year)s?)?\\s+ago|just now|yesterday";
  var RFC = "(?:(?:" + DAY + "),?\\s+)?(?:(?:" + MON + ")\\s+\\d{1,2}|\\d{1,2}\\s+(?:" + MON + "))\\s+(?:\\d{4}\\s+)?\\d{2}:\\d{2}(?::\\d{2})?(?:\\s+\\d{4})?(?:\\s+[+-]\\d{4})?";
  var VCS_DATE_RE = new RegExp("\\(?(?:" + ISO + "|" + RFC + "|" + REL + ")\\)?", "i");
  var HASH_LINE_RE = /^[*|\\\/ ]*?([0-9a-f]{7,40})\b(?![-.\/\w]|:\S)[\s:|,\-]*(.*)$/;
  var COMMIT_START_RE = /^(?:commit\s+([0-9a-f]{7,40})\b(.*)$|(?:commit|hash|sha|revision)\s*:\s*['"]?([0-9a-f]{7,40})['"]?\s*$)/i;
  var HEADER_RE = /^([A-Za-z][\w -]{0,20}?)\s*:\s*(.*)$/;
  var PATCH_START_RE = /^(?:diff --git |diff -|Index: |--- \S|\+\+\+ \S|@@ )/;
  var STAT_RE = /^\s\S.*\|\s+(?:\d+ [+\-]*|Bin )|^\s\d+ files? changed/;
  var NUMBERED_RE = /^\s*(line\s+|L)?(\d{1,7})(?:\s*[:|\]\u2192]\s?|\t)(.*)$/i;
  var LEVELS = "TRACE|DEBUG|DBG|INFO|INF|NOTICE|WARN|WARNING|WRN|ERROR|ERR|FATAL|FTL|CRITICAL|CRIT|PANIC|SEVERE|ALERT|EMERG|EMERGENCY|FINE|FINER|FINEST|VERBOSE|SUCCESS";
  var LEVEL_BARE_RE = new RegExp("^(" + LEVELS + ")(?::|\\s|$)");
  var LEVEL_BRACKET_RE = new RegExp("^[\\[(<](" + LEVELS + ")[\\])>]:?", "i");
  var TS_RE = new RegExp("^\\[?(" + ISO + "|\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d+)?|(?:" + MON + ")\\s+\\d{1,2}\\s+\\d{2}:\\d{2}:\\d{2}|\\d{1,2}\\/(?:" + MON + ")\\/\\d{4}:\\d{2}:\\d{2}:\\d{2}(?:\\s[+-]\\d{4})?)\\]?");
  var KV_RE = /^\s*([A-Za-z_][\w .\/()-]{0,39}?)\s*:\s+(\S.*)$/;

  function el(tag, cls, text) {
    var e = DOC.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function lines(s) { return String(s).replace(/\r\n?/g, "\n").split("\n"); }
  function nonEmpty(ls) { return ls.filter((l) => l.trim() !== ""); }
  function trimSep(s) { return s.replace(/^[\s:|,\-\u2013\u2014]+|[\s:|,\-\u2013\u2014]+$/g, ""); }

  /* ---------- version-control logs ---------- */

  /* One `hash ...` line -> {commit, refs, author, date, message}, or null. */
  function vcsLine(l) {
    var m = l.match(HASH_LINE_RE);
    if (!m || !/[a-f]/.test(m[1]) || !/\d/.test(m[1])) return null;
    var r = { commit: m[1] }, rest = m[2];
    var d = rest.match(/^\(([^)]*(?:HEAD|->|tag:|origin\/|main|master)[^)]*)\)\s*/);
    if (d) { r.refs = d[1]; rest = rest.slice(d[0].length); }
    var a = rest.match(/\s*[<\[]([^<>\[\]@]{2,60})[>\]]\s*$/);
    if (a) { r.author = a[1].trim(); rest = rest.slice(0, a.index); }
    var dm = rest.match(VCS_DATE_RE);
    if (dm && dm[0].replace(/[()]/g, "").trim()) {
      r.date = dm[0].replace(/^\(|\)$/g, "").trim();
      var pre = trimSep(rest.slice(0, dm.index)), post = trimSep(rest.slice(dm.index + dm[0].length));
      if (pre && post && !r.author) { r.author = pre; r.message = post; }
      else r.message = (pre + " " + post).trim();
    } else r.message = trimSep(rest);
    if (!/[A-Za-z]{2}/.test(r.message || "")) return null;
    return r;
  }

  /* Each non-empty line a commit: the records in the order the keys read best. */
  function onelineLog(ls, lenient) {
    var ne = nonEmpty(ls), recs = [];
    if (ne.length < 2) return null;
    ne.forEach(function (l) { var r = vcsLine(l); if (r) recs.push(r); });
    if (recs.length < (lenient ? Math.max(2, ne.length * 0.6) : ne.length)) return null;
    var seen = {};
    if (recs.some(function (r) { var dup = seen[r.commit]; seen[r.commit] = true; return dup; })) return null;
    return ordered(recs);
  }

  /* The dates isoDate rewrote, by their ISO form: each one's text as written (asWritten). */
  var written = new Map();

  /*
   * git's default date (Mon Jan 12 10:04:11 2026 +0000) as ISO 8601, so it
   * sorts and reads like other dates; others as they are. The text as
   * written is kept for asWritten.
   */
  function isoDate(d) {
    var m = String(d).match(new RegExp("^(?:(?:" + DAY + "),?\\s+)?(" + MON + ")\\s+(\\d{1,2})\\s+(\\d{2}:\\d{2}:\\d{2})\\s+(\\d{4})(?:\\s+([+-])(\\d{2})(\\d{2}))?$"));
    if (!m) return d;
    var p2 = (n) => ("0" + n).slice(-2);
    var iso = m[4] + "-" + p2(MON.split("|").indexOf(m[1]) + 1) + "-" + p2(m[2]) + "T" + m[3] + (m[5] ? m[5] + m[6] + ":" + m[7] : "");
    if (written.size < MAX_LINES) written.set(iso, String(d));
    return iso;
  }

  /*
   * asWritten is the text a reader read v from when it rewrote it (a date
   * isoDate made ISO: "Fri Jan 9 11:05:00 2026 +0000" for
   * 2026-01-09T11:05:00+00:00), else v: what a cell's title shows as the
   * value as it came.
   */
  function asWritten(v) { return typeof v === "string" && written.has(v) ? written.get(v) : v; }

  /* Records with commit, message, author, date (then refs, merge) keys in that order, only the keys some record has. */
  function ordered(recs) {
    recs.forEach(function (r) { if (r.date) r.date = isoDate(r.date); });
    var keys = ["commit", "message", "author", "date", "refs", "merge"].filter((k) => recs.some((r) => r[k] !== undefined && r[k] !== ""));
    return recs.map(function (r) { var o = {}; keys.forEach(function (k) { o[k] = r[k] === undefined ? null : r[k]; }); return o; });
  }

  /* A Python repr or quoted value: 'text\n' -> text. */
  function unquote(v) {
    var s = v.trim(), q = s.charAt(0);
    if ((q === "'" || q === "\"") && s.length >= 2 && s.charAt(s.length - 1) === q) {
      s = s.slice(1, -1).replace(/\\(n|t|r|'|"|\\)/g, function (_, c) { return { n: "\n", t: "\t", r: "", "'": "'", "\"": "\"", "\\": "\\" }[c]; });
    }
    var actor = s.match(/^<(?:git\.)?Actor\s+"(.*)">$/);
    return (actor ? actor[1] : s).replace(/\n+$/, "");
  }

  /*
   * Commit blocks (git log / git show, medium or fuller, and the
   * `Commit: 'hash'` / `Message: '...'` form) -> {lead, commits} where each
   * commit is {commit, author, date, message, patch, ...}, or null unless
   * every line after a short lead-in belongs to a commit.
   */
  function commitBlocks(ls) {
    var start = -1;
    for (var i = 0; i < ls.length && i < 4; i++) if (COMMIT_START_RE.test(ls[i])) { start = i; break; }
    if (start < 0) return null;
    var lead = ls.slice(0, start).join("\n").trim();
    if (lead.length > 200) return null;
    var commits = [], cur = null, phase = "";
    for (i = start; i < ls.length; i++) {
      var l = ls[i], m = l.match(COMMIT_START_RE);
      if (m && (!cur || phase !== "patch" || /^commit\s/.test(l))) {
        cur = { commit: m[1] || m[3], head: {}, msg: [], patch: [] };
        var refs = (m[2] || "").match(/\((.*)\)/);
        if (refs) cur.head.refs = refs[1];
        commits.push(cur);
        phase = "head";
        continue;
      }
      if (phase === "head") {
        var h = l.match(HEADER_RE);
        if (h && l.charAt(0) !== " ") {
          var key = h[1].toLowerCase();
          if (key === "message") { phase = "msg"; if (h[2].trim()) cur.msg.push(unquote(h[2])); }
          else cur.head[key] = unquote(h[2]);
          continue;
        }
        if (l.trim() === "") { phase = "msg"; continue; }
        if (PATCH_START_RE.test(l)) phase = "patch";
        else if (/^\s/.test(l)) phase = "msg";
        else return null;
      }
      if (phase === "msg") {
        if (PATCH_START_RE.test(l) || STAT_RE.test(l)) phase = "patch";
        else { cur.msg.push(l.replace(/^ {4}/, "")); continue; }
      }
      cur.patch.push(l);
    }
    if (!commits.length) return null;
    var out = commits.map(function (c) {
      var r = { commit: c.commit };
      // fuller's Commit:/CommitDate: name the committer, never the hash.
      Object.keys(c.head).forEach(function (k) { r[{ authordate: "date", commit: "committer", commitdate: "committed" }[k] || k] = c.head[k]; });
      r.message = c.msg.join("\n").replace(/^\n+|\s+$/g, "");
      r.patch = c.patch.join("\n").replace(/^\n+|\s+$/g, "");
      return r;
    });
    if (!out.every((r) => r.author || r.date || r.message)) return null;
    return { lead: lead, commits: out };
  }

  /* ---------- numbered lines ---------- */

  /* `Line 12: text` / `12: text` / `12 | text` / `12<TAB>text` on every line, numbers increasing. */
  function numbered(ls) {
    var out = [], lead = [], prev = -1, words = 0;
    for (var i = 0; i < ls.length; i++) {
      var l = ls[i];
      if (l.trim() === "") continue;
      var m = l.match(NUMBERED_RE);
      if (!m) {
        if (out.length || lead.length >= 1 || l.length > 200) return null;
        lead.push(l.trim());
        continue;
      }
      var n = Number(m[2]);
      if (n <= prev) return null;
      prev = n;
      if (m[1]) words++;
      out.push([n, m[3]]);
    }
    if (out.length < 3) return null;
    // Without a "Line" word the numbers must look like line numbers: mostly consecutive.
    var steps = 0;
    for (i = 1; i < out.length; i++) if (out[i][0] === out[i - 1][0] + 1) steps++;
    if (words < out.length && steps < (out.length - 1) * 0.7) return null;
    return { lead: lead.join("\n"), lines: out };
  }

  /* ---------- log lines ---------- */

  function normLevel(l) {
    var u = l.toUpperCase();
    if (/^(?:ERR|ERROR|FATAL|FTL|CRITICAL|CRIT|PANIC|SEVERE|ALERT|EMERG|EMERGENCY)$/.test(u)) return "error";
    if (/^(?:WARN|WARNING|WRN)$/.test(u)) return "warn";
    if (/^(?:INFO|INF|NOTICE|SUCCESS)$/.test(u)) return "info";
    return "debug";
  }

  /* logfmt pairs of a line: {key: value}. */
  function logfmt(l) {
    var o = {}, re = /(\w[\w.]*)=("(?:[^"\\]|\\.)*"|\S*)/g, m, n = 0;
    while ((m = re.exec(l))) { o[m[1].toLowerCase()] = m[2].charAt(0) === "\"" ? m[2].slice(1, -1).replace(/\\"/g, "\"") : m[2]; n++; }
    return n >= 2 ? o : null;
  }

  /* One log line -> {ts, level, label, msg}, or null when it has neither a timestamp nor a level. */
  function logLine(l) {
    if (/^\s/.test(l)) return null; // indented: a continuation (stack trace, wrapped message)
    if (/\b(?:level|lvl|severity)=\w/.test(l) && /\b(?:msg|message)=/.test(l)) {
      var o = logfmt(l);
      if (o) {
        var lv = o.level || o.lvl || o.severity, ts = o.time || o.ts || o.t || "", msg = o.msg || o.message || "";
        var rest = Object.keys(o).filter((k) => ["level", "lvl", "severity", "time", "ts", "t", "msg", "message"].indexOf(k) < 0).map((k) => k + "=" + o[k]);
        return { ts: ts, label: lv.toUpperCase(), level: normLevel(lv), msg: msg + (rest.length ? "  " + rest.join(" ") : "") };
      }
    }
    var r = { ts: "", label: "", level: "", msg: "" }, s = l, m;
    for (var step = 0; step < 2; step++) {
      if (!r.ts && (m = s.match(TS_RE))) {
        var after = s.slice(m[0].length);
        // A timestamp then a field separator is a record (CSV/TSV), unless a level follows.
        if (/^[,;]/.test(after) || (/^\t/.test(after) && !LEVEL_BARE_RE.test(after.trim()) && !LEVEL_BRACKET_RE.test(after.trim()))) return null;
        r.ts = m[1];
        s = after.replace(/^[\s|\-]+/, "");
        continue;
      }
      if (!r.label && ((m = s.match(LEVEL_BRACKET_RE)) || (m = s.match(LEVEL_BARE_RE)))) {
        r.label = m[1].toUpperCase();
        r.level = normLevel(m[1]);
        s = s.slice(m[0].length).replace(/^[\s|:\-]+/, "");
        continue;
      }
      break;
    }
    if (!r.ts && !r.label) return null;
    r.msg = s;
    return r;
  }

  /* Log entries (continuation lines joined to their entry), or null unless the text reads as a log. */
  function logEntries(ls) {
    var entries = [], lead = [], parsed = 0, ne = 0;
    for (var i = 0; i < ls.length; i++) {
      var l = ls[i];
      if (l.trim() === "") { if (entries.length) entries[entries.length - 1].msg += "\n"; continue; }
      ne++;
      var e = logLine(l);
      if (e) { entries.push(e); parsed++; continue; }
      if (!entries.length) {
        if (lead.length || l.length > 200) return null;
        lead.push(l.trim());
      } else entries[entries.length - 1].msg += "\n" + l;
    }
    if (entries.length < 2 || parsed < ne * 0.5) return null;
    var withTs = entries.filter((e) => e.ts).length, withLevel = entries.filter((e) => e.label).length;
    if (withTs < entries.length && withLevel < entries.length * 0.8) return null;
    // Timestamps alone are not a log when the messages are records (`2026-01-01,12,4` is CSV).
    if (!withLevel && entries.every((e) => /^[,;\t]/.test(e.msg))) return null;
    entries.forEach(function (e) { e.msg = e.msg.replace(/\n+$/, ""); });
    return { lead: lead.join("\n"), entries: entries };
  }

  /* ---------- the reader ---------- */

  /*
   * read returns a classified view for line-oriented text (see text.js's
   * classify), or null: {kind: "data", from: "gitlog", data: [records]},
   * {kind: "commits", lead, commits, text}, {kind: "numbered", lead, lines,
   * text}, {kind: "log", lead, entries, text}.
   */
  function read(text) {
    var t = String(text).replace(/\s+$/, ""), ls = lines(t);
    if (ls.length > MAX_LINES) return null;
    var c = commitBlocks(ls);
    if (c) {
      if (c.commits.some((x) => x.patch)) return { kind: "commits", lead: c.lead, commits: c.commits, text: t };
      var recs = ordered(c.commits.map(function (x) { var r = Object.assign({}, x); delete r.patch; return r; }));
      return c.lead ? { kind: "parts", parts: [{ kind: "prose", text: c.lead }, { kind: "data", data: recs, from: "gitlog" }] } : { kind: "data", data: recs, from: "gitlog" };
    }
    var one = onelineLog(ls);
    if (one) return { kind: "data", data: one, from: "gitlog" };
    var n = numbered(ls);
    if (n) return { kind: "numbered", lead: n.lead, lines: n.lines, text: t };
    var lg = logEntries(ls);
    if (lg) return { kind: "log", lead: lg.lead, entries: lg.entries, text: t };
    return null;
  }

  /*
   * weak returns a reading that explains most of the lines but not all of
   * them ({data, from, label}), for a "View as table" beside the text, or null.
   */
  function weak(ls) {
    var ne = nonEmpty(ls);
    if (ne.length < 3 || ne.length > MAX_LINES) return null;
    var one = onelineLog(ne, true);
    if (one) return { data: one, from: "gitlog", label: "table" };
    var o = {}, n = 0;
    ne.forEach(function (l) {
      var m = l.match(KV_RE);
      if (m && !Object.prototype.hasOwnProperty.call(o, m[1])) { o[m[1]] = m[2].trim(); n++; }
    });
    if (n >= 3 && n >= ne.length * 0.6 && n < ne.length) return { data: o, from: "kv", label: "card" };
    var sep = ne[0].indexOf("\t") >= 0 ? "\t" : ne[0].indexOf(",") >= 0 ? "," : "";
    if (sep) {
      var head = ne[0].split(sep).map((h) => h.trim()), rows = ne.slice(1).map((l) => l.split(sep));
      var fit = rows.filter((r) => r.length === head.length);
      if (head.length >= 2 && head.every((h) => /^[\w .#%()\/-]{1,40}$/.test(h)) && fit.length >= 2 && fit.length >= rows.length * 0.75 && fit.length < rows.length) {
        return { data: fit.map(function (r) { var x = {}; head.forEach(function (h, i) { x[h] = r[i].trim(); }); return x; }), from: "table", label: "table" };
      }
    }
    return null;
  }

  /* ---------- drawing ---------- */

  function T() { return global.GenuiText; }

  /* Monospace lines with their numbers in a gutter that copying leaves out. */
  function drawNumbered(v) {
    var pre = el("pre", "code numbered"), w = String(v.lines[v.lines.length - 1][0]).length;
    pre.style.setProperty("--ln-w", w + "ch");
    v.lines.forEach(function (x) {
      var row = el("span", "nl");
      var ln = el("span", "ln", x[0]);
      ln.setAttribute("aria-hidden", "true");
      row.appendChild(ln);
      row.appendChild(DOC.createTextNode(x[1] === "" ? " " : x[1]));
      pre.appendChild(row);
    });
    var box = T().box(pre, v.text, v.lead || "numbered lines");
    return box;
  }

  var LEVEL_ORDER = ["error", "warn", "info", "debug"];

  /* Short time when every entry has the same date (the date goes in the label); the full value stays in the title. */
  function timeShown(entries) {
    var dates = {}, n = 0;
    entries.forEach(function (e) { var m = e.ts.match(/^(\d{4}-\d{2}-\d{2})[T ]/); if (m) { dates[m[1]] = 1; n++; } });
    var keys = Object.keys(dates);
    return n === entries.length && keys.length === 1 ? keys[0] : "";
  }

  /* A log: one row per entry (time, level, message), levels coloured, a filter per level with its count. */
  function drawLog(v) {
    var grid = el("div", "logview"), sameDate = timeShown(v.entries), counts = {};
    grid.setAttribute("role", "table");
    grid.setAttribute("aria-label", "log");
    var hasTs = v.entries.some((e) => e.ts), hasLevel = v.entries.some((e) => e.label);
    grid.classList.toggle("no-ts", !hasTs);
    grid.classList.toggle("no-level", !hasLevel);
    v.entries.forEach(function (e) {
      var row = el("div", "log-row" + (e.level ? " lv-" + e.level : ""));
      row.setAttribute("role", "row");
      row.dataset.level = e.level || "none";
      counts[row.dataset.level] = (counts[row.dataset.level] || 0) + 1;
      if (hasTs) {
        var ts = el("span", "log-ts", sameDate ? e.ts.slice(11).replace(/(?:Z|UTC|[+-]\d{2}:?\d{2})$/, "").trim() : e.ts);
        ts.title = e.ts;
        row.appendChild(ts);
      }
      if (hasLevel) row.appendChild(el("span", "log-lvl", e.label));
      row.appendChild(el("span", "log-msg", e.msg));
      grid.appendChild(row);
    });
    var bar = [];
    var levels = LEVEL_ORDER.concat(["none"]).filter((l) => counts[l]);
    if (levels.length > 1) {
      var off = {};
      levels.forEach(function (l) {
        var b = el("button", "secondary lvl-filter lv-" + l, (l === "none" ? "other" : l) + " " + counts[l]);
        b.type = "button";
        b.dataset.level = l;
        b.setAttribute("aria-pressed", "true");
        b.title = "Show or hide " + (l === "none" ? "lines without a level" : l + " lines");
        b.addEventListener("click", function () {
          off[l] = !off[l];
          b.setAttribute("aria-pressed", String(!off[l]));
          for (var r = grid.firstElementChild; r; r = r.nextElementSibling) r.hidden = !!off[r.dataset.level];
        });
        bar.push(b);
      });
    }
    // Entries are counted when some span several lines (the box counts lines).
    var label = [v.lead, sameDate, v.entries.length !== lines(v.text).length ? v.entries.length + " entries" : ""].filter(Boolean).join(" \u00b7 ");
    return T().box(grid, v.text, label, bar);
  }

  /* One commit: its header as a card, its message as text, its patch as a coloured diff. */
  function drawCommit(c, o) {
    var wrap = el("article", "commit");
    var head = {};
    Object.keys(c).forEach(function (k) { if (k !== "message" && k !== "patch") head[k] = c[k]; });
    wrap.appendChild(o.card ? o.card(head) : plainCard(head));
    if (c.message) {
      // The subject line stands out; the body reads as text.
      var nl = c.message.indexOf("\n"), msg = el("div", "commit-msg text");
      msg.appendChild(el("strong", "commit-subject", nl < 0 ? c.message : c.message.slice(0, nl)));
      if (nl >= 0) msg.appendChild(DOC.createTextNode(c.message.slice(nl)));
      wrap.appendChild(c.message.length > 600 ? T().box(msg, c.message, "message") : msg);
    }
    if (c.patch) wrap.appendChild(T().box(T().codeBlock(c.patch, "diff"), c.patch, "patch"));
    return wrap;
  }

  function plainCard(obj) {
    var dl = el("dl", "card");
    Object.keys(obj).forEach(function (k) { dl.appendChild(el("dt", "", k)); dl.appendChild(el("dd", "", obj[k])); });
    return dl;
  }

  function drawCommits(v, o) {
    var wrap = el("div", "commits");
    if (v.lead) wrap.appendChild(el("div", "text", v.lead));
    v.commits.forEach(function (c) { wrap.appendChild(drawCommit(c, o || {})); });
    return wrap;
  }

  var DRAW = { numbered: drawNumbered, log: drawLog, commits: drawCommits };

  /* draw draws a view read returned (numbered, log, commits), or returns null for other kinds. */
  function draw(view, o) { return DRAW[view.kind] ? DRAW[view.kind](view, o || {}) : null; }

  global.GenuiLines = { read: read, weak: weak, draw: draw, vcsLine: vcsLine, logLine: logLine, asWritten: asWritten };
})(window);
