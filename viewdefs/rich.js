/*
 * genui offline rich renderers. Plain browser script, no dependencies, no
 * network: defines window.GenuiRich. The offline page creates one renderer
 * with GenuiRich.create({...}) and hands it every CallToolResult; the view
 * is chosen from the shape of the data (structuredContent first, else JSON
 * in a text item): records -> table (with a line chart above for time
 * series), one record -> key/value card, anything else -> the plain content
 * renderers. The page's view spec (#view-spec, package viewspec: principal
 * data, view kind, columns, hidden fields, ...) overrides the choice for
 * every field it sets (fromSpec); the older view config (#view-config) too.
 * All data reaches the DOM through textContent and DOM APIs.
 * This file is inlined into a script element: it must never contain a
 * closing script tag or an HTML comment opener.
 */
(function (global) {
  "use strict";

  var DOC = global.document;
  var TYPE_SAMPLE = 20;          // rows used to infer column types
  var KEY_SAMPLE = 50;           // rows whose keys make up the columns
  var REMOTE_OVER = 500;         // totals above this page through the tool
  var DEFAULT_PAGE = 50;
  var PAGE_SIZES = [10, 25, 50, 100, 250, 500, 1000];
  var CELL_LIMIT = 500;          // characters shown per cell
  var CLAMP_LIMIT = 4 * 1024;    // characters of a long string drawn in its clamped cell
  var MEDIA_LIMIT = 256 * 1024;  // largest data: image URI shown in a cell
  var MAIN_KEYS = ["records", "rows", "items", "results", "data", "days", "entries", "hits", "list", "values", "features", "daily", "hourly"];
  var SIDE_KEYS = ["fields", "columns", "schema", "links", "errors", "warnings"];
  var TOTAL_KEYS = ["total", "total_count", "totalCount", "count", "num_results", "numFound", "total_results", "totalResults"];
  var LIMIT_ARGS = ["limit", "page_size", "pageSize", "per_page", "perPage", "size", "rows", "max_results", "maxResults", "top"];
  var OFFSET_ARGS = ["offset", "start", "skip", "from"];
  var SORT_ARGS = ["sort", "sort_by", "sortBy", "order_by", "orderBy", "order"];
  var DATE_RE = /^\d{4}-\d{2}(?:-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?)?$/;
  var MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
  var MONTH_RE = /^(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?:[\s,-]+(\d{4}))?$/i;
  var ORDINAL_RE = /^(?:year|yr|month|week|day|quarter|period|step|index|idx|n|t|x|hour|minute|epoch|iteration|round|generation|version)$/i;
  var B64_IMAGE = { "iVBORw0KGgo": "png", "/9j/": "jpeg", "R0lGOD": "gif", "UklGR": "webp" };
  var TREE_KEYS = ["children", "nodes", "subitems", "subtasks", "replies"];
  var SMALL_TREE = 30;           // nodes of a tree drawn open
  var NUM_RE = /^-?(?:\d+|\d*\.\d+)(?:[eE][+-]?\d+)?$/;
  var ID_RE = /^(?:id|_id|uuid|key|.*[_-]id|.*Id)$/;
  var PLAIN_NUM_RE = /year|^yr$|zip|postal|port|code|phone|version|^p?pid$|^[ug]id$/i; // numbers shown without digit grouping
  var DATA_IMAGE_RE = /^data:image\/(?:png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+\/=]+$/;
  var OWN_RECORD_FIELDS = 40;   // the most fields of a result's own record drawn in sight in its header
  var LONG_CELL = 16;            // average characters of a text column ranked right after the primary ones
  var LONG_TEXT = 48;            // characters above which a cell wraps (clamped to 3 lines)
  var EMPTY = "\u2014";          // em dash: what null and missing values show
  var LIST_SHOWN = 6;            // items of an array shown in a cell before "+N more"
  var FEW_ROWS = 3;              // a table of this many rows or fewer, and
  var FEW_COLS = 6;              // of this many columns or fewer, shows the records in its cells open
  var FOLDS_DRAWN = 400;         // folds per result whose content is drawn before they open (folded)
  var WIDE_COLS = 8;             // columns above which a table without a naming column leads with its text
  var NARROW = 560;              // px below which a table wider than its box stacks its rows
  var SIDE_RECORDS_DRAWN = 12;   // records of a collapsed section drawn with it (more draw on opening)
  var FIRST_ROWS = 24;           // rows of a table's first drawing laid out before its first frame (.table-wrap shows ~20)
  // One line of markdown source (a search hit's line of a note): a heading, a task item, a wikilink, emphasis, a link, code.
  var MD_LINE_RE = /^\s{0,3}#{1,6}\s+\S|^\s*(?:[-*+]|\d{1,4}[.)])\s+\[[ xX]\]\s|\[\[[^\[\]\n]+\]\]|\*\*[^*\n]+\*\*|\[[^\]\n]+\]\([^)\s]+\)|`[^`\n]+`/;
  var HASH_RE = /^(?:(?:sha1|sha224|sha256|sha384|sha512|md5|blake2b|git)[:-])?[0-9a-f]{16,128}$|^sha(?:1|256|384|512)-[A-Za-z0-9+\/]{27,}={0,2}$/i;
  var LABEL_KEYS = ["name", "title", "label", "path", "id", "key", "text", "value"];
  var WRITE_VERB_RE = /^(?:create|update|delete|remove|insert|add|set|write|put|post|patch|edit|modify|move|rename|upsert|save|store|drop|alter|append|upload|send|commit|push|merge|reset|clear|apply|assign|archive|restore|enable|disable|start|stop|kill|cancel|approve|mark|tag|link|unlink|close|mkdir|rm|mv|cp|copy|import|install|uninstall|publish|deploy|trigger)$/;
  // Human quantities: 67.30 KB, 1.2 MiB, 30%, 12 ms, $1,200.50, 12,345.
  var QTY_RE = /^([$\u20ac\u00a3\u00a5]?)\s?(-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?|-?\.\d+)\s*(%|[KMGTPE]i?B|B|bytes?|ns|\u00b5s|us|ms|s|secs?|mins?|h|hrs?|days?)?$/i;
  var UNIT_SCALE = { b: 1, byte: 1, bytes: 1, kb: 1024, kib: 1024, mb: 1048576, mib: 1048576, gb: 1073741824, gib: 1073741824,
    tb: 1099511627776, tib: 1099511627776, pb: 1125899906842624, pib: 1125899906842624, eb: 1152921504606846976, eib: 1152921504606846976,
    ns: 1e-9, "\u00b5s": 1e-6, us: 1e-6, ms: 1e-3, s: 1, sec: 1, secs: 1, min: 60, mins: 60, h: 3600, hr: 3600, hrs: 3600, day: 86400, days: 86400, "%": 1 };

  function isObj(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }

  function el(tag, cls, text) {
    var e = DOC.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  var SVG_NS = (function () {
    var t = DOC.getElementById("svg-ns");
    var svg = t && t.content && t.content.firstElementChild;
    return svg ? svg.namespaceURI : null;
  })();

  function svgEl(tag, attrs, text) {
    var e = DOC.createElementNS(SVG_NS, tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
    if (text !== undefined) e.textContent = String(text);
    return e;
  }

  /* Normalises a field name for matching user-typed names: "In Stock" ~ in_stock. */
  function norm(s) { return String(s).toLowerCase().replace(/[\s\-.]+/g, "_"); }

  /* ---------- shape detection ---------- */

  function isRecordArray(a) {
    if (!Array.isArray(a) || !a.length) return false;
    var sample = a.slice(0, TYPE_SAMPLE);
    return sample.every(isObj);
  }

  function isPrimitiveArray(a) {
    return Array.isArray(a) && a.length > 0 && a.slice(0, TYPE_SAMPLE).every((v) => v === null || typeof v !== "object");
  }

  /*
   * sideList says whether v under key is a side list beside the data (a
   * result's fields, a page's links, its warnings): a SIDE_KEYS name, unless
   * its records are a graph's edges (each with source and target, or from
   * and to), which are data whatever they are called ({nodes, links}).
   */
  function sideList(key, v) {
    if (SIDE_KEYS.indexOf(String(key).toLowerCase()) < 0) return false;
    return !(isRecordArray(v) && v.slice(0, TYPE_SAMPLE).every((r) => ("source" in r && "target" in r) || ("from" in r && "to" in r)));
  }

  function rank(key) {
    var i = MAIN_KEYS.indexOf(key.toLowerCase());
    return i < 0 ? MAIN_KEYS.length : i;
  }

  /*
   * Finds the main collection in data: {records, parent, path} for an array
   * of records (data itself or an array property up to two levels down),
   * {values} for an array of primitives, or null. Known names (records,
   * items, days, ...) win over side arrays (fields, links); then the longest.
   */
  function findMain(data) {
    if (Array.isArray(data)) {
      if (isRecordArray(data)) return { records: data, parent: null, path: [] };
      if (isPrimitiveArray(data)) return { values: data };
      return null;
    }
    if (!isObj(data)) return null;
    var best = null;
    var consider = function (parent, path, key) {
      var v = parent[key];
      var known = MAIN_KEYS.indexOf(key.toLowerCase()) >= 0;
      if (!(isRecordArray(v) || (known && Array.isArray(v) && v.length === 0))) return;
      var c = { records: v, parent: parent, path: path.concat([key]), side: sideList(key, v), rank: rank(key) };
      if (!best || better(c, best)) best = c;
    };
    Object.keys(data).forEach(function (k) { consider(data, [], k); });
    if (!best) {
      Object.keys(data).forEach(function (k) {
        if (isObj(data[k])) Object.keys(data[k]).forEach(function (k2) { consider(data[k], [k], k2); });
      });
    }
    if (best) return best;
    var vals = null;
    Object.keys(data).some(function (k) {
      if (isPrimitiveArray(data[k]) && MAIN_KEYS.indexOf(k.toLowerCase()) >= 0) { vals = data[k]; return true; }
      return false;
    });
    return vals ? { values: vals, parent: data } : null;
  }

  function better(a, b) {
    if (a.side !== b.side) return !a.side;
    if (a.rank !== b.rank) return a.rank < b.rank;
    return a.records.length > b.records.length;
  }

  function getPath(data, path) {
    return path.reduce((v, k) => isObj(v) || (Array.isArray(v) && typeof k === "number") ? v[k] : undefined, data);
  }

  /*
   * principalOf finds the principal data at any depth: the largest array of
   * records reached from data through objects and one-element arrays (a
   * gateway's {success, data: {statements: [{sql, rows: [...], count}]}}
   * holds its rows four levels down). An array inside an array of several
   * records belongs to each of them (a commit's files), not to the result.
   * Returns {records, parent, path, wrappers} (wrappers: the objects above
   * the parent, outermost first) or null.
   */
  function principalOf(data) {
    var best = null, seen = 0;
    var walk = function (v, path, objs) {
      if (path.length > 10 || seen++ > 2000) return;
      if (Array.isArray(v)) {
        if (isRecordArray(v) && objs.length && (!best || v.length > best.records.length)) {
          best = { records: v, parent: objs[objs.length - 1], path: path, wrappers: objs.slice(0, -1) };
        }
        if (v.length === 1) walk(v[0], path.concat([0]), objs);
        return;
      }
      if (isObj(v)) Object.keys(v).forEach(function (k) { walk(v[k], path.concat([k]), objs.concat([v])); });
    };
    walk(data, [], []);
    return best;
  }

  /* ---------- one result model ---------- */

  function isText(item) { return isObj(item) && item.type === "text" && typeof item.text === "string"; }

  /*
   * merge turns a CallToolResult into the parts to show, in order, with
   * content blocks and structuredContent merged so that what both hold is
   * shown once. A text block is left out when it is the same JSON as
   * structuredContent or as one of its values (memory's bare array next to
   * {entities: [...]}), when it equals one of its string values (a message),
   * or when structuredContent only wraps it ({content: "<text>"}, the text
   * that string or the wrapper itself as JSON); the structured part takes
   * its place. "The same" is modulo null members, key order, whitespace and
   * one leading prose line before the JSON (comparableJSON, textJSON): the
   * text says nothing the structured data does not, and stays one click
   * away in Raw JSON. A text that is no copy but repeats the data's
   * distinctive values (repeatsValues: a message about the same data) comes
   * after the data, folded. A long string of the data that a plain text
   * block holds whole is drawn by the text only (withoutTextCopies); a long
   * text field that restates the data beside it comes after the data,
   * folded (messagesApart). Parts: {text, folded?, label?}, {data}, {item}.
   */
  function merge(result) {
    var items = Array.isArray(result.content) ? result.content : [];
    var sc = result.structuredContent, parts = [], folded = [], scPart = null, placed = false;
    if (sc !== undefined && sc !== null) {
      var keys = isObj(sc) ? Object.keys(sc) : [];
      scPart = keys.length === 1 && typeof sc[keys[0]] === "string" ? { text: sc[keys[0]], key: keys[0] } : { data: sc };
    }
    var scJSON = scPart ? comparableJSON(sc) : null;
    var vals = scPart && scPart.data !== undefined && isObj(sc) ? Object.keys(sc).map((k) => sc[k]) : [];
    items.forEach(function (item) {
      var dup = false;
      if (scPart && isText(item)) {
        var t = item.text.trim();
        // A text that is the wrapper itself as JSON ({"metadata": "<JSON text>"}) is a copy too.
        if (scPart.text !== undefined) dup = sameText(t, scPart.text) || (textJSON(t) !== undefined && comparableJSON(textJSON(t)) === scJSON);
        else {
          var j = textJSON(t);
          if (j !== undefined) {
            var sj = comparableJSON(j);
            dup = sj === scJSON || vals.some((v) => v !== null && typeof v === "object" && comparableJSON(v) === sj);
          } else dup = t !== "" && vals.some((v) => typeof v === "string" && sameText(t, v));
        }
      }
      if (dup) {
        if (!placed) parts.push(scPart);
        placed = true;
      } else if (scPart && scPart.data !== undefined && isText(item) && repeatsValues(item.text, sc)) {
        // A message about the same data (the model's copy with its own words: "Opened.
        // viewer id: …" beside {id, url}): the data is the view, the message one click away.
        folded.push({ text: item.text, annotations: item.annotations, folded: true });
      } else parts.push(isText(item) ? { text: item.text, annotations: item.annotations } : { item: item });
    });
    if (scPart && !placed) parts.push(scPart);
    return messagesApart(withoutTextCopies(parts.concat(folded)));
  }

  var CONTENT_TYPES = ["text", "image", "audio", "resource", "resource_link"];

  /*
   * envelopeOf reads a result that is only its own CallToolResult as JSON
   * text (one text block holding {"content": [{"type": "text", "text":
   * "..."}], "isError": false, "metadata": {...}}: a tool that returns the
   * result object it built as its text). It returns {result, rest}: the inner
   * result, drawn as the result (its text blocks as text: a log as a log,
   * not a cell of a one-row table of type and text; its isError an error),
   * and the inner object's other members (rest, drawn after it), or null.
   */
  function envelopeOf(result) {
    var items = Array.isArray(result.content) ? result.content : [];
    if (items.length !== 1 || !isText(items[0]) || (result.structuredContent !== undefined && result.structuredContent !== null)) return null;
    var j = global.GenuiText.parseJSON(items[0].text.trim());
    if (!isObj(j) || !Array.isArray(j.content) || !j.content.length) return null;
    if (!j.content.every((c) => isObj(c) && CONTENT_TYPES.indexOf(c.type) >= 0 && (c.type !== "text" || typeof c.text === "string"))) return null;
    if (j.isError !== undefined && typeof j.isError !== "boolean") return null;
    var inner = { content: j.content, isError: result.isError === true || j.isError === true }, rest = {};
    if (j.structuredContent !== undefined) inner.structuredContent = j.structuredContent;
    Object.keys(j).forEach(function (k) { if (["content", "isError", "structuredContent", "_meta"].indexOf(k) < 0) rest[k] = j[k]; });
    return { result: inner, rest: rest };
  }

  /*
   * messagesApart: a long text field of a JSON object (a markdown message)
   * that restates a sibling object or list whole (every distinctive value of
   * it, repeatsValues' kind: a task manager's "Progress Status" table of the
   * tasks the result also holds as records) is a message about the data:
   * the data is the view without it, the message after it, folded.
   */
  function messagesApart(parts) {
    var out = [], after = [];
    parts.forEach(function (p) {
      var j = p.data !== undefined ? p.data : p.text !== undefined && !p.folded ? textJSON(p.text.trim()) : undefined;
      if (!isObj(j)) { out.push(p); return; }
      var keys = Object.keys(j), moved = [];
      keys.forEach(function (k) {
        var v = j[k];
        if (typeof v !== "string" || (v.length <= 160 && v.trim().indexOf("\n") < 0)) return;
        var flat = squashSpace(v);
        var restated = keys.some(function (k2) {
          var vals = k2 !== k && j[k2] !== null && typeof j[k2] === "object" ? distinctValues(j[k2]) : [];
          return vals.length > 0 && vals.every((x) => flat.indexOf(x) >= 0);
        });
        if (restated) moved.push(k);
      });
      if (!moved.length) { out.push(p); return; }
      var rest = {};
      keys.forEach(function (k) { if (moved.indexOf(k) < 0) rest[k] = j[k]; });
      out.push({ data: rest, annotations: p.annotations });
      moved.forEach(function (k) { after.push({ text: j[k], folded: true, label: k }); });
    });
    return out.concat(after);
  }

  /* The distinctive string values of v (repeatsValues' kind), whitespace squashed; at most 200. */
  function distinctValues(v) {
    var out = [], seen = 0;
    (function walk(x, depth) {
      if (depth > 6 || seen++ > 2000 || out.length >= 200) return;
      if (typeof x === "string") {
        var sx = squashSpace(x);
        if (sx.replace(/[^\p{L}\p{N}]/gu, "").length >= 12 && /[\s\d]/.test(sx)) out.push(sx);
        return;
      }
      if (Array.isArray(x)) { x.slice(0, 200).forEach((y) => walk(y, depth + 1)); return; }
      if (isObj(x)) Object.keys(x).forEach((k) => walk(x[k], depth + 1));
    })(v, 0);
    return out;
  }

  /*
   * withoutTextCopies draws a long string once: when a plain text block of
   * the result holds it whole (whitespace aside: a document reader's full_text,
   * its lines run together, beside the same text with its line breaks and
   * page markers), the JSON part that also holds it becomes its data without
   * that string, which stays one click away in Raw JSON.
   */
  function withoutTextCopies(parts) {
    var plain = [];
    parts.forEach(function (p) { if (p.text !== undefined && !p.folded && textJSON(p.text.trim()) === undefined) plain.push(p.text.replace(/\s+/g, "")); });
    if (!plain.length) return parts;
    return parts.map(function (p) {
      var j = p.data !== undefined ? p.data : p.text !== undefined && !p.folded ? textJSON(p.text.trim()) : undefined;
      if (j === null || typeof j !== "object") return p;
      var cut = 0, seen = 0;
      var walk = function (v, depth) {
        if (depth > 8 || seen++ > 5000) return v;
        if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
        if (!isObj(v)) return v;
        var o = {};
        Object.keys(v).forEach(function (k) {
          var x = v[k], c = typeof x === "string" && x.length >= 80 ? x.replace(/\s+/g, "") : "";
          if (c.length >= 80 && plain.some((t) => t.indexOf(c) >= 0)) { cut++; return; }
          o[k] = walk(x, depth + 1);
        });
        return o;
      };
      var out = walk(j, 0);
      return cut ? { data: out, annotations: p.annotations } : p;
    });
  }

  /*
   * repeatsValues reports whether text (not a copy of data) repeats one of
   * data's distinctive values: a string leaf of 12+ letters and digits
   * holding a space or a digit (an id, a path, a sentence), the kind a
   * reader would see twice.
   */
  function repeatsValues(text, data) {
    var found = false, seen = 0, flat = squashSpace(text);
    (function walk(v, depth) {
      if (found || depth > 6 || seen > 2000) return;
      if (typeof v === "string") {
        seen++;
        var sv = squashSpace(v);
        if (sv.replace(/[^\p{L}\p{N}]/gu, "").length >= 12 && /[\s\d]/.test(sv) && flat.indexOf(sv) >= 0) found = true;
        return;
      }
      if (Array.isArray(v)) { v.slice(0, 200).forEach((x) => walk(x, depth + 1)); return; }
      if (isObj(v)) Object.keys(v).forEach((k) => walk(v[k], depth + 1));
    })(data, 0);
    return found;
  }

  /*
   * textJSON is the JSON a text holds: all of it, or all of it after one
   * leading prose line ("Current configuration:"), or undefined.
   */
  function textJSON(t) {
    var j = global.GenuiText.parseJSON(t);
    if (j !== undefined) return j;
    var nl = t.indexOf("\n");
    return nl > 0 && nl <= 300 && !/^\s*[\[{]/.test(t) ? global.GenuiText.parseJSON(t.slice(nl + 1)) : undefined;
  }

  /* Text with its whitespace runs as one space and its ends trimmed: how two copies of a message compare. */
  function squashSpace(s) { return String(s).replace(/\s+/g, " ").trim(); }

  function sameText(a, b) { return squashSpace(a) === squashSpace(b); }

  /*
   * comparableJSON is v as JSON for comparing two copies of a result: object
   * members that are null dropped (text JSON keeps the nulls its structured
   * copy omits), keys sorted, whitespace in strings squashed.
   */
  function comparableJSON(v) {
    return JSON.stringify(v, function (k, x) {
      if (typeof x === "string") return squashSpace(x);
      if (!isObj(x)) return x;
      var o = {};
      Object.keys(x).sort().forEach(function (key) { if (x[key] !== null && x[key] !== undefined) o[key] = x[key]; });
      return o;
    });
  }

  /*
   * failureOf reads an error reported as data: an object that says it failed
   * ({"success": false}, {"ok": false}, {"status": "error"}; a job whose
   * status is "failed" is data about the job, not a failed call), or for an
   * isError result any object, or an object of nothing but an error string
   * and its code ({"error": "no such table: x", "code": "SQLITE_ERROR"}).
   * Returns {message, data, rest} (rest: the keys besides the flag and the
   * message) or null when it holds no message.
   */
  var FAILURE_MESSAGE_KEYS = ["error", "message", "errorMessage", "error_message", "detail", "reason", "errors"];
  var FAILURE_FLAG_KEYS = ["success", "ok", "status", "isError", "is_error"];
  /*
   * The messages of an error message that is itself JSON text (a validator's
   * issues: "[{\"code\": ..., \"path\": [...], \"message\": \"Invalid enum value...\"}]"),
   * one a line, or null when it is not such text.
   */
  function quotedMessages(s) {
    if (!/^[\[{]/.test(s)) return null;
    var j = global.GenuiText.parseJSON(s);
    var list = Array.isArray(j) ? j : isObj(j) ? [j] : [];
    var ms = list.map(function (x) {
      return isObj(x) ? (typeof x.message === "string" ? x.message : typeof x.error === "string" ? x.error : "") : "";
    }).map((m) => m.trim()).filter(Boolean);
    return ms.length ? ms.join("\n") : null;
  }

  /*
   * errorTextMessage is the message of an error text that is an error
   * object as JSON (a failed call whose message is the upstream's body:
   * {"error": {"code": "not_found", "message": "no order 4711"}}), or null
   * when the text is not one.
   */
  function errorTextMessage(text) {
    var f = typeof text === "string" ? failureOf(textJSON(text.trim()), true) : null;
    return f ? f.message : null;
  }

  function failureOf(data, isError) {
    if (!isObj(data)) return null;
    var keys = Object.keys(data);
    var flagged = isError || data.success === false || data.ok === false || data.isError === true ||
      (typeof data.status === "string" && /^(?:error|fail|failure)$/i.test(data.status)) ||
      (typeof data.error === "string" && keys.every((k) => /^(?:error|code|errno|hint|details?)$/i.test(k)));
    if (!flagged) return null;
    var message = null, key = null;
    FAILURE_MESSAGE_KEYS.some(function (k) {
      var v = data[k];
      if (Array.isArray(v)) v = v[0];
      if (isObj(v)) v = typeof v.message === "string" ? v.message : typeof v.error === "string" ? v.error : null;
      if (typeof v === "string" && v.trim()) { message = quotedMessages(v.trim()) || v.trim(); key = k; return true; }
      return false;
    });
    if (!message) return null;
    var rest = keys.filter((k) => k !== key && FAILURE_FLAG_KEYS.indexOf(k) < 0 && data[k] !== null && data[k] !== undefined);
    return { message: message, data: data, rest: rest };
  }

  /*
   * v with strings that hold JSON objects or arrays parsed, as deep as the
   * spec proposal reads them (engine/gen's shape: 8 levels), so that a JSON
   * column in a gateway's rows ({data: {statements: [{rows: [{tags: "[...]"}]}]}})
   * is a list, not its source.
   */
  function deepJSON(v, depth) {
    depth = depth || 0;
    if (depth > 8) return v;
    if (typeof v === "string" && v.length < 4 * 1024 * 1024) {
      var j = global.GenuiText.parseJSON(v);
      return j !== undefined ? deepJSON(j, depth + 1) : v;
    }
    if (Array.isArray(v)) return v.length > 5000 ? v : v.map((x) => deepJSON(x, depth + 1));
    if (isObj(v)) {
      var o = {};
      Object.keys(v).forEach(function (k) { o[k] = deepJSON(v[k], depth + 1); });
      return o;
    }
    return v;
  }

  /* The structured data of a result (for paging): the first part that is or holds data. */
  function resultData(result) {
    var parts = merge(result);
    for (var i = 0; i < parts.length; i++) {
      if (parts[i].data !== undefined) return { data: deepJSON(parts[i].data), found: true };
      if (parts[i].text !== undefined) {
        var v = global.GenuiText.classify(parts[i].text);
        if (v.kind === "data") return { data: v.data, found: true };
      }
    }
    return { found: false };
  }

  /* ---------- columns ---------- */

  var CKAN_TYPES = { int: "number", integer: "number", numeric: "number", float: "number", float8: "number", int4: "number", int8: "number", number: "number",
    date: "date", timestamp: "date", datetime: "date", time: "string", bool: "boolean", boolean: "boolean", text: "string", string: "string" };

  /* The type of column key from its first 20 non-empty values: number, date, boolean, string or json; null when all are empty. */
  function inferType(records, key) {
    var seen = 0, t = null;
    for (var i = 0; i < records.length && seen < TYPE_SAMPLE; i++) {
      var v = records[i] ? records[i][key] : undefined;
      if (v === null || v === undefined || v === "") continue;
      seen++;
      var k;
      if (typeof v === "number") k = "number";
      else if (typeof v === "boolean") k = "boolean";
      else if (typeof v === "string") k = DATE_RE.test(v) && !isNaN(Date.parse(v)) ? "date" : MONTH_RE.test(v.trim()) ? "month" : NUM_RE.test(v.trim()) ? "number" : quantity(v) ? "q" + quantity(v).unit : "string";
      else k = "json";
      if (t === null) t = k;
      else if (t !== k && !(t.charAt(0) === "q" && k === "number") && !(t === "number" && k.charAt(0) === "q")) return (t === "json" || k === "json") ? "json" : "string";
      else if (t === "number") t = k;
    }
    return t && t.charAt(0) === "q" ? "quantity" : t;
  }

  /*
   * quantity reads a human quantity ("67.30 KB", "30%", "12 ms", "$1,200")
   * as {n, unit}: n in the unit family's base (bytes, seconds), unit one of
   * "bytes", "time", "%", "$" (the currency sign) or "" (digit groups).
   * Plain numbers are not quantities.
   */
  function quantity(v) {
    var m = typeof v === "string" && v.length < 40 ? v.trim().match(QTY_RE) : null;
    if (!m || (!m[1] && !m[3] && m[2].indexOf(",") < 0)) return null;
    var u = (m[3] || "").toLowerCase(), n = parseFloat(m[2].replace(/,/g, "")) * (UNIT_SCALE[u] || 1);
    var unit = m[1] ? m[1] : !u ? "" : u === "%" ? "%" : /b|byte/.test(u) ? "bytes" : "time";
    return isFinite(n) ? { n: n, unit: unit } : null;
  }

  /* The unit family of a quantity column (from its first values). */
  function unitOf(records, key) {
    for (var i = 0; i < records.length && i < KEY_SAMPLE; i++) {
      var q = quantity(isObj(records[i]) ? records[i][key] : null);
      if (q) return q.unit;
    }
    return "";
  }

  /*
   * Columns of records: the keys of the first rows in first-seen order (or a
   * CKAN-style sibling "fields" list), types inferred from the first 20 rows,
   * then cfg.columns (which and in what order) and cfg.hide applied.
   * Returns {all, shown, notes}.
   */
  function columnsOf(records, parent, cfg) {
    var keys = [], seen = {};
    var add = function (k) { if (!Object.prototype.hasOwnProperty.call(seen, k)) { seen[k] = true; keys.push(k); } };
    var hints = {};
    if (parent && Array.isArray(parent.fields) && parent.fields.length && parent.fields.every((f) => isObj(f) && typeof f.id === "string")) {
      parent.fields.forEach(function (f) { add(f.id); if (typeof f.type === "string" && CKAN_TYPES[f.type.toLowerCase()]) hints[f.id] = CKAN_TYPES[f.type.toLowerCase()]; });
    }
    records.slice(0, KEY_SAMPLE).forEach(function (r) { if (isObj(r)) Object.keys(r).forEach(add); });
    // A field asked for by name (cfg.show) is found in every row, not only the first ones.
    (cfg.show || []).forEach(function (name) {
      var n = norm(name);
      if (keys.some((k) => norm(k) === n)) return;
      records.some(function (r) { return isObj(r) && Object.keys(r).some(function (k) { if (norm(k) === n) { add(k); return true; } return false; }); });
    });
    var all = keys.map(function (k) {
      var c = { key: k, type: inferType(records, k) || hints[k] || "string" };
      if (c.type === "quantity") c.unit = unitOf(records, k);
      return c;
    });
    all = rankColumnsByRole(all, records);
    var notes = [];
    var byNorm = {};
    all.forEach(function (c) { byNorm[norm(c.key)] = c; });
    var shown = all;
    if (cfg.columns && cfg.columns.length) {
      var picked = [], missing = [];
      cfg.columns.forEach(function (name) {
        var c = byNorm[norm(name)];
        if (c && picked.indexOf(c) < 0) picked.push(c);
        else if (!c) missing.push(name);
      });
      (cfg.show || []).forEach(function (name) { var c = byNorm[norm(name)]; if (c && picked.indexOf(c) < 0) picked.push(c); });
      if (missing.length) notes.push("Column" + (missing.length > 1 ? "s" : "") + " not in the result: " + missing.join(", ") + ".");
      if (picked.length) shown = picked;
    }
    var show = (cfg.show || []).map(norm);
    if (cfg.hide && cfg.hide.length) {
      var hide = cfg.hide.map(norm).filter((n) => show.indexOf(n) < 0);
      shown = shown.filter((c) => hide.indexOf(norm(c.key)) < 0);
    }
    return { all: all, shown: shown, notes: notes, byNorm: byNorm };
  }

  /*
   * rankColumnsByRole orders columns by what they are to a reader, not by
   * JSON order: the text that names or tells a row (a title, subject, name,
   * message, a log's or a mail's body: role "primary", given the width) first, then other text of
   * LONG_CELL characters or more on average (a condition, a path: role
   * "text"); references a reader
   * seldom reads (ids, hashes, emails, timestamps, lists of hashes: role
   * "ref") last; the rest between, each group in JSON order. Records
   * without such a text column (a series over dates) keep JSON order. The column
   * chooser and the stacked rows show them all in this order.
   */
  var PRIMARY_WORD_RE = /(?:^|[_\-.\s])(?:title|subject|name|message|msg|body|summary|headline|label|caption|question|task|description)$|(?:Title|Subject|Name|Message|Body|Summary|Headline|Label|Description)$/;
  var REF_KEY_RE = /(?:^|[_\-.\s])(?:hash|sha|uuid|guid|email|mail|oid|rev|digest|checksum)s?$|(?:Hash|Sha|Uuid|Guid|Email|Mail|Oid|Digest|Checksum)s?$|^(?:hash|sha|uuid|guid|email|e_mail|oid|parents?)$/i;
  function columnRole(records, c) {
    var k = c.key;
    if (ID_RE.test(k) || REF_KEY_RE.test(k) || c.type === "date" || epochFormat(records, k)) return "ref";
    var n = 0, refs = 0, text = 0, chars = 0;
    for (var i = 0; i < records.length && n < TYPE_SAMPLE; i++) {
      var v = isObj(records[i]) ? records[i][k] : undefined;
      if (v === null || v === undefined || v === "") continue;
      n++;
      var first = Array.isArray(v) ? v[0] : v;
      // A hash, a short hex id (git's 7-character commit) or an email address.
      if (isHash(first) || (typeof first === "string" && /^[0-9a-f]{7,15}$/.test(first) && /\d/.test(first) && /[a-f]/.test(first)) ||
        (typeof first === "string" && /^[^@\s<>]+@[^@\s<>]+\.[a-z]{2,}$/i.test(first))) refs++;
      if (typeof v === "string" && /[a-z]/i.test(v) && !isHash(v)) { text++; chars += v.length; }
    }
    if (n && refs === n) return "ref";
    if (PRIMARY_WORD_RE.test(k) && text === n && n > 0) return "primary";
    if (n && text === n && chars / n >= LONG_CELL) return "text";
    return "";
  }

  function rankColumnsByRole(cols, records) {
    cols.forEach(function (c) { c.role = columnRole(records, c); });
    var tier = (c) => c.role === "primary" ? 0 : c.role === "text" ? 1 : c.role === "ref" ? 3 : 2;
    if (!cols.some((c) => c.role === "primary")) {
      // Without a column that tells a row (a series over dates, a list of ids and counts) JSON order
      // stands, unless the table is wide: then its text (role "text", or values that nest sentences,
      // an analysis of warnings) leads, so it is in the frame, not behind counts and flags.
      if (cols.length <= WIDE_COLS) return cols;
      var wordy = cols.filter((c) => c.role === "text" || nestedText(records, c.key));
      if (!wordy.length) return cols;
      tier = (c) => wordy.indexOf(c) >= 0 ? 1 : c.role === "ref" ? 3 : 2;
    }
    return cols.map((c, i) => ({ c: c, i: i })).sort((a, b) => tier(a.c) - tier(b.c) || a.i - b.i).map((x) => x.c);
  }

  /* nestedText says whether a column's values are objects or lists that hold sentences (strings
     with a space, LONG_CELL characters or more on average a value), as a block of text is. */
  function nestedText(records, key) {
    var n = 0, chars = 0;
    var words = function (v, depth) {
      if (typeof v === "string") return / /.test(v) && /[a-z]/i.test(v) ? v.length : 0;
      if (depth > 3 || v === null || typeof v !== "object") return 0;
      return Object.keys(v).reduce((t, k) => t + words(v[k], depth + 1), 0);
    };
    for (var i = 0; i < records.length && n < TYPE_SAMPLE; i++) {
      var v = isObj(records[i]) ? records[i][key] : undefined;
      if (v === null || v === undefined) continue;
      if (typeof v !== "object" || isRecordArray(v)) return false;
      n++;
      chars += words(v, 0);
    }
    return n > 0 && chars / n >= LONG_CELL;
  }

  /* ---------- values ---------- */

  function cellText(v) {
    if (v === null || v === undefined) return "";
    if (typeof v === "object") {
      var s;
      try { s = JSON.stringify(v); } catch (e) { s = String(v); }
      return s.length > CELL_LIMIT ? s.slice(0, CELL_LIMIT) + "…" : s;
    }
    var t = String(v);
    return t.length > CELL_LIMIT ? t.slice(0, CELL_LIMIT) + "…" : t;
  }

  /*
   * numberFormat returns the display function of a numeric column: one
   * number of decimals for the whole column (up to 3, so values line up),
   * digit grouping except for ids, years and codes; raw text beyond that.
   */
  /*
   * epochFormat returns the display function of a column of Unix times (a
   * time-like name, every value milliseconds or seconds between 2000 and
   * 2100): "2026-11-30 10:45:10.816 UTC", the number itself in the title.
   */
  var EPOCH_KEY_RE = /(?:^|[_\-.\s])(?:time|timestamp|ts|date|created|updated|modified|deleted|started|ended|expires?|at|epoch|used|seen)$|(?:At|Time|Date|Timestamp|Used|Seen|Ms|Millis)$|^(?:ts|time|timestamp|date|when|created|updated|modified|epoch)$/i;
  function epochFormat(records, key) {
    if (!EPOCH_KEY_RE.test(key)) return null;
    var unit = 0, n = 0;
    for (var i = 0; i < records.length && n < KEY_SAMPLE; i++) {
      var v = isObj(records[i]) ? records[i][key] : undefined;
      if (v === null || v === undefined) continue;
      if (typeof v !== "number" || !isFinite(v)) return null;
      var u = v >= 946684800000 && v < 4102444800000 ? 1 : v >= 946684800 && v < 4102444800 && Math.floor(v) === v ? 1000 : 0;
      if (!u || (unit && u !== unit)) return null;
      unit = u;
      n++;
    }
    if (!n) return null;
    var f = function (v) {
      var iso = new Date(v * unit).toISOString();
      return iso.replace("T", " ").replace(/\.000Z$|Z$/, "").replace(/:00$/, "") + " UTC";
    };
    f.epoch = true;
    return f;
  }

  function numberFormat(records, key) {
    var ef = epochFormat(records, key);
    if (ef) return ef;
    var plain = ID_RE.test(key) || PLAIN_NUM_RE.test(key), decimals = 0, n = 0;
    for (var i = 0; i < records.length && n < KEY_SAMPLE; i++) {
      var v = isObj(records[i]) ? records[i][key] : undefined;
      if (typeof v !== "number" || !isFinite(v)) continue;
      n++;
      var s = String(v), dot = s.indexOf(".");
      if (s.indexOf("e") >= 0) return String;
      if (dot >= 0) decimals = Math.max(decimals, s.length - dot - 1);
    }
    // Whole numbers that all look like years (joined, founded, ...) are shown as they are.
    if (!plain && n && decimals === 0 && records.slice(0, KEY_SAMPLE).every(function (r) { var v = isObj(r) ? r[key] : null; return typeof v !== "number" || (v >= 1800 && v <= 2200); })) plain = true;
    if (decimals > 3 || typeof Intl === "undefined") return plain ? String : (v) => String(v);
    var f = new Intl.NumberFormat("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: !plain });
    return (v) => f.format(v);
  }

  /* Fills a table cell (or card value) e with v: em dash for null/missing, numbers formatted, booleans as marks, a line of markdown as markdown, long text clamped, data: images as thumbnails, nested values as compact JSON. */
  function fillValue(e, v, fmt) {
    if (v === null || v === undefined) {
      e.textContent = EMPTY;
      e.classList.add("empty");
      e.title = v === null ? "null" : "no value";
      return;
    }
    if (typeof v === "number") {
      e.textContent = fmt && isFinite(v) ? fmt(v) : String(v);
      if (fmt && fmt.epoch) e.title = String(v) + " (Unix time)";
      else e.classList.add("num");
      return;
    }
    if (typeof v === "boolean") {
      e.textContent = v ? "\u2713" : "\u2717";
      e.classList.add(v ? "bool-true" : "bool-false");
      e.title = String(v);
      e.setAttribute("aria-label", String(v));
      return;
    }
    var src = imageURI(v);
    if (src) {
      var img = el("img", "thumb");
      img.alt = "image";
      img.src = src;
      e.appendChild(img);
      return;
    }
    if (typeof v === "string" && v.length > 10 && DATE_RE.test(v)) {
      // ISO date-times read better as "2026-01-15 08:00 UTC"; the exact value stays in the title,
      // as written when a text reader rewrote it (git's "Fri Jan 9 11:05:00 2026 +0000").
      e.textContent = v.replace(/[T ]/, " ").replace(/(\d{2}:\d{2}):00(?:\.0+)?(?=$|Z|[+-])/, "$1").replace(/(\d{2}:\d{2}(?::\d{2})?)\.\d+/, "$1").replace(/Z$/, " UTC").replace(/(\d)([+-]\d{2}:?\d{2})$/, "$1 $2");
      e.title = global.GenuiLines && global.GenuiLines.asWritten ? global.GenuiLines.asWritten(v) : v;
      return;
    }
    if (isHash(v)) { e.appendChild(hashValue(v)); return; }
    // In a column of lists of one record each, the list is that record, its fields in sight; more open as a sub-table.
    if (isRecordArray(v)) { e.appendChild(v.length === 1 && fmt === ONE_RECORD ? objectValue(v[0]) : recordsValue(v)); return; }
    if (Array.isArray(v)) { e.appendChild(listValue(v)); return; }
    if (isObj(v)) { e.appendChild(objectValue(v)); return; }
    // "Name <address>" (a commit author, a mail sender): the name, the address on hover.
    var who = typeof v === "string" && v.length < 200 && v.match(/^([^<>@]+?)\s*<([^<>\s]+@[^<>\s]+)>$/);
    if (who) { e.textContent = who[1]; e.title = v; return; }
    // In a column of markdown lines, a line of markdown source is drawn as markdown, its markers read (a heading bold, a task's box ticked, a wikilink marked).
    // So is a short note of a few lines (a note's content, a search hit's excerpt across lines).
    if (fmt === MD_LINES && typeof v === "string" && hooks.mdLine && mdCellText(v)) { e.appendChild(hooks.mdLine(v)); return; }
    var text = cellText(v);
    if (text.length > LONG_TEXT) e.appendChild(expandable(text, typeof v === "string" ? v : null));
    else e.textContent = text;
    markupAsCode(e, v);
  }

  // Markup tags in a short value (a chart tooltip's template "{a} <br/>{b}: {c}", a label's HTML).
  var MARKUP_RE = /<\/?(?:a|b|i|em|strong|br|hr|p|div|span|img|ul|ol|li|h[1-6]|table|thead|tbody|tr|td|th|pre|code|font|sub|sup|small)\b[^<>]*>/i;

  /*
   * markupAsCode marks e, which shows the string v as written, as code when v
   * holds markup tags: a template or a snippet of HTML is a value for a
   * program, its tags its content, drawn in monospace as written rather than
   * rendered (which would hide what the value is) or read as prose.
   */
  function markupAsCode(e, v) {
    if (typeof v === "string" && v.length <= CELL_LIMIT && MARKUP_RE.test(v)) e.classList.add("mono");
  }

  /*
   * reportRecords says whether records read as reports, not rows: a few
   * (FEW_ROWS or fewer), most of whose fields are objects that hold objects
   * or lists (a slowdown's findings, each an anomaly, its root cause and the
   * signals that go with it). A table clamps each such field to a one-line
   * summary and folds what it holds; a card shows its fields, its lists of
   * records as tables.
   */
  function reportRecords(records, cols) {
    if (!records.length || records.length > FEW_ROWS || !cols.length) return false;
    var deep = (v) => isObj(v) && Object.keys(v).some((k) => v[k] !== null && typeof v[k] === "object");
    var reports = cols.filter((c) => records.some((r) => isObj(r) && deep(r[c.key])) &&
      records.every((r) => !isObj(r) || r[c.key] === null || r[c.key] === undefined || deep(r[c.key])));
    return reports.length * 2 > cols.length;
  }

  /* The format of a column whose every value is a list of one record (a grapheme's codePoints): each drawn as that record. */
  var ONE_RECORD = function (v) { return v; };
  function oneRecordColumn(records, key) {
    var n = 0;
    for (var i = 0; i < records.length; i++) {
      var v = isObj(records[i]) ? records[i][key] : undefined;
      if (v === null || v === undefined) continue;
      if (!isRecordArray(v) || v.length !== 1) return false;
      n++;
    }
    return n > 0;
  }

  /*
   * The format of a column of markdown lines: some of its text reads as a
   * line of markdown source (MD_LINE_RE) and none as a line of code (a
   * search's hits in source files keep `x[i](y)`, `# comment` and their
   * backticks as they are).
   */
  var MD_LINES = function (v) { return v; };
  var MD_CELL_CHARS = 1200, MD_CELL_LINES = 16;
  /* A markdown column's text drawn as markdown: a line of it, or a short note whose lines hold some (MD_LINE_RE, per line). */
  function mdCellText(v) {
    if (v.indexOf("\n") < 0) return v.length <= 300 && MD_LINE_RE.test(v);
    var lines = v.split("\n"), prose = unfenced(v).split("\n");
    return v.length <= MD_CELL_CHARS && lines.length <= MD_CELL_LINES && (prose.length < lines.length || prose.some((l) => MD_LINE_RE.test(l))) && !prose.some((l) => CODE_LINE_RE.test(l));
  }
  var CODE_LINE_RE = /[;{}]\s*$|=>|[=!]==?|\s=\s|\b(?:function|def|class|import|return|const|let|var|func|package)\s|^\s*(?:\/\/|#!|#include\b|#define\b)/;
  /*
   * A note's text without its fenced code blocks (``` or ~~~ from a line's
   * start to the closing fence, both on lines of their own): code lines in a
   * fence are the note's code block, written as markdown, not a sign that
   * the note is code. The text itself when it holds no whole fence.
   */
  var FENCE_RE = /(^|\n)[ ]{0,3}(`{3,}|~{3,})[^\n`]*\n[\s\S]*?\n[ ]{0,3}\2[ \t]*(?=\n|$)/g;
  function unfenced(v) { return v.replace(FENCE_RE, "$1"); }
  function mdLinesColumn(records, key) {
    var md = 0;
    for (var i = 0; i < records.length && i < 500; i++) {
      var v = isObj(records[i]) ? records[i][key] : undefined;
      if (typeof v !== "string") continue;
      var prose = unfenced(v);
      if (CODE_LINE_RE.test(prose)) return false;
      if (prose !== v || MD_LINE_RE.test(prose)) md++;
    }
    return md > 0;
  }

  /*
   * What a fold hides is drawn with the fold, hidden, so it is in the page
   * one click away (found by the page's search, read by assistive tools);
   * after FOLDS_DRAWN folds in one result, further folds draw on opening.
   * render() refills the budget.
   */
  var foldBudget = { left: FOLDS_DRAWN };
  function drawFolded() { return foldBudget.left-- > 0; }

  function isHash(v) { return typeof v === "string" && HASH_RE.test(v) && /\d/.test(v) && /[a-z]/i.test(v.replace(/^\w+[:-]/, "")); }

  /* A hash shortened to 7 characters (after any algo: prefix); the full value is its title and what a click or a copy takes. */
  function hashValue(v) {
    var m = v.match(/^((?:\w+[:-])?)(.*)$/), s = el("span", "hash", m[1] + m[2].slice(0, m[1] && !/^[0-9a-f]+$/i.test(m[2]) ? 10 : 7) + "\u2026");
    s.dataset.full = v;
    s.title = v + " (click to copy)";
    s.tabIndex = 0;
    s.setAttribute("role", "button");
    s.setAttribute("aria-label", v);
    var copy = function (ev) {
      ev.stopPropagation();
      global.GenuiText.copy(v, function (ok) {
        s.dataset.copied = ok ? "1" : "0";
        setTimeout(function () { delete s.dataset.copied; }, 1400);
      });
    };
    s.addEventListener("click", copy);
    s.addEventListener("keydown", function (ev) { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); copy(ev); } });
    return s;
  }

  /* Copying a selection takes the full value of every shortened hash in it. */
  DOC.addEventListener("copy", function (ev) {
    var sel = DOC.getSelection && DOC.getSelection();
    if (!sel || sel.isCollapsed || !sel.rangeCount || !ev.clipboardData) return;
    var frag = sel.getRangeAt(0).cloneContents(), hs = frag.querySelectorAll ? frag.querySelectorAll(".hash[data-full]") : [];
    if (!hs.length) return;
    hs.forEach(function (h) { h.textContent = h.dataset.full; });
    var tmp = el("div", "copy-buffer");
    tmp.appendChild(frag);
    DOC.body.appendChild(tmp);
    ev.clipboardData.setData("text/plain", tmp.innerText);
    tmp.remove();
    ev.preventDefault();
  });

  /*
   * An array as a list: short scalars as chips, long text and records as
   * lines; the first LIST_SHOWN items, then a "+N more" button that shows
   * the rest (up to 1000). Records and objects are formatted, never JSON.
   */
  function listValue(arr) {
    var box = el("span", "cell-list");
    if (!arr.length) {
      box.textContent = EMPTY;
      box.className = "empty";
      box.title = "empty list";
      return box;
    }
    var chips = arr.every((x) => x === null || (typeof x !== "object" && String(x).length <= 24));
    box.classList.add(chips ? "chips" : "lines");
    var add = function (into, x) {
      var item = el("span", chips ? "chip" : "cell-line");
      fillValue(item, x, null);
      into.appendChild(item);
    };
    arr.slice(0, LIST_SHOWN).forEach(function (x) { add(box, x); });
    if (arr.length > LIST_SHOWN) {
      var more = el("button", "more-items", "+" + (arr.length - LIST_SHOWN) + " more"), rest = null;
      more.type = "button";
      var drawRest = function () {
        rest = el("span", "more-list");
        arr.slice(LIST_SHOWN, 1000).forEach(function (x) { add(rest, x); });
        if (arr.length > 1000) rest.appendChild(el("span", "note", "the first 1000 of " + arr.length));
        return rest;
      };
      if (drawFolded()) box.appendChild(drawRest()).hidden = true;
      more.addEventListener("click", function (ev) {
        ev.stopPropagation();
        more.replaceWith(rest || drawRest());
        rest.hidden = false;
      });
      box.appendChild(more);
    }
    return box;
  }

  /*
   * recordsValue is an array of records in a cell: a "N rows" button that
   * opens them as their own sub-table (miniTable) in the cell, and folds it
   * again; never one bullet per record. (In a column of lists of one record
   * each, a list is drawn as that record, objectValue.)
   */
  function recordsValue(arr, open) {
    var box = el("div", "sub-records"), table = null;
    var keys = [];
    arr.slice(0, KEY_SAMPLE).forEach(function (r) { Object.keys(r).forEach(function (k) { if (keys.indexOf(k) < 0) keys.push(k); }); });
    var b = el("button", "more-items sub-toggle", arr.length + (arr.length === 1 ? " row" : " rows") + " \u25b8");
    b.type = "button";
    b.title = "Show as a table: " + keys.slice(0, 8).join(", ") + (keys.length > 8 ? ", \u2026" : "");
    b.setAttribute("aria-expanded", "false");
    b.addEventListener("click", function (ev) {
      ev.stopPropagation();
      var open = b.getAttribute("aria-expanded") !== "true";
      b.setAttribute("aria-expanded", String(open));
      b.textContent = arr.length + (arr.length === 1 ? " row" : " rows") + (open ? " \u25be" : " \u25b8");
      if (!table) table = box.appendChild(miniTable(arr));
      table.hidden = !open;
    });
    box.appendChild(b);
    if (open) b.click();
    else if (drawFolded()) (table = box.appendChild(miniTable(arr))).hidden = true;
    return box;
  }

  /* The nodes of a tree whose children are under key, counted to SMALL_TREE + 1 at most. */
  function treeSize(nodes, key) {
    var n = 0;
    (function walk(a) {
      a.forEach(function (x) {
        if (n > SMALL_TREE) return;
        n++;
        if (isObj(x) && Array.isArray(x[key])) walk(x[key]);
      });
    })(nodes);
    return n;
  }

  /* A short text of a value for summaries: scalars as they are (markdown source read, mdRead), arrays and objects by their size. */
  function brief(v) {
    if (v === null || v === undefined) return EMPTY;
    if (Array.isArray(v)) return v.every((x) => x === null || typeof x !== "object") ? v.map(brief).join(", ") : v.length + (v.length === 1 ? " item" : " items");
    if (isObj(v)) { var k = LABEL_KEYS.filter((x) => v[x] !== undefined && typeof v[x] !== "object")[0]; return k ? String(v[k]) : Object.keys(v).length + " fields"; }
    if (typeof v === "boolean") return v ? "\u2713" : "\u2717";
    return typeof v === "string" ? mdRead(v) : String(v);
  }

  /*
   * mdRead is a text of several lines that reads as markdown source (a note,
   * a search hit's excerpt across lines: mdCellText on its first lines) as a
   * reader sees it, on the one line of a summary: its markers read (a
   * heading's #, a list's bullet, a quote's >, a link's target, backticks),
   * a task's box as a ticked or empty box. Other text (one line, code, no
   * markdown renderer) is returned as it is; the whole value is in the
   * object's card.
   */
  var BLOCK_TAG_RE = /^(?:P|H[1-6]|LI|UL|OL|BLOCKQUOTE|PRE|DIV|TABLE|TR|TD|TH|HR|BR)$/;
  function mdRead(v) {
    if (v.indexOf("\n") < 0 || !hooks.mdLine) return v;
    var lines = v.slice(0, MD_CELL_CHARS).split("\n");
    if (v.length > MD_CELL_CHARS && lines.length > 1) lines.pop();
    var head = lines.slice(0, MD_CELL_LINES).join("\n");
    if (!mdCellText(head)) return v;
    var out = [];
    (function walk(n) {
      n.childNodes.forEach(function (c) {
        if (c.nodeType === 3) { out.push(c.nodeValue); return; }
        if (c.tagName === "INPUT") { out.push(c.checked ? "\u2611 " : "\u2610 "); return; }
        var block = BLOCK_TAG_RE.test(c.tagName);
        if (block) out.push(" ");
        walk(c);
        if (block) out.push(" ");
      });
    })(hooks.mdLine(head));
    return squashSpace(out.join("")) + (head.length < v.length ? " \u2026" : "");
  }

  /* An object in a cell: `key value · key value`, clamped; a click unfolds it into a card of every field. */
  function objectValue(o) {
    var keys = Object.keys(o);
    if (!keys.length) { var e = el("span", "empty", EMPTY); e.title = "empty object"; return e; }
    var sum = el("span", "obj");
    keys.forEach(function (k, i) {
      if (i) sum.appendChild(DOC.createTextNode(" \u00b7 "));
      sum.appendChild(el("span", "k", k));
      sum.appendChild(DOC.createTextNode(" " + cellText(brief(o[k]))));
    });
    var nested = keys.some((k) => o[k] !== null && typeof o[k] === "object");
    if (!nested && sum.textContent.length <= LONG_TEXT) return sum;
    var d = el("div", "clamp obj-fold");
    d.appendChild(sum);
    d.tabIndex = 0;
    d.setAttribute("role", "button");
    d.setAttribute("aria-expanded", "false");
    d.title = "Show every field";
    var card = null;
    var drawCard = function () {
      card = el("div", "obj-card");
      var less = el("button", "more-items", "Less");
      less.type = "button";
      less.addEventListener("click", function (ev) {
        ev.stopPropagation();
        d.classList.remove("open");
        d.setAttribute("aria-expanded", "false");
        card.hidden = true;
        sum.hidden = false;
      });
      card.append(renderCard(o, null, 1), less);
      return d.appendChild(card);
    };
    if (drawFolded()) drawCard().hidden = true;
    var open = function () {
      if (d.classList.contains("open")) return;
      d.classList.add("open");
      d.setAttribute("aria-expanded", "true");
      (card || drawCard()).hidden = false;
      sum.hidden = true;
    };
    d.addEventListener("click", open);
    d.addEventListener("keydown", function (ev) { if (ev.target === d && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); open(); } });
    return d;
  }

  /* A data: URI for v when it is an image: a data: URI itself, or bare base64 of a PNG, JPEG, GIF or WebP. */
  function imageURI(v) {
    if (typeof v !== "string" || v.length > MEDIA_LIMIT) return null;
    if (DATA_IMAGE_RE.test(v)) return v;
    if (v.length < 32 || !/^[A-Za-z0-9+\/]+={0,2}$/.test(v)) return null;
    for (var p in B64_IMAGE) if (v.indexOf(p) === 0) return "data:image/" + B64_IMAGE[p] + ";base64," + v;
    return null;
  }

  /*
   * Long cell text clamped to two lines by its style; a click (or Enter)
   * shows all of it, another folds it again. A string longer than a cell's
   * limit is drawn whole in the clamp (up to CLAMP_LIMIT), the style doing
   * the clamping, so what the click opens is the text already there.
   */
  function expandable(text, full) {
    var tip = text;
    if (full && full.length > text.length) text = full.length > CLAMP_LIMIT ? full.slice(0, CLAMP_LIMIT) + "…" : full;
    var d = el("div", "clamp", text);
    d.title = tip;
    d.tabIndex = 0;
    d.setAttribute("role", "button");
    d.setAttribute("aria-expanded", "false");
    var toggle = function (ev) {
      if (ev && ev.stopPropagation) ev.stopPropagation();
      var open = !d.classList.contains("open");
      d.classList.toggle("open", open);
      d.setAttribute("aria-expanded", String(open));
      d.textContent = open && full ? full.slice(0, 100 * 1024) : text;
    };
    d.addEventListener("click", toggle);
    d.addEventListener("keydown", function (ev) { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); toggle(ev); } });
    return d;
  }

  function sortValue(v, type) {
    if (v === null || v === undefined || v === "") return null;
    switch (type) {
      case "number": case "quantity": {
        var n = typeof v === "number" ? v : Number(v);
        if (isNaN(n)) { var q = quantity(v); n = q ? q.n : NaN; }
        return isNaN(n) ? null : n;
      }
      case "date": { var d = Date.parse(v); return isNaN(d) ? null : d; }
      case "month": { var m = String(v).trim().match(MONTH_RE); return m ? (m[2] ? Number(m[2]) * 12 : 0) + MONTHS.indexOf(m[1].toLowerCase()) : null; }
      case "boolean": return v === true || v === "true" ? 1 : 0;
      case "json": return cellText(v);
      default: return String(v);
    }
  }

  var collator = typeof Intl !== "undefined" ? new Intl.Collator(undefined, { numeric: true, sensitivity: "base" }) : null;

  /* Sorts rows by column col ("asc"|"desc"); empty values always last; stable. */
  function sortRows(rows, col, dir) {
    var sign = dir === "desc" ? -1 : 1;
    var keyed = rows.map(function (r, i) { return { r: r, v: sortValue(r[col.key], col.type), i: i }; });
    var textual = col.type === "string" || col.type === "json";
    keyed.sort(function (a, b) {
      if (a.v === null || b.v === null) return a.v === b.v ? a.i - b.i : (a.v === null ? 1 : -1);
      var c = textual ? (collator ? collator.compare(a.v, b.v) : (a.v < b.v ? -1 : a.v > b.v ? 1 : 0)) : a.v - b.v;
      return c !== 0 ? sign * c : a.i - b.i;
    });
    return keyed.map((k) => k.r);
  }

  function csvCell(v) {
    if (v === null || v === undefined) return "";
    var s = typeof v === "object" ? JSON.stringify(v) : String(v);
    // Spreadsheet formula guard for text cells (numbers are left alone).
    if (typeof v === "string" && /^[=+@\t\r]|^-(?![\d.])/.test(s)) s = "'" + s;
    return /[",\r\n]/.test(s) ? "\"" + s.replace(/"/g, "\"\"") + "\"" : s;
  }

  /* CSV (RFC 4180, CRLF) of rows over columns cols, header first. */
  function toCSV(rows, cols) {
    var lines = [cols.map((c) => csvCell(c.key)).join(",")];
    rows.forEach(function (r) { lines.push(cols.map((c) => csvCell(r[c.key])).join(",")); });
    return lines.join("\r\n") + "\r\n";
  }

  /* ---------- card ---------- */

  /*
   * A key/value card for obj; nested objects become nested cards (two
   * levels), then a fold; arrays of records become tables at every level.
   */
  function renderCard(obj, keys, depth) {
    var dl = el("dl", depth ? "card nested" : "card");
    (keys || Object.keys(obj)).forEach(function (k) {
      var v = obj[k];
      var dd = el("dd");
      var dt = dl.appendChild(el("dt", "", hooks.label ? hooks.label(k) : k));
      // Records drawn as a table say how many they are.
      if (isRecordArray(v)) dt.appendChild(el("span", "count", " (" + v.length + ")"));
      var zipped = columnarRecords(v);
      if (zipped) dt.appendChild(el("span", "count", " (" + zipped.length + ")"));
      if (zipped) dd.appendChild(miniTable(zipped));
      else if (isObj(v) && depth < 2 && Object.keys(v).length) dd.appendChild(renderCard(v, null, depth + 1));
      else if (v === null || v === undefined || typeof v === "number" || typeof v === "boolean" || imageURI(v) || isHash(v) || (typeof v === "string" && v.length > 10 && DATE_RE.test(v))) fillValue(dd, v, typeof v === "number" ? numberFormat([obj], k) : null);
      else if (Array.isArray(v) && v.every((x) => x === null || typeof x !== "object")) dd.appendChild(listValue(v));
      else if (isRecordArray(v)) dd.appendChild(miniTable(v));
      else if (typeof v === "string" && hooks.text && (v.length > 160 || v.indexOf("\n") >= 0)) dd.appendChild(hooks.text(v, k));
      else if (v !== null && typeof v === "object") fillValue(dd, v, null);
      else {
        dd.textContent = cellText(v);
        markupAsCode(dd, v);
      }
      dl.appendChild(dd);
    });
    return dl;
  }

  /*
   * Records held as columns: an object of two or more lists of scalars of one
   * length (an hourly forecast's {time: [...], temperature: [...], ...}),
   * zipped into one record per position so that they read as rows; else null.
   */
  function columnarRecords(v) {
    if (!isObj(v)) return null;
    var keys = Object.keys(v), n = -1;
    if (keys.length < 2) return null;
    for (var i = 0; i < keys.length; i++) {
      var a = v[keys[i]];
      if (!Array.isArray(a) || a.length < 2 || (n >= 0 && a.length !== n) || !a.every((x) => x === null || typeof x !== "object")) return null;
      n = a.length;
    }
    // The column of times (or dates) the rows are at leads, whatever its place in the object.
    var at = keys.filter((k) => v[k].every((x) => typeof x === "string" && DATE_RE.test(x)));
    at.sort((a, b) => Number(!/^(?:time|date|day|timestamp|datetime)s?$/i.test(a)) - Number(!/^(?:time|date|day|timestamp|datetime)s?$/i.test(b)));
    keys = at.slice(0, 1).concat(keys.filter((k) => k !== at[0]));
    var out = [];
    for (var j = 0; j < n; j++) {
      var r = {};
      keys.forEach(function (k) { r[k] = v[k][j]; });
      out.push(r);
    }
    return out;
  }

  /* A plain table of a few records inside a card (no toolbar); the first 100 rows. */
  function miniTable(records) {
    var cols = columnsOf(records, null, {}).all, box = el("div", "mini-table"), wrap = el("div", "table-wrap mini"), t = el("table", "data"), tr = el("tr");
    cols.forEach(function (c) { tr.appendChild(el("th", c.type === "number" ? "num" : "", c.key)); });
    var thead = el("thead"), tbody = el("tbody");
    thead.appendChild(tr);
    records.slice(0, 100).forEach(function (r) {
      var row = el("tr");
      cols.forEach(function (c) {
        var td = el("td", c.type === "number" ? "num" : "");
        td.dataset.label = c.key;
        var v = isObj(r) ? r[c.key] : undefined;
        // A tree's children in a sub-table of a small tree are in sight, as a small tree is drawn open.
        if (TREE_KEYS.indexOf(c.key) >= 0 && isRecordArray(v) && treeSize(v, c.key) <= SMALL_TREE) td.appendChild(recordsValue(v, true));
        else fillValue(td, v, null);
        row.appendChild(td);
      });
      tbody.appendChild(row);
    });
    t.appendChild(thead);
    t.appendChild(tbody);
    wrap.appendChild(t);
    box.appendChild(wrap);
    if (records.length > 100) box.appendChild(el("div", "note", "First 100 of " + records.length + " rows."));
    stackWhenNarrow(box, wrap, t, null, null);
    return box;
  }

  /*
   * stackWhenNarrow keeps a table readable in a narrow host: when its box is
   * narrower than NARROW px and the table wider than the box, root gets the
   * class "stacked" (each row a block of "column value" lines, the headers
   * a row of sort buttons), so no column is out of sight; wider again, it is
   * a table. force() may return "table" or "stacked" (the user's choice).
   * Returns fit(), to call after the rows change.
   */
  function stackWhenNarrow(root, wrap, table, force, onChange) {
    var fit = function () {
      var w = wrap.clientWidth;
      if (!w) return;
      var f = force ? force() : "";
      root.classList.remove("stacked");
      var overflows = table.scrollWidth > w + 4, stacked = f ? f === "stacked" : w < NARROW && overflows;
      root.classList.toggle("stacked", stacked);
      if (onChange) onChange(stacked, overflows || w < NARROW);
    };
    if (typeof ResizeObserver !== "undefined") {
      var last = -1;
      new ResizeObserver(function () { var w = wrap.clientWidth; if (w !== last) { last = w; fit(); } }).observe(wrap);
    }
    return fit;
  }

  /* Hooks the renderer sets: text(value, key) draws a long string value. */
  var hooks = {};

  /* ---------- chart ---------- */

  function monotonic(records, col) {
    var prev = null, dir = 0;
    for (var i = 0; i < records.length; i++) {
      var v = sortValue(records[i][col.key], col.type);
      if (v === null) return false;
      if (prev !== null) {
        var d = v > prev ? 1 : v < prev ? -1 : 0;
        if (d === 0 || (dir !== 0 && d !== dir)) return false;
        dir = d;
      }
      prev = v;
    }
    return records.length >= 2;
  }

  function numeric(c) { return c.type === "number" || c.type === "quantity"; }

  /* A column's unit as its name says it (precipitation_mm, wind_kph, tempC, load_pct): the last
     word when it is a unit, else "". */
  var UNIT_WORDS = /^(?:c|f|k|celsius|fahrenheit|kelvin|degc|degf|mm|cm|m|km|in|inch|inches|ft|mi|miles|kph|kmh|mph|knots|ms|s|sec|secs|seconds|min|mins|minutes|h|hr|hrs|hours|days|pct|percent|kb|mb|gb|tb|bytes|kg|g|lb|lbs|oz|usd|eur|gbp|w|kw|kwh|mw|v|a|hz|mhz|ghz|hpa|mbar|bar|psi|l|ml|fps|rpm|db)$/;
  function nameUnit(key) {
    var words = String(key).replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(/[\s_\-.]+/).filter(Boolean);
    var last = words.length > 1 ? words[words.length - 1].toLowerCase() : "";
    return UNIT_WORDS.test(last) ? last : "";
  }

  /* The largest magnitude in a column (0 when none). */
  function maxAbs(records, c) {
    var m = 0;
    records.forEach(function (r) {
      var v = isObj(r) ? sortValue(r[c.key], c.type) : null;
      if (v !== null && isFinite(v)) m = Math.max(m, Math.abs(v));
    });
    return m;
  }

  /*
   * Splits y columns into the axes they can share: one unit each (the value's
   * own unit family, else the unit the column's name ends in), and among
   * columns of no known unit, magnitudes within 20x of each other (0-2 and
   * 10^6 on one axis flatten the first to a line). At most two groups (a
   * chart each), six series in all.
   */
  function unitGroups(records, ys) {
    var groups = [];
    ys.forEach(function (c) {
      var unit = (c.unit || "") + "|" + nameUnit(c.key), mag = maxAbs(records, c);
      var g = groups.filter(function (g) {
        if (g.unit !== unit) return false;
        if (unit !== "|" || !mag || !g.mag) return true;
        return Math.max(mag, g.mag) / Math.min(mag, g.mag) <= 20;
      })[0];
      if (!g) { g = { unit: unit, mag: mag, ys: [] }; groups.push(g); }
      g.ys.push(c);
    });
    var left = 6;
    return groups.slice(0, 2).map(function (g) { var out = g.ys.slice(0, Math.max(1, left)); left -= out.length; return out; });
  }

  /*
   * Chooses the chart's x and y columns: cfg.chartX/chartY when they name
   * columns, else the first date column (or month names, or an ordinal
   * number column such as year, week or step) and every numeric non-id
   * column (human sizes, durations and percentages are numbers), up to six
   * series. Columns of another unit or scale than the first get a second
   * chart (unitGroups: spec.more), never the first one's axis. Without cfg
   * (auto), a chart is only drawn for a series: the x values must be
   * strictly monotonic. kind is cfg.chart, else "bar" for a forced chart
   * over categories, else "line". Returns {x, ys, kind, more} or {reason}.
   */
  function chartSpec(records, cols, cfg, forced) {
    var find = (name) => name ? cols.byNorm[norm(name)] : null;
    var x = find(cfg.chartX);
    if (cfg.chartX && !x) return { reason: "chart x field \"" + cfg.chartX + "\" is not in the result" };
    var of = (pred) => cols.all.filter(pred)[0];
    if (!x) x = of((c) => c.type === "date") || of((c) => c.type === "month") ||
      of((c) => c.type === "number" && ORDINAL_RE.test(c.key));
    if (!x && forced) {
      // Categories: the text column that tells rows apart best (name, not a type of two values).
      var distinct = (c) => new Set(records.slice(0, 200).map((r) => isObj(r) ? cellText(r[c.key]) : "")).size;
      x = cols.all.filter((c) => c.type === "string").reduce((best, c) => !best || distinct(c) > distinct(best) ? c : best, null) || cols.all[0];
    }
    if (!x) return { reason: "no date or ordinal field for the x axis" };
    var ys = [];
    (cfg.chartY || []).forEach(function (n) {
      var c = find(n);
      if (c && numeric(c) && ys.indexOf(c) < 0) ys.push(c);
    });
    if (cfg.chartY && cfg.chartY.length && !ys.length) return { reason: "chart y field " + cfg.chartY.join(", ") + " is not a numeric field of the result" };
    if (!ys.length) {
      var num = cols.all.filter((c) => numeric(c) && c !== x && !ID_RE.test(c.key) && !ORDINAL_RE.test(c.key));
      if (num.length) ys = num;
    }
    if (!ys.length) return { reason: "no numeric field for the y axis" };
    var groups = unitGroups(records, ys);
    ys = groups[0];
    var series = x.type === "date" || x.type === "month" || x.type === "number";
    if (!forced && !(series && monotonic(records, x))) return { reason: "not a series" };
    // Rows with their own ids are records (orders, events), not measurements over x:
    // a line through them is a sawtooth, so no chart unless asked for.
    if (!forced && cols.all.some(function (c) {
      if (c === x || !ID_RE.test(c.key)) return false;
      var seen = new Set(records.map((r) => isObj(r) ? cellText(r[c.key]) : ""));
      return seen.size === records.length;
    })) return { reason: "the rows are records with ids, not a series" };
    var kind = cfg.chart || (forced && !series ? "bar" : "line");
    if (kind === "bar" && records.length > 120) kind = "line";
    return { x: x, ys: ys, kind: kind, more: groups[1] || null };
  }

  /* The chart of spec, and a second one below it for the columns of another unit (spec.more). */
  function renderCharts(records, spec, host) {
    if (!spec.more) return renderChart(records, spec, host);
    var both = el("div", "charts");
    both.appendChild(renderChart(records, spec, host));
    both.appendChild(renderChart(records, { x: spec.x, ys: spec.more, kind: spec.kind }, host));
    return both;
  }

  function fmtNum(n) {
    var a = Math.abs(n);
    if (a !== 0 && (a >= 1e7 || a < 1e-3)) return n.toExponential(1);
    if (typeof Intl !== "undefined") return new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 }).format(n);
    return String(Math.round(n * 100) / 100);
  }

  /* An axis label of n: short (1.2k, 3.4M), in the unit of the series (bytes as KB/MB/GB, seconds, %, currency). */
  function axisLabel(n, unit) {
    var a = Math.abs(n), r = (x) => String(Math.round(x * 10) / 10);
    if (unit === "bytes") {
      var u = ["B", "KB", "MB", "GB", "TB", "PB"], i = 0;
      while (a >= 1024 && i < u.length - 1) { a /= 1024; n /= 1024; i++; }
      return r(n) + " " + u[i];
    }
    if (unit === "time") return a && a < 1 ? r(n * 1000) + " ms" : a >= 7200 ? r(n / 3600) + " h" : a >= 120 ? r(n / 60) + " min" : r(n) + " s";
    var s = a >= 1e9 ? r(n / 1e9) + "B" : a >= 1e6 ? r(n / 1e6) + "M" : a >= 1e4 ? r(n / 1e3) + "k" : fmtNum(n);
    return unit === "%" ? s + "%" : unit ? unit + s : s;
  }

  /* An x label: ISO dates shortened (the year dropped when all share it), long text cut to 14 characters. */
  function xLabel(v, col, sameYear) {
    var t = cellText(v);
    if (col.type === "date") {
      var m = t.match(/^(\d{4})-(\d{2})(?:-(\d{2}))?/);
      if (m) {
        var mon = MONTHS[Number(m[2]) - 1];
        t = mon ? mon.charAt(0).toUpperCase() + mon.slice(1) + (m[3] ? " " + Number(m[3]) : "") + (sameYear && m[3] ? "" : " " + m[1]) : t;
      }
    }
    return t.length > 14 ? t.slice(0, 13) + "\u2026" : t;
  }

  /* Round axis ticks (1, 2, 2.5 or 5 times a power of ten) covering lo..hi: {lo, hi, step}. */
  function niceTicks(lo, hi, count) {
    var raw = (hi - lo) / Math.max(1, count), mag = Math.pow(10, Math.floor(Math.log10(raw))), step = mag * 10;
    [1, 2, 2.5, 5, 10].some(function (m) { if (m * mag >= raw) { step = m * mag; return true; } return false; });
    return { lo: Math.floor(lo / step) * step, hi: Math.ceil(hi / step) * step, step: step };
  }

  /*
   * An inline SVG chart drawn at the width of host (so its 11 px text stays
   * 11 px): a line with one circle per record and series, or bars (grouped
   * per series), a legend of every series. x labels that do not fit are
   * thinned (bar labels rotated first), y labels abbreviated in the unit.
   */
  function renderChart(records, spec, host) {
    var box = (host && host.clientWidth ? host : null) || DOC.getElementById("result") || DOC.body;
    var W = Math.round(Math.max(240, Math.min(760, (box && box.clientWidth) || 640)));
    var H = Math.round(Math.max(170, Math.min(240, W * 0.36))), R = 14, T = 10, B = 26, CH = 6.4; // CH: px per character at 11 px
    var xs = spec.x, bar = spec.kind === "bar", numericX = !bar && (xs.type === "date" || xs.type === "number" || xs.type === "month");
    var unit = spec.unit !== undefined ? spec.unit : spec.ys[0].unit || "", suffix = spec.unitSuffix || "";
    var rows = numericX || (bar && xs.type !== "string") ? sortRows(records, xs, "asc") : records.slice();
    var xv = rows.map((r, i) => numericX ? sortValue(r[xs.key], xs.type) : i);
    var lo = bar ? 0 : Infinity, hi = bar ? 0 : -Infinity;
    spec.ys.forEach(function (c) {
      rows.forEach(function (r) {
        var v = sortValue(r[c.key], c.type);
        if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
      });
    });
    var xlo = Infinity, xhi = -Infinity;
    xv.forEach(function (v) { if (v !== null) { xlo = Math.min(xlo, v); xhi = Math.max(xhi, v); } });
    if (lo === Infinity || xlo === Infinity || (bar && lo === 0 && hi === 0 && !rows.length)) return el("div", "note", "Nothing to chart: no numeric values.");
    if (lo === hi) { lo -= 1; hi += 1; }
    if (xlo === xhi) { xlo -= 1; xhi += 1; }
    // Ticks round in the unit shown: 10 GB steps, not 10^9 bytes.
    var scale = 1, big = Math.max(Math.abs(lo), Math.abs(hi));
    if (unit === "bytes") while (big / scale >= 1024 && scale < Math.pow(1024, 5)) scale *= 1024;
    else if (unit === "time") scale = big >= 7200 ? 3600 : big >= 120 ? 60 : big && big < 1 ? 0.001 : 1;
    var ticksY = niceTicks(lo / scale, hi / scale, H < 200 ? 3 : 4);
    ticksY = { lo: ticksY.lo * scale, hi: ticksY.hi * scale, step: ticksY.step * scale };
    lo = ticksY.lo; hi = ticksY.hi;
    var yTicks = [];
    for (var v = lo; v <= hi + ticksY.step / 2; v += ticksY.step) yTicks.push(v);
    var L = Math.round(Math.min(90, Math.max(30, Math.max.apply(null, yTicks.map((t) => (axisLabel(t, unit) + suffix).length)) * CH + 10)));
    // x labels: every one when they fit side by side, else every k-th; bar labels rotate before they thin.
    var years = {};
    rows.forEach(function (r) { var m = cellText(r[xs.key]).match(/^(\d{4})-/); if (m) years[m[1]] = 1; });
    var labels = rows.map((r) => xLabel(r[xs.key], xs, Object.keys(years).length === 1));
    var plotW = W - L - R, longest = Math.max.apply(null, labels.map((t) => t.length).concat([1])), rotate = false;
    var every = Math.max(1, Math.ceil(rows.length * (longest * CH + 10) / plotW));
    if (bar && every > 1 && rows.length * 16 <= plotW) { rotate = true; every = 1; B = Math.round(Math.min(96, 18 + longest * CH * 0.7)); H += B - 26; }
    var band = plotW / Math.max(1, rows.length);
    var sx = bar ? (i) => L + (i + 0.5) * band : (v) => L + (v - xlo) / (xhi - xlo) * plotW;
    var sy = (v) => T + (1 - (v - lo) / (hi - lo)) * (H - T - B);
    var label = (bar ? "Bar" : "Line") + " chart of " + (spec.yLabel || spec.ys.map((c) => c.key).join(", ")) + " by " + (spec.xLabel || xs.key);
    var svg = svgEl("svg", { viewBox: "0 0 " + W + " " + H, class: "chart " + (bar ? "bar" : "line"), role: "img", "aria-label": label, preserveAspectRatio: "xMidYMid meet" });
    svg.appendChild(svgEl("title", {}, label));
    var grid = svgEl("g", { class: "grid" });
    yTicks.forEach(function (t) {
      var y = sy(t);
      grid.appendChild(svgEl("line", { x1: L, x2: W - R, y1: y, y2: y }));
      grid.appendChild(svgEl("text", { x: L - 6, y: y + 4, "text-anchor": "end" }, axisLabel(t, unit) + suffix));
    });
    var ticks = [];
    for (var i = 0; i < rows.length; i += every) ticks.push(i);
    // The last label when it does not crowd the one before it.
    if (ticks[ticks.length - 1] !== rows.length - 1 && (rows.length - 1 - ticks[ticks.length - 1]) * plotW / Math.max(1, rows.length) > longest * CH + 10) ticks.push(rows.length - 1);
    ticks.forEach(function (i, n) {
      if (xv[i] === null) return;
      var x = sx(xv[i]), y = H - B + 16;
      var anchor = rotate ? "end" : bar || ticks.length > 3 ? "middle" : n === 0 ? "start" : n === ticks.length - 1 ? "end" : "middle";
      if (!rotate && anchor === "middle") x = Math.max(L + labels[i].length * CH / 2, Math.min(W - labels[i].length * CH / 2, x));
      var attrs = { x: x.toFixed(1), y: y, "text-anchor": anchor };
      if (rotate) { attrs.y = H - B + 12; attrs.transform = "rotate(-40 " + x.toFixed(1) + " " + (H - B + 12) + ")"; }
      var tx = svgEl("text", attrs, labels[i]);
      if (labels[i] !== cellText(rows[i][xs.key])) tx.appendChild(svgEl("title", {}, cellText(rows[i][xs.key])));
      grid.appendChild(tx);
    });
    svg.appendChild(grid);
    var bw = band * 0.8 / spec.ys.length, base = sy(Math.max(lo, Math.min(0, hi)));
    spec.ys.forEach(function (c, si) {
      var g = svgEl("g", { class: "series s" + (si % 6), "data-field": c.key });
      var d = "";
      rows.forEach(function (r, i) {
        var v = sortValue(r[c.key], c.type);
        if (v === null || xv[i] === null) return;
        var tip = svgEl("title", {}, cellText(r[xs.key]) + ": " + c.key + " " + cellText(r[c.key])), mark;
        if (bar) {
          var top = sy(v);
          mark = svgEl("rect", { class: "bar", x: (L + i * band + band * 0.1 + si * bw).toFixed(1), y: Math.min(top, base).toFixed(1), width: Math.max(1, bw - 1).toFixed(1), height: Math.max(1, Math.abs(base - top)).toFixed(1) });
        } else {
          var px = sx(xv[i]), py = sy(v);
          d += (d ? " L" : "M") + px.toFixed(1) + " " + py.toFixed(1);
          mark = svgEl("circle", { class: "pt", cx: px.toFixed(1), cy: py.toFixed(1), r: rows.length > 60 ? 2 : 3 });
        }
        mark.appendChild(tip);
        g.appendChild(mark);
      });
      if (!bar) g.insertBefore(svgEl("path", { d: d, fill: "none" }), g.firstChild);
      svg.appendChild(g);
    });
    var wrap = el("figure", "chart-wrap");
    wrap.appendChild(svg);
    var cap = el("figcaption", "legend");
    spec.ys.forEach(function (c, si) {
      var item = el("span", "key s" + (si % 6));
      item.appendChild(el("span", "swatch"));
      item.appendChild(DOC.createTextNode(c.key));
      cap.appendChild(item);
    });
    cap.appendChild(el("span", "by", "by " + xs.key));
    wrap.appendChild(cap);
    return wrap;
  }

  /* ---------- collection: table, cards or list with filter, sort, paging, CSV ---------- */

  function pagingArgs(schema) {
    var props = isObj(schema) && isObj(schema.properties) ? schema.properties : {};
    var pick = function (names, types) {
      for (var i = 0; i < names.length; i++) {
        var p = props[names[i]];
        if (isObj(p) && (!p.type || types.indexOf(Array.isArray(p.type) ? p.type[0] : p.type) >= 0)) return names[i];
      }
      return null;
    };
    var limit = pick(LIMIT_ARGS, ["integer", "number"]), offset = pick(OFFSET_ARGS, ["integer", "number"]);
    if (!limit || !offset) return null;
    var max = props[limit].maximum;
    return { limit: limit, offset: offset, sort: pick(SORT_ARGS, ["string"]), max: typeof max === "number" && max > 0 ? max : Infinity };
  }

  function totalOf(parent) {
    if (!isObj(parent)) return null;
    for (var i = 0; i < TOTAL_KEYS.length; i++) if (typeof parent[TOTAL_KEYS[i]] === "number") return parent[TOTAL_KEYS[i]];
    return null;
  }

  /*
   * Collection shows records as a table (sortable headers), cards or a list,
   * with a text filter, a pager, a page size select and a CSV download of the
   * visible page. In remote mode (opts.remote) pages and sorting come from
   * calling the tool again; otherwise everything is local.
   */
  function Collection(opts) {
    var self = this;
    this.o = opts;
    this.kind = opts.kind;
    this.cols = opts.cols;
    this.remote = opts.remote;
    this.all = opts.records;               // local: every row; remote: this page's rows
    this.total = opts.remote ? opts.remote.total : opts.records.length;
    this.offset = opts.remote ? opts.remote.offset : 0;
    this.pageSize = opts.pageSize;
    this.sort = null;                      // {col, dir}
    this.filter = "";
    this.seq = 0;
    this.root = el("div", "collection " + this.kind);
    this.root.dataset.mode = this.remote ? "remote" : "local";
    var bar = el("div", "toolbar");
    this.filterInput = el("input", "filter");
    this.filterInput.type = "search";
    this.filterInput.placeholder = this.remote ? "Filter this page" : "Filter rows";
    this.filterInput.setAttribute("aria-label", this.filterInput.placeholder);
    this.filterInput.addEventListener("input", function () { self.filter = self.filterInput.value.trim().toLowerCase(); if (!self.remote) self.offset = 0; self.draw(); });
    bar.appendChild(this.filterInput);
    this.prev = el("button", "secondary prev", "‹ Prev");
    this.next = el("button", "secondary next", "Next ›");
    this.prev.type = this.next.type = "button";
    this.prev.addEventListener("click", function () { self.go(self.offset - self.pageSize); });
    this.next.addEventListener("click", function () { self.go(self.offset + self.pageSize); });
    this.info = el("span", "page-info");
    this.sizeSel = el("select", "page-size");
    this.sizeSel.setAttribute("aria-label", "Rows per page");
    var sizes = PAGE_SIZES.slice();
    if (sizes.indexOf(this.pageSize) < 0) sizes.push(this.pageSize);
    sizes.sort((a, b) => a - b).forEach(function (n) {
      if (self.remote && n > self.remote.args.max) return;
      var o = el("option", "", n + " / page");
      o.value = String(n);
      self.sizeSel.appendChild(o);
    });
    this.sizeSel.value = String(this.pageSize);
    this.sizeSel.addEventListener("change", function () { self.pageSize = Number(self.sizeSel.value); self.go(Math.floor(self.offset / self.pageSize) * self.pageSize, true); });
    this.csvBtn = el("button", "secondary csv", "Download CSV");
    this.csvBtn.type = "button";
    this.csvLink = el("a", "csv-link");
    this.csvLink.hidden = true;
    this.csvBtn.addEventListener("click", function () { self.downloadCSV(); });
    this.pager = el("span", "pager");
    [this.prev, this.info, this.next].forEach(function (e) { self.pager.appendChild(e); });
    // Rows as a table or stacked (every column in sight in a narrow host); which columns to show.
    this.layout = "";
    this.layoutBtn = el("button", "secondary layout", "As cards");
    this.layoutBtn.type = "button";
    this.layoutBtn.hidden = true;
    this.layoutBtn.addEventListener("click", function () { self.layout = self.root.classList.contains("stacked") ? "table" : "stacked"; if (self.fit) self.fit(); });
    this.chooser = this.kind === "table" && (this.cols.all.length > 5 || this.cols.shown.length < this.cols.all.length) ? this.buildChooser() : null;
    [this.pager, this.sizeSel, this.layoutBtn, this.chooser, this.csvBtn, this.csvLink].forEach(function (e) { if (e) bar.appendChild(e); });
    this.bar = bar;
    this.root.appendChild(bar);
    this.err = el("div", "error-banner");
    this.err.hidden = true;
    this.root.appendChild(this.err);
    this.body = el("div", "body");
    this.root.appendChild(this.body);
    if (this.kind === "table") this.buildTable();
    this.notes = el("div", "note");
    this.root.appendChild(this.notes);
  }

  Collection.prototype.buildTable = function () {
    var self = this;
    var wrap = el("div", "table-wrap");
    var table = el("table", "data");
    var tr = el("tr");
    this.ths = this.cols.shown.map(function (c) {
      var th = el("th", c.type === "number" || c.type === "quantity" ? "num" : c.role === "primary" ? "primary" : "");
      th.dataset.key = c.key;
      th.dataset.type = c.type;
      var b = el("button", "sort", hooks.label ? hooks.label(c.key) : c.key);
      if (hooks.width && hooks.width(c.key)) th.style.width = th.style.minWidth = hooks.width(c.key) + "px";
      b.type = "button";
      b.title = "Sort by " + c.key + " (" + c.type + ")";
      // The whole header cell sorts; the button is there for the keyboard (its click bubbles here).
      th.addEventListener("click", function () { self.sortBy(c); });
      th.appendChild(b);
      tr.appendChild(th);
      return th;
    });
    var thead = el("thead");
    thead.appendChild(tr);
    table.appendChild(thead);
    this.tbody = el("tbody");
    table.appendChild(this.tbody);
    wrap.appendChild(table);
    this.body.appendChild(wrap);
    this.fit = stackWhenNarrow(this.root, wrap, table, function () { return self.layout; }, function (stacked, overflows) {
      // The choice is offered where it matters: a narrow host, or a table wider than its box.
      self.layoutBtn.hidden = !(stacked || overflows || self.layout);
      self.layoutBtn.textContent = stacked ? "As table" : "As cards";
      self.layoutBtn.setAttribute("aria-pressed", String(stacked));
    });
  };

  /* A "Columns n/m" fold with a checkbox per column: the shown columns, in their order. */
  Collection.prototype.buildChooser = function () {
    var self = this, d = el("details", "col-chooser"), sum = el("summary", "secondary"), list = el("div", "col-list");
    var label = function () { sum.textContent = "Columns " + self.cols.shown.length + "/" + self.cols.all.length; };
    this.cols.all.forEach(function (c) {
      var lab = el("label"), cb = el("input");
      cb.type = "checkbox";
      cb.checked = self.cols.shown.indexOf(c) >= 0;
      cb.dataset.key = c.key;
      cb.addEventListener("change", function () {
        var on = Array.prototype.filter.call(list.querySelectorAll("input"), (x) => x.checked).map((x) => x.dataset.key);
        if (!on.length) { cb.checked = true; return; }
        self.cols.shown = self.cols.all.filter((x) => on.indexOf(x.key) >= 0);
        self.formats = null;
        self.body.replaceChildren();
        self.buildTable();
        self.draw();
        label();
      });
      lab.appendChild(cb);
      lab.appendChild(DOC.createTextNode(c.key));
      list.appendChild(lab);
    });
    label();
    d.appendChild(sum);
    d.appendChild(list);
    return d;
  };

  /* The rows of the current page after sorting and filtering. */
  Collection.prototype.visible = function () {
    var rows = this.all;
    if (this.sort && !(this.remote && this.remote.args.sort)) rows = sortRows(rows, this.sort.col, this.sort.dir);
    if (this.filter) {
      var f = this.filter, cols = this.cols.shown;
      rows = rows.filter(function (r) {
        return cols.some((c) => cellText(r[c.key]).toLowerCase().indexOf(f) >= 0);
      });
    }
    if (this.remote) return rows.slice(0, this.pageSize);
    this.matched = rows.length;
    return rows.slice(this.offset, this.offset + this.pageSize);
  };

  Collection.prototype.sortBy = function (col) {
    var dir = this.sort && this.sort.col === col && this.sort.dir === "asc" ? "desc" : "asc";
    this.sort = { col: col, dir: dir };
    if (this.remote && this.remote.args.sort) this.go(0, true);
    else {
      if (!this.remote) this.offset = 0;
      this.draw();
    }
  };

  /* Moves to the page starting at offset (clamped); remote mode calls the tool. */
  Collection.prototype.go = function (offset, force) {
    var count = this.remote ? this.total : (this.matched === undefined ? this.all.length : this.matched);
    var last = count > 0 ? Math.floor((count - 1) / this.pageSize) * this.pageSize : 0;
    offset = Math.max(0, Math.min(offset, last));
    if (offset === this.offset && !force) return Promise.resolve();
    if (!this.remote) {
      this.offset = offset;
      this.draw();
      return Promise.resolve();
    }
    return this.load(offset);
  };

  Collection.prototype.load = function (offset) {
    var self = this, seq = ++this.seq;
    this.root.dataset.state = "loading";
    this.prev.disabled = this.next.disabled = true;
    var sort = this.sort ? this.sort.col.key + " " + this.sort.dir : null;
    return this.remote.loadPage(offset, this.pageSize, sort).then(function (page) {
      if (seq !== self.seq) return;
      self.all = page.records;
      self.formats = null;
      if (typeof page.total === "number") self.total = page.total;
      self.offset = offset;
      if (self.o.onPage) self.o.onPage(page.parent);
      self.err.hidden = true;
      self.draw();
    }, function (e) {
      if (seq !== self.seq) return;
      self.err.textContent = "Loading rows failed: " + (e && e.message ? e.message : String(e));
      self.err.hidden = false;
      self.root.dataset.state = "error";
      self.updatePager();
    });
  };

  Collection.prototype.updatePager = function () {
    var count = this.remote ? this.total : this.matched;
    var shown = this.shownCount || 0;
    var from = shown ? this.offset + 1 : 0;
    // Controls that cannot do anything are hidden: the pager when every row
    // fits on one page, the filter and page size for a handful of rows, the
    // whole toolbar when there are no rows at all.
    var local = !this.remote, n = this.all.length;
    var onePage = local && n <= this.pageSize;
    var fmt = (n) => typeof n === "number" && n.toLocaleString ? n.toLocaleString("en-US") : String(n);
    this.info.textContent = count ? (onePage && !this.filter ? fmt(count) + (count === 1 ? " row" : " rows") : fmt(from) + "–" + fmt(this.offset + shown) + " of " + fmt(count)) + (this.filter && this.remote ? " (filtered on this page)" : "") : (this.filter ? "No matching rows" : "No rows");
    this.prev.hidden = this.next.hidden = onePage;
    this.filterInput.hidden = local && n <= 10 && !this.filter;
    this.sizeSel.hidden = local && n <= PAGE_SIZES[0];
    this.bar.hidden = local && n === 0;
    var loading = this.root.dataset.state === "loading";
    this.prev.disabled = loading || this.offset <= 0;
    this.next.disabled = loading || this.offset + this.pageSize >= count;
  };

  Collection.prototype.draw = function () {
    var rows = this.visible();
    this.rows = rows;
    this.shownCount = rows.length;
    var frag = DOC.createDocumentFragment();
    var cols = this.cols.shown;
    if (this.kind === "table") {
      var fmts = this.formats || (this.formats = cols.map(function (c) { return c.type === "number" ? numberFormat(this.all, c.key) : c.type === "json" && oneRecordColumn(this.all, c.key) ? ONE_RECORD : c.type === "string" && mdLinesColumn(this.all, c.key) ? MD_LINES : null; }, this));
      // The first drawing of a long table lays out only the rows its box shows before the
      // result's first frame: the rest are in the document but out of layout (class "later")
      // until that frame is painted (less style and layout work before the result is on screen).
      var later = !this.drawn && rows.length > FIRST_ROWS + 8 ? FIRST_ROWS : 0;
      this.drawn = true;
      // A few narrow rows holding records (statements, each with its result rows): the records
      // are the substance, so their sub-tables are drawn open.
      var openSub = rows.length <= FEW_ROWS && cols.length <= FEW_COLS ? [] : null;
      rows.forEach(function (r, n) {
        var tr = DOC.createElement("tr");
        if (later && n >= later) tr.className = "later";
        for (var i = 0; i < cols.length; i++) {
          var td = DOC.createElement("td");
          if (cols[i].type === "number" || cols[i].type === "quantity") td.className = "num";
          else if (cols[i].role === "primary") td.className = "primary";
          td.dataset.label = cols[i].key;
          fillValue(td, isObj(r) ? r[cols[i].key] : undefined, fmts[i]);
          if (openSub && td.firstChild && td.firstChild.classList && td.firstChild.classList.contains("sub-records")) openSub.push(td.firstChild.firstChild);
          tr.appendChild(td);
        }
        frag.appendChild(tr);
      });
      if (openSub) openSub.forEach(function (b) { b.click(); });
      if (!rows.length) {
        var tr = DOC.createElement("tr"), td = el("td", "empty-row", this.filter ? "No rows match \u201c" + this.filterInput.value.trim() + "\u201d." : "No rows.");
        td.colSpan = Math.max(1, cols.length);
        tr.appendChild(td);
        frag.appendChild(tr);
      }
      this.tbody.replaceChildren(frag);
      if (later) this.showLater();
      var sort = this.sort;
      this.ths.forEach(function (th) {
        th.setAttribute("aria-sort", sort && sort.col.key === th.dataset.key ? (sort.dir === "asc" ? "ascending" : "descending") : "none");
      });
      if (this.fit) this.fit();
    } else if (this.kind === "cards") {
      // Reports (reportRecords) take the whole width, one under the other: their tables need it.
      var grid = el("div", reportRecords(rows, cols) ? "card-grid reports" : "card-grid");
      rows.forEach(function (r) { grid.appendChild(renderCard(r, cols.map((c) => c.key), 0)); });
      frag.appendChild(grid);
      this.body.replaceChildren(frag);
    } else {
      var ul = el("ul", "records");
      var first = cols.filter((c) => c.type === "string")[0] || cols[0];
      rows.forEach(function (r) {
        var li = el("li");
        if (first) li.appendChild(el("strong", "", cellText(r[first.key])));
        var rest = cols.filter((c) => c !== first).map((c) => c.key + ": " + cellText(brief(r[c.key])));
        if (rest.length) li.appendChild(el("span", "rest", (first ? " · " : "") + rest.join(" · ")));
        ul.appendChild(li);
      });
      frag.appendChild(ul);
      this.body.replaceChildren(frag);
    }
    this.root.dataset.rows = String(rows.length);
    this.root.dataset.offset = String(this.offset);
    this.root.dataset.total = String(this.remote ? this.total : this.matched);
    this.root.dataset.state = "ready";
    this.updatePager();
    if (this.o.onDraw) this.o.onDraw(rows);
  };

  /* Puts the rows the first drawing held out of layout back in once its frame is painted (the task
     after the next animation frame; a frame that gets no animation frames, hidden, gets them after
     250 ms), then fits the table again: a later row may make it wider than its box. */
  Collection.prototype.showLater = function () {
    var self = this, body = this.tbody, done = false;
    var show = function () {
      if (done) return;
      done = true;
      clearTimeout(timer);
      Array.prototype.forEach.call(body.querySelectorAll("tr.later"), function (tr) { tr.classList.remove("later"); });
      if (self.fit && body === self.tbody) requestAnimationFrame(self.fit);
    };
    var timer = setTimeout(show, 250);
    requestAnimationFrame(function () { setTimeout(show, 0); });
  };

  /* Builds the CSV of the visible page and downloads it through a blob: link. */
  Collection.prototype.downloadCSV = function () {
    var text = toCSV(this.rows || [], this.cols.shown);
    GenuiRich.lastCSV = text;
    if (this.csvURL) URL.revokeObjectURL(this.csvURL);
    this.csvURL = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
    this.csvLink.href = this.csvURL;
    this.csvLink.download = (this.o.name || "data") + "-page-" + (Math.floor(this.offset / this.pageSize) + 1) + ".csv";
    this.csvLink.dataset.rows = String((this.rows || []).length);
    this.csvLink.click();
  };

  /* ---------- the renderer ---------- */

  function readJSON(id) {
    var e = DOC.getElementById(id);
    if (!e) return undefined;
    try { return JSON.parse(e.textContent); } catch (err) { return undefined; }
  }

  function readConfig() {
    var c = readJSON("view-config"), spec = readJSON("view-spec"), outcomes = readJSON("view-outcomes");
    c = isObj(c) ? c : {};
    if (isObj(spec)) c = fromSpec(spec, c);
    if (Array.isArray(outcomes)) c.outcomes = outcomes.filter(isObj);
    return c;
  }

  /* ---------- the view specification (#view-spec, package viewspec) ---------- */

  /* A column format's type (sorting, alignment, chart axes); other formats keep the detected type. */
  var FORMAT_TYPES = { number: "number", integer: "number", date: "date", datetime: "date", bool: "boolean",
    text: "string", code: "string", link: "string", hash: "string", markdown: "string" };

  /* The JSON Pointer's tokens (RFC 6901), or null for a string that is not one. */
  function pointerTokens(p) {
    if (typeof p !== "string" || (p !== "" && p.charAt(0) !== "/")) return null;
    return p === "" ? [] : p.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  }

  function atPointer(data, tokens) {
    return tokens.reduce(function (v, k) {
      if (Array.isArray(v) && /^(0|[1-9][0-9]*)$/.test(k)) return v[+k];
      return isObj(v) && Object.prototype.hasOwnProperty.call(v, k) ? v[k] : undefined;
    }, data);
  }

  /*
   * fromSpec turns a view spec into the renderer's config: every field the
   * spec sets wins over base (the older #view-config); a field it leaves
   * out (auto) is decided from the data as before.
   */
  function fromSpec(spec, base) {
    var c = Object.assign({}, base), v = isObj(spec.view) ? spec.view : {};
    c.spec = spec;
    if (typeof spec.title === "string" && spec.title) c.title = spec.title;
    var pt = pointerTokens(spec.principal);
    if (pt && pt.length) { c.principal = spec.principal; c.principalPath = pt; }
    var kind = v.kind && v.kind !== "auto" ? v.kind : "";
    if (kind) c.view = kind;
    c.labels = Object.assign({}, isObj(spec.labels) ? spec.labels : {});
    c.widths = {};
    if (Array.isArray(v.columns) && v.columns.length) {
      c.columns = [];
      c.project = [];
      v.columns.forEach(function (col) {
        if (!isObj(col) || typeof col.field !== "string") return;
        var name = col.field, toks = pointerTokens(col.field);
        // A column deeper in the row ("/note/content") is read into the row under its last key.
        if (toks && toks.length) { name = toks.length === 1 ? toks[0] : toks[toks.length - 1]; if (toks.length > 1) c.project.push({ name: name, path: toks }); }
        c.columns.push(name);
        if (col.label) c.labels[name] = col.label;
        if (col.width) c.widths[norm(name)] = col.width;
        if (FORMAT_TYPES[col.format]) (c.formats = c.formats || {})[norm(name)] = FORMAT_TYPES[col.format];
      });
    }
    if (isObj(v.sort) && v.sort.field) c.sort = v.sort.field + " " + (v.sort.dir === "desc" ? "desc" : "asc");
    if (v.pageSize) c.pageSize = v.pageSize;
    if (isObj(v.chart)) {
      if (v.chart.kind) c.chart = v.chart.kind;
      if (v.chart.x) c.chartX = v.chart.x;
      if (Array.isArray(v.chart.y) && v.chart.y.length) c.chartY = v.chart.y;
      if (v.chart.unit) c.chartUnit = v.chart.unit;
      if (v.chart.xLabel) c.chartXLabel = v.chart.xLabel;
      if (v.chart.yLabel) c.chartYLabel = v.chart.yLabel;
    }
    var hide = Array.isArray(spec.hidden) ? spec.hidden.slice() : [];
    c.partViews = [];
    (Array.isArray(spec.parts) ? spec.parts : []).forEach(function (p) {
      if (!isObj(p) || typeof p.path !== "string") return;
      if (p.hidden) { hide.push(p.path); return; }
      // A part with its own view or label is drawn on its own, after the rest (and not in it).
      var pt = pointerTokens(p.path);
      if (pt && pt.length && (isObj(p.view) || p.label)) c.partViews.push({ path: pt, pointer: p.path, label: p.label || "", kind: isObj(p.view) && p.view.kind !== "auto" ? p.view.kind || "" : "" });
    });
    c.hidePaths = hide.map(pointerTokens).filter((t) => t && t.length);
    c.hide = hide.filter((h) => !pointerTokens(h));
    if (Array.isArray(spec.shown)) c.show = spec.shown.slice();
    if (isObj(spec.form) && spec.form.mode) c.form = spec.form.mode === "folded" ? "hidden" : "shown";
    if (isObj(spec.theme)) {
      if (spec.theme.scheme === "light" || spec.theme.scheme === "dark") c.theme = spec.theme.scheme;
      if (spec.theme.fontSize) c.fontSize = spec.theme.fontSize;
      if (spec.theme.mono) c.mono = true;
    }
    return c;
  }

  /* A copy of data without the hidden fields (names at any depth, pointers where they point) and the parts drawn on their own. */
  function pruneHidden(data, cfg) {
    var names = (cfg.hide || []).map(norm).filter((n) => (cfg.show || []).map(norm).indexOf(n) < 0);
    var paths = (cfg.hidePaths || []).concat((cfg.partViews || []).map((p) => p.path));
    if (!names.length && !paths.length) return data;
    var walk = function (v, path, depth) {
      if (depth > 12 || v === null || typeof v !== "object") return v;
      if (Array.isArray(v)) return v.map((x) => walk(x, path, depth + 1));
      var out = {};
      Object.keys(v).forEach(function (k) {
        var p = path.concat([k]);
        if (names.indexOf(norm(k)) >= 0 || paths.some((h) => h.length === p.length && h.every((t, i) => t === p[i]))) return;
        out[k] = walk(v[k], p, depth + 1);
      });
      return out;
    };
    return walk(data, [], 0);
  }

  /*
   * create returns the renderer of one page. opts: app (the connected App),
   * tool ({name, inputSchema}), config (view config; default #view-config),
   * helpers {renderItem, block, pretty} from the page's content renderers.
   */
  function create(opts) {
    var app = opts.app, tool = opts.tool || {}, cfg = opts.config || readConfig(), h = opts.helpers;
    var paging = pagingArgs(tool.inputSchema);

    // The view's theme is page.js's to set (applyTheme there): it holds with or without these views.

    /*
     * changes reports whether the call changed things: the tool's
     * annotations say so (readOnlyHint false, destructiveHint true), or,
     * without them, its name or description starts with a verb that writes,
     * or an argument is a statement that writes (INSERT, UPDATE, CREATE ...).
     */
    function changes(args) {
      var a = isObj(tool.annotations) ? tool.annotations : {};
      if (a.readOnlyHint === true) return false;
      if (a.readOnlyHint === false || a.destructiveHint === true) return true;
      var verb = String(tool.name || "").replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase().split(/[_\-.\s\/]+/).filter(Boolean)[0] || "";
      // The description's first word as a verb: "Creates" -> create, "Applies" -> apply, "Pushes" -> push.
      var said = (String(tool.description || "").match(/^\s*([a-z]+)/i) || ["", ""])[1].toLowerCase().replace(/ies$/, "y").replace(/(sh|ch|x)es$/, "$1").replace(/s$/, "");
      if (WRITE_VERB_RE.test(verb) || WRITE_VERB_RE.test(said)) return true;
      return isObj(args) && Object.keys(args).some((k) => typeof args[k] === "string" && /^\s*(?:insert|update|delete|create|drop|alter|replace|merge|truncate|upsert|grant|revoke)\s/i.test(args[k]));
    }

    function remoteFor(main, args, total) {
      if (!paging || !app || tool.modelOnly || typeof total !== "number") return null;
      if (!(total > REMOTE_OVER || total > main.records.length)) return null;
      args = isObj(args) ? args : {};
      var offset = typeof args[paging.offset] === "number" ? args[paging.offset] : (main.parent && typeof main.parent.offset === "number" ? main.parent.offset : 0);
      return {
        args: paging, total: total, offset: offset,
        loadPage: function (off, limit, sort) {
          var a = Object.assign({}, args);
          a[paging.limit] = Math.min(limit, paging.max);
          a[paging.offset] = off;
          if (paging.sort && sort) a[paging.sort] = sort;
          return app.callServerTool({ name: tool.name, arguments: a }).then(function (res) {
            if (!isObj(res)) throw new Error("the host returned no result");
            if (res.isError) {
              var msg = (Array.isArray(res.content) ? res.content : []).map((c) => c && c.text).filter(Boolean).join(" ");
              throw new Error(msg || "the tool reported an error");
            }
            var d = resultData(res);
            var recs = d.found ? getPath(d.data, main.path) : undefined;
            if (!Array.isArray(recs)) throw new Error("the result has no " + (main.path.join(".") || "records") + " array");
            var parent = main.path.length ? getPath(d.data, main.path.slice(0, -1)) : null;
            return { records: recs, total: totalOf(parent), parent: parent };
          });
        }
      };
    }

    /* The spec's chart unit and axis labels: %, bytes and seconds as the axis knows them, a currency sign in front, anything else after the number. */
    function chartUnit(spec, c) {
      if (c.chartXLabel) spec.xLabel = c.chartXLabel;
      if (c.chartYLabel) spec.yLabel = c.chartYLabel;
      var u = c.chartUnit;
      if (!u) return;
      var known = { "%": "%", percent: "%", bytes: "bytes", b: "bytes", s: "time", sec: "time", seconds: "time" }[String(u).toLowerCase()];
      if (known) spec.unit = known;
      else if (/^[$\u20ac\u00a3\u00a5]$/.test(u)) spec.unit = u;
      else { spec.unit = ""; spec.unitSuffix = " " + u; }
    }

    function pageSizeFor(remote, args, c) {
      var n = c.pageSize;
      if (!n && remote && isObj(args) && typeof args[paging.limit] === "number") n = args[paging.limit];
      if (!n && remote) n = remote.total > 0 ? Math.min(100, remote.total) : 100;
      n = n || DEFAULT_PAGE;
      if (remote) n = Math.min(n, paging.max);
      return Math.max(1, n);
    }

    /*
     * Renders the records view (meta card, optional chart, collection). A side
     * section's records (main.side: a result's fields beside its rows) are
     * drawn on their own: the spec's columns, sort, view and page size and
     * the tool's paging are the principal records', not theirs.
     */
    function renderRecords(main, data, args, target, noMeta) {
      var rc = main.side ? {} : cfg;
      var view = rc.view || "";
      // "card" is one object's view (the spec says "cards" for records as cards): records
      // under it, or read from its text (a listing with its totals), keep their own view.
      if (view === "card") view = "";
      if (rc.project && rc.project.length) {
        // Columns the spec names deeper in the row are read into it under their last key.
        main = Object.assign({}, main, { records: main.records.map(function (r) {
          if (!isObj(r)) return r;
          var o = Object.assign({}, r);
          rc.project.forEach(function (p) { if (!(p.name in o)) o[p.name] = atPointer(r, p.path); });
          return o;
        }) });
      }
      var meta = main.parent && !noMeta ? Object.keys(main.parent).filter(function (k) {
        var v = main.parent[k];
        // A scalar is header data whatever its name ("schema": "main" beside a listing's tables): only side lists are not.
        return v !== main.records && (v === null || typeof v !== "object");
      }) : [];
      // The records' own header card is their parent's scalars ("context": isBlocked beside
      // "ancestors"): captioned with the parent's keys, the records' caption below it.
      var parentCaption = main.caption && meta.length ? recordsCaption((main.path || []).slice(0, -1)) : "";
      if (parentCaption) target.appendChild(el("div", "records-caption", parentCaption));
      var metaCard = meta.length ? target.appendChild(renderCard(main.parent, meta, 0)) : null;
      if (metaCard) metaCard.classList.add("meta");
      if (main.caption) target.appendChild(el("div", "records-caption", main.caption));
      var cols = columnsOf(main.records, main.parent, rc);
      if (rc.formats) cols.all.forEach(function (c) { var ft = rc.formats[norm(c.key)]; if (ft) c.type = ft; });
      var notes = cols.notes.slice();
      var total = totalOf(main.parent);
      var remote = main.side ? null : remoteFor(main, args, total);
      var pageSize = pageSizeFor(remote, args, rc);
      var chartHost = null, spec = null, chartRows = null;
      if (view === "chart" || (!view && main.records.length <= 1000)) {
        spec = chartSpec(main.records, cols, rc, view === "chart");
        if (!spec.reason) chartUnit(spec, rc);
        if (spec.reason) {
          if (view === "chart") notes.push("No chart: " + spec.reason + ".");
          spec = null;
        } else {
          chartHost = el("div", "chart-host");
          target.appendChild(chartHost);
        }
      }
      var records = main.records;
      if (remote && records.length > pageSize) records = records.slice(0, pageSize);
      var kind = view === "cards" || (!view && reportRecords(records, cols.shown)) ? "cards" : view === "list" ? "list" : "table";
      var coll = new Collection({
        kind: kind, cols: cols, records: records, remote: remote, pageSize: pageSize, name: tool.name,
        onDraw: spec ? function (rows) { chartRows = rows; chartHost.replaceChildren(renderCharts(rows, spec, chartHost)); } : null,
        // The summary above the table (offset, count, ...) follows the page the pager loaded.
        onPage: function (parent) {
          if (!metaCard || !isObj(parent)) return;
          var fresh = renderCard(parent, meta.filter((k) => k in parent), 0);
          fresh.classList.add("meta");
          metaCard.replaceWith(fresh);
          metaCard = fresh;
        }
      });
      // The chart is drawn at the width it is shown at (11 px text): again when that width changes.
      if (chartHost && typeof ResizeObserver !== "undefined") {
        var chartW = 0;
        new ResizeObserver(function () {
          var w = chartHost.clientWidth;
          if (chartRows && w && Math.abs(w - chartW) > 8) { chartW = w; chartHost.replaceChildren(renderCharts(chartRows, spec, chartHost)); }
        }).observe(chartHost);
      }
      target.appendChild(coll.root);
      if (remote && !remote.args.sort) notes.push("Sorting applies to this page only: the tool has no sort argument.");
      var reload = false;
      if (rc.sort) {
        var cut = rc.sort.lastIndexOf(" ");
        var sc = cols.byNorm[norm(rc.sort.slice(0, cut))];
        if (sc) {
          coll.sort = { col: sc, dir: rc.sort.slice(cut + 1) === "desc" ? "desc" : "asc" };
          reload = !!(remote && remote.args.sort);
        } else notes.push("Sort field not in the result: " + rc.sort.slice(0, cut) + ".");
      }
      coll.notes.textContent = notes.join(" ");
      coll.draw();
      // Reload the page when it must come sorted from the tool, or when the
      // delivered page is shorter than a page (a smaller original limit).
      if (remote && (reload || records.length < Math.min(pageSize, Math.max(0, remote.total - remote.offset)))) coll.load(remote.offset);
      return coll;
    }

    /* The keys of obj to show in a card: cfg.columns (when any match) minus cfg.hide. */
    function cardKeys(obj) {
      var keys = Object.keys(obj);
      if (cfg.columns && cfg.columns.length) {
        var byNorm = {};
        keys.forEach(function (k) { byNorm[norm(k)] = k; });
        var picked = cfg.columns.concat(cfg.show || []).map((c) => byNorm[norm(c)]).filter(Boolean);
        if (picked.length) keys = picked.filter((k, i) => picked.indexOf(k) === i);
      }
      return keys.filter((k) => !hidden(k));
    }

    function hidden(k) {
      var n = norm(k), show = (cfg.show || []).map(norm);
      return show.indexOf(n) < 0 && (cfg.hide || []).map(norm).indexOf(n) >= 0;
    }

    /* Arrays of obj that are peers (records or values, not side lists such as fields). */
    function peerArrays(obj) {
      return Object.keys(obj).filter(function (k) {
        var v = obj[k];
        return Array.isArray(v) && (v.length === 0 || isRecordArray(v) || isPrimitiveArray(v)) && !sideList(k, v) && !hidden(k);
      });
    }

    /* The key of the arrays of child records in a tree of records (children, nodes, ...), or null. */
    function treeKey(a) {
      if (!isRecordArray(a)) return null;
      for (var t = 0; t < TREE_KEYS.length; t++) {
        var k = TREE_KEYS[t];
        if (a.slice(0, KEY_SAMPLE).some((r) => isRecordArray(r[k]))) return k;
      }
      return null;
    }

    /* A collapsible tree: nodes with children as <details> (the first level open), leaves as lines. */
    function renderTree(nodes, key, depth, budget) {
      var ul = el("ul", depth ? "tree" : "tree root");
      nodes.forEach(function (n) {
        if (budget.left-- <= 0) return;
        var li = el("li");
        var labelKey = ["name", "title", "label", "path", "id", "key", "text", "value"].filter((k) => isObj(n) && n[k] !== undefined && typeof n[k] !== "object")[0];
        var label = el("span", "node-label", labelKey ? String(n[labelKey]) : cellText(n));
        var extra = isObj(n) ? Object.keys(n).filter((k) => k !== labelKey && k !== key && (n[k] === null || typeof n[k] !== "object")) : [];
        var line = el("span", "node");
        line.appendChild(label);
        extra.slice(0, 4).forEach(function (k) { var b = el("span", "badge", n[k] === null ? EMPTY : String(n[k])); b.title = k; line.appendChild(b); });
        var kids = isObj(n) && Array.isArray(n[key]) ? n[key] : null;
        if (kids && kids.length) {
          var det = el("details");
          det.open = depth < 1 || budget.small;
          var sum = el("summary");
          sum.appendChild(line);
          sum.appendChild(el("span", "count", "(" + kids.length + ")"));
          det.appendChild(sum);
          det.appendChild(renderTree(kids, key, depth + 1, budget));
          li.appendChild(det);
        } else {
          li.className = "leaf";
          li.appendChild(line);
        }
        ul.appendChild(li);
      });
      return ul;
    }

    function countNodes(nodes, key) {
      return nodes.reduce((n, x) => n + 1 + (isObj(x) && Array.isArray(x[key]) ? countNodes(x[key], key) : 0), 0);
    }

    /* One array: records (table/cards/list), values (a list), or "No rows.". */
    function arrayView(arr, parent, path, args, target, side) {
      if (!arr.length) { target.appendChild(el("div", "note empty-result", "No rows.")); return null; }
      var tk = treeKey(arr);
      if (tk) return treeView(arr, tk, target);
      if (isRecordArray(arr)) return renderRecords({ records: arr, parent: parent, path: path, side: side }, parent, args, target, true);
      var ul = el("ul", "values");
      arr.slice(0, 1000).forEach(function (v) {
        var li = el("li");
        if (typeof v === "string" && (v.length > 160 || v.indexOf("\n") >= 0)) li.appendChild(hooks.text(v, path[path.length - 1] || ""));
        else fillValue(li, v, null);
        ul.appendChild(li);
      });
      target.appendChild(ul);
      if (arr.length > 1000) target.appendChild(el("div", "note", "Showing the first 1000 of " + arr.length + " values."));
      return null;
    }

    function treeView(nodes, key, target) {
      var total = countNodes(nodes, key), budget = { left: 3000, small: total <= SMALL_TREE };
      var wrap = el("div", "tree-wrap");
      wrap.appendChild(renderTree(nodes, key, 0, budget));
      target.appendChild(wrap);
      target.appendChild(el("div", "note", total + (total === 1 ? " node" : " nodes") + (total > 3000 ? "; showing the first 3000" : "")));
      return null;
    }

    /* Two or more peer arrays: tabs, one per array, with the count; scalars above as a meta card. */
    function tabsView(data, keys, args, target) {
      var meta = Object.keys(data).filter((k) => keys.indexOf(k) < 0 && !hidden(k) && (data[k] === null || typeof data[k] !== "object"));
      if (meta.length) target.appendChild(renderCard(data, meta, 0)).classList.add("meta");
      var others = Object.keys(data).filter((k) => keys.indexOf(k) < 0 && !hidden(k) && data[k] !== null && typeof data[k] === "object");
      var bar = el("div", "tabs"), panels = el("div", "tab-panels");
      bar.setAttribute("role", "tablist");
      // The tab open first: the one the spec shows, else the principal data (the most records; the first of equals).
      var wanted = (cfg.show || []).map(norm), first = keys.filter((k) => wanted.indexOf(norm(k)) >= 0)[0] ||
        keys.reduce((a, k) => (data[k].length > data[a].length ? k : a), keys[0]);
      var buttons = [];
      keys.forEach(function (k) {
        var b = el("button", "tab", k + " (" + data[k].length + ")"), panel = el("div", "tab-panel");
        b.type = "button";
        b.setAttribute("role", "tab");
        b.dataset.key = panel.dataset.key = k;
        panel.setAttribute("role", "tabpanel");
        var draw = function () { if (!panel.dataset.drawn) { panel.dataset.drawn = "1"; arrayView(data[k], data, [k], args, panel); } };
        var select = function () {
          buttons.forEach(function (x) { x.b.setAttribute("aria-selected", String(x.b === b)); x.panel.hidden = x.b !== b; });
          draw();
        };
        b.addEventListener("click", select);
        buttons.push({ b: b, panel: panel, select: select, draw: draw });
        bar.appendChild(b);
        panels.appendChild(panel);
      });
      target.appendChild(bar);
      target.appendChild(panels);
      buttons.filter((x) => x.b.dataset.key === first)[0].select();
      // The other tabs are drawn now, hidden: one click away in the page (drawFolded).
      buttons.forEach(function (x) { if (x.panel.hidden && drawFolded()) x.draw(); });
      others.forEach(function (k) { target.appendChild(renderCard(data, [k], 0)); });
    }

    /*
     * The other arrays and objects beside the main records (fields, links, a
     * status record, ...): collapsed sections, none dropped.
     */
    function sideSections(obj, mainRecords, args, target) {
      if (!isObj(obj)) return;
      Object.keys(obj).forEach(function (k) {
        var v = obj[k];
        if (v === null || typeof v !== "object" || v === mainRecords || hidden(k)) return;
        var d = sideSection(k, v, obj, args);
        if ((cfg.show || []).map(norm).indexOf(norm(k)) >= 0) d.open = true;
        target.appendChild(d);
      });
    }

    /*
     * One collapsed section of key k (an array or an object of obj), its
     * content drawn folded (drawFolded), except more than SIDE_RECORDS_DRAWN
     * records: their table (a toolbar, paging, a chart) is drawn on opening.
     */
    function sideSection(k, v, obj, args) {
      var d = el("details", "side");
      d.dataset.key = k;
      d.appendChild(el("summary", "", k + (Array.isArray(v) ? " (" + v.length + ")" : "")));
      var draw = function () {
        if (d.children.length > 1) return;
        if (Array.isArray(v)) arrayView(v, null, [k], args, d, true);
        else d.appendChild(renderCard(v, null, 0));
      };
      // A few records (a board's other status lists, a repository's one tag) are drawn now too, hidden.
      if ((!isRecordArray(v) || v.length <= SIDE_RECORDS_DRAWN) && drawFolded()) draw();
      d.addEventListener("toggle", function () { if (d.open) draw(); });
      return d;
    }

    /*
     * principalBelow is the principal data (principalOf) when it lies below
     * what findMain found: inside the one record of the main array (a list
     * of one statement that holds the rows), or where findMain does not look
     * (three levels down and more); else null.
     */
    function principalBelow(data, main) {
      if (!isObj(data) && !Array.isArray(data)) return null;
      var deep = principalOf(data);
      if (!deep || (main && deep.records === main.records)) return null;
      if (main && main.records) {
        var inside = main.records.length === 1 && deep.path.length > main.path.length && main.path.every((k, i) => deep.path[i] === k);
        return inside && deep.records.length > 1 ? deep : null;
      }
      return !main && deep.records.length > 1 ? deep : null;
    }

    /*
     * recordsCaption names principal records found below a header by their keys
     * ("context › ancestors"): after the header's cards, a table that only said
     * "2 rows" did not say what its rows are. Positions in one-element arrays
     * are left out; a path of one generic key ("rows", "items") says nothing.
     * renderRecords draws it (main.caption) above the records, below their own
     * header card (their parent's scalars), which it captions with the parent's keys.
     */
    function recordsCaption(path) {
      var keys = path.filter((k) => typeof k === "string");
      if (!keys.length || (keys.length === 1 && MAIN_KEYS.indexOf(keys[0]) >= 0)) return "";
      return keys.map((k) => hooks.label ? hooks.label(k) : k).join(" \u203a ");
    }

    /* The objects on path from data down to the parent of its end (the parent left out), outermost first. */
    function wrappersOn(data, path) {
      var objs = [], v = data;
      for (var i = 0; i < path.length - 1 && v !== null && typeof v === "object"; i++) {
        if (isObj(v)) objs.push(v);
        v = v[path[i]];
      }
      return objs;
    }

    /*
     * wrapperHeader draws one object that wraps the principal data as a
     * header: its scalars and small objects of scalars as a card, its other
     * arrays and objects (not on the way down) as collapsed sections, none
     * dropped.
     */
    function wrapperHeader(w, deep, args, target) {
      if (!isObj(w)) return;
      var onPath = function (v) { return v === deep.parent || deep.wrappers.indexOf(v) >= 0 || (Array.isArray(v) && v.length === 1 && (v[0] === deep.parent || deep.wrappers.indexOf(v[0]) >= 0)); };
      // A small object of scalars ({usedBytes, freeBytes}) is read as part of the header, a nested card in it.
      // In the outermost object any record of scalars is: a result that is one record and its context
      // ({task: {...ten fields}, message, context: {ancestors: [...], root: {...}}}) is about that record,
      // so its fields are in sight before the context's records, not folded behind its key.
      var most = deep.wrappers[0] === w ? OWN_RECORD_FIELDS : 8;
      var flat = (v) => isObj(v) && !onPath(v) && Object.keys(v).length <= most && Object.keys(v).every((x) => v[x] === null || typeof v[x] !== "object");
      var scalars = Object.keys(w).filter((k) => !hidden(k) && (w[k] === null || typeof w[k] !== "object" || flat(w[k])));
      if (scalars.length) target.appendChild(renderCard(w, scalars, 0)).classList.add("meta");
      Object.keys(w).forEach(function (k) {
        var v = w[k];
        if (v === null || typeof v !== "object" || onPath(v) || hidden(k) || flat(v)) return;
        target.appendChild(sideSection(k, v, w, args));
      });
    }

    /* Renders data (a JSON value from structuredContent or from text) as the view that fits its shape. */
    function dataView(data, args, from, forced) {
      var view = el("div", "rich");
      if (from) view.dataset.from = from;
      var set = function (v) { view.dataset.view = v; };
      if (forced) {
        // The spec's principal data: its records drawn as records, anything else as its own view.
        if (forced.records) {
          set("records");
          view.dataset.principal = cfg.principal;
          // The objects above the spec's principal data are its header, as for principal data found below the top.
          var above = forced.wrappers || wrappersOn(data, forced.path || []);
          above.forEach(function (w) { wrapperHeader(w, { parent: forced.parent, wrappers: above }, args, view); });
          if (above.length) forced.caption = recordsCaption(forced.path || []);
          view.rich = renderRecords(forced, data, args, view);
          sideSections(forced.parent, forced.records, args, view);
          return view;
        }
        view.dataset.principal = cfg.principal;
        if (typeof forced.value === "string") { set("text"); view.appendChild(drawView(textView(forced.value), args)); return view; }
        data = forced.value;
      }
      if (cfg.view === "card" && isObj(data)) {
        set("card");
        view.appendChild(renderCard(data, cardKeys(data), 0));
        return view;
      }
      if (cfg.view === "json") {
        set("json");
        view.appendChild(h.block(h.pretty(data), "json"));
        return view;
      }
      // Nothing back: after a write that is success, not an empty search.
      if ((Array.isArray(data) && !data.length) || (isObj(data) && !Object.keys(data).length)) {
        set("empty");
        view.appendChild(el("div", "note empty-result", changes(args) ? "Done, nothing returned." : Array.isArray(data) ? "No rows." : "Done, no data."));
        return view;
      }
      // An object that is itself the root of a tree: a labelled node with children.
      var root = isObj(data) && TREE_KEYS.some((k) => isRecordArray(data[k])) && ["name", "title", "label", "id", "path"].some((k) => typeof data[k] === "string" || typeof data[k] === "number") ? [data] : data;
      var tk = treeKey(root);
      if (tk) {
        set("tree");
        treeView(root, tk, view);
        return view;
      }
      var peers = isObj(data) ? peerArrays(data) : [];
      if (peers.length >= 2) {
        set("tabs");
        tabsView(data, peers, args, view);
        return view;
      }
      var main = findMain(data), deep = principalBelow(data, main);
      if (deep) {
        set("records");
        view.dataset.principal = deep.path.join(".");
        deep.wrappers.forEach(function (w) { wrapperHeader(w, deep, args, view); });
        deep.caption = recordsCaption(deep.path);
        view.rich = renderRecords(deep, data, args, view);
        sideSections(deep.parent, deep.records, args, view);
      } else if (main && main.records) {
        set("records");
        // The object that holds the records' parent is their header: its scalars a card, its
        // other members (a response's headers beside its body) folded sections, none dropped.
        if (main.parent && main.parent !== data && isObj(data)) {
          wrapperHeader(data, { parent: main.parent, wrappers: [data] }, args, view);
          main.caption = recordsCaption(main.path || []);
        }
        view.rich = renderRecords(main, data, args, view);
        sideSections(main.parent, main.records, args, view);
      } else if (main && main.values) {
        set("list");
        arrayView(main.values, main.parent || null, [], args, view);
        if (main.parent) {
          var rest = cardKeys(main.parent).filter((k) => main.parent[k] !== main.values);
          if (rest.length) view.insertBefore(renderCard(main.parent, rest, 0), view.firstChild).classList.add("meta");
        }
      } else if (isObj(data)) {
        set("card");
        view.appendChild(renderCard(data, cardKeys(data), 0));
      } else if (Array.isArray(data)) {
        set("json");
        view.appendChild(h.block(h.pretty(data), "json"));
      } else {
        set("value");
        fillValue(view.appendChild(el("div", "value")), data, null);
      }
      return view;
    }

    /* Draws a classified text view; data kinds go to dataView. */
    function drawView(v, args) {
      if (v.kind === "data") {
        // JSON read from text has its strings holding JSON parsed too, as structuredContent has.
        var dv = dataView(v.from === "json" ? deepJSON(v.data) : v.data, args, v.from);
        // Data read from text keeps the text one click away.
        return v.text && global.GenuiTextData ? global.GenuiTextData.textSwitch(dv, v.text, Array.isArray(v.data) ? "table" : "card") : dv;
      }
      if (v.kind === "parts") {
        var wrap = el("div", "parts");
        v.parts.forEach(function (p) { wrap.appendChild(drawView(p, args)); });
        return wrap;
      }
      // Asked for a table (or cards, a list): text that reads mostly as data shows as that data.
      if (v.alt && (cfg.view === "table" || cfg.view === "cards" || cfg.view === "list") && (v.kind === "code" || v.kind === "prose")) {
        return drawView({ kind: "data", data: v.alt.data, from: v.alt.from, text: v.text }, args);
      }
      return global.GenuiText.draw(v, { app: app, drawView: (x) => drawView(x, args), card: (o) => renderCard(o, null, 0) });
    }

    /* A string drawn as the spec's kind says (markdown, text, log, diff), else as it reads. */
    function textView(s, hint) {
      switch (cfg.view) {
        case "markdown": return { kind: "markdown", text: s };
        case "text": return { kind: "code", text: s, lang: "" };
        case "diff": return { kind: "code", text: s, lang: "diff" };
      }
      return global.GenuiText.classify(s, hint || tool.name);
    }

    hooks.label = function (k) { return cfg.labels && Object.prototype.hasOwnProperty.call(cfg.labels, k) ? String(cfg.labels[k]) : k; };
    hooks.width = function (k) { return cfg.widths ? cfg.widths[norm(k)] : 0; };

    // Only where the page carries the markdown parser (without it markdown would be drawn as its source).
    hooks.mdLine = global.GenuiMarkdown ? function (s) { var m = global.GenuiText.markdown(s, app); m.classList.add("md-line"); return m; } : null;
    hooks.text = function (s, key) { return drawView(global.GenuiText.classify(s, key + " " + (tool.name || "")), {}); };

    function drawPart(p, args) {
      if (p.data !== undefined) return dataView(deepJSON(p.data), args);
      if (p.text !== undefined) {
        var badges = h.badges && h.badges(p.annotations);
        if (p.folded) {
          // The message as it came, in one fold: nothing in it behind a second click.
          var fold = el("details", "message-fold"), n = p.text.trim().split("\n").length;
          fold.appendChild(el("summary", "", (p.label || "Message") + " (" + n + (n === 1 ? " line" : " lines") + ")"));
          if (badges) fold.appendChild(badges);
          fold.appendChild(el("div", "message-text", p.text.trim()));
          return fold;
        }
        var tv = drawView(textView(p.text), args);
        if (!badges) return tv;
        var aw = el("div", "annotated");
        aw.append(badges, tv);
        return aw;
      }
      var item = p.item;
      if (isObj(item) && item.type === "resource" && isObj(item.resource) && typeof item.resource.text === "string") {
        var r = item.resource, wrap = el("div", "item");
        wrap.appendChild(el("div", "link", (r.uri || "embedded resource") + (r.mimeType ? " (" + r.mimeType + ")" : "")));
        wrap.appendChild(drawView(global.GenuiText.classify(r.text, (r.uri || "") + " " + tool.name, r.mimeType), args));
        if (h.downloadButton) wrap.appendChild(h.downloadButton(r, wrap));
        var rb = h.badges && h.badges(item.annotations);
        if (rb) wrap.insertBefore(rb, wrap.firstChild);
        return wrap;
      }
      return h.renderItem(item);
    }

    /* Adds the (normalised) keys of v, a few levels down, to keys. */
    function collectKeys(v, keys, depth) {
      if (depth > 4 || v === null || typeof v !== "object") return;
      if (Array.isArray(v)) { v.slice(0, KEY_SAMPLE).forEach(function (x) { collectKeys(x, keys, depth + 1); }); return; }
      Object.keys(v).forEach(function (k) { keys[norm(k)] = true; collectKeys(v[k], keys, depth + 1); });
    }

    /*
     * failureBanner leads with the message of an error reported as data: the
     * banner with the message, the payload's other fields as a card below it,
     * the whole payload one click away in Raw JSON.
     */
    function failureBanner(f, target) {
      target.appendChild(h.errorBanner ? h.errorBanner([{ type: "text", text: f.message }]) : el("div", "error-banner", f.message));
      if (f.rest.length) target.appendChild(renderCard(f.data, f.rest, 0)).classList.add("meta");
    }

    /*
     * besideEnvelope draws the members an inner result carries beside its
     * content (envelopeOf's rest: an operation's metadata, a duration), after
     * the content: its scalars as a card, its objects and arrays as folded
     * sections.
     */
    function besideEnvelope(rest, args, target) {
      var scalars = Object.keys(rest).filter((k) => rest[k] === null || typeof rest[k] !== "object");
      if (scalars.length) target.appendChild(renderCard(rest, scalars, 0)).classList.add("meta");
      sideSections(rest, null, args, target);
    }

    /* Renders a CallToolResult into target. args are the arguments of the call that produced it. */
    function render(whole, target, args) {
      target.replaceChildren();
      foldBudget.left = FOLDS_DRAWN;
      if (!isObj(whole)) {
        target.appendChild(el("div", "error-banner", "The host returned no result object."));
        return;
      }
      // A result that is only its own CallToolResult as text is drawn as that result.
      var env = envelopeOf(whole), result = env ? env.result : whole;
      var parts;
      if (result.isError) {
        // The error's text goes into the banner; other content (images, links, data) follows it.
        // A text that is an error object ({"error": "..."}) gives the banner its message.
        var items = Array.isArray(result.content) ? result.content : [], failed = null;
        var texts = items.map(function (item) {
          var f = isText(item) ? failureOf(textJSON(item.text.trim()), true) : null;
          if (f && !failed) failed = f;
          return f ? { type: "text", text: f.message, raw: item.text } : item;
        });
        target.appendChild(h.errorBanner ? h.errorBanner(texts) : el("div", "error-banner", "The tool reported an error."));
        if (failed && failed.rest.length) target.appendChild(renderCard(failed.data, failed.rest, 0)).classList.add("meta");
        parts = items.filter((item) => !(h.errorBanner && isText(item))).map(function (item) { return isText(item) ? { text: item.text } : { item: item }; });
        if (isObj(result.structuredContent) && !failureOf(result.structuredContent, true)) parts.push({ data: result.structuredContent });
      } else {
        parts = merge(result);
        // A result that is only an error reported as data ({"success": false, "error": "..."}) leads with its message.
        var only = parts.length === 1 ? (parts[0].data !== undefined ? deepJSON(parts[0].data) : parts[0].text !== undefined ? textJSON(parts[0].text.trim()) : undefined) : undefined;
        var failure = failureOf(only, false);
        if (failure) {
          failureBanner(failure, target);
          target.dataset.failed = "1";
          parts = [];
        } else delete target.dataset.failed;
      }
      var keys = {}, named = (cfg.show || []).length + (cfg.hide || []).length > 0;
      var principalDrawn = false, principalSeen = !cfg.principalPath, partSources = [];
      parts.forEach(function (p) {
        var pdata = p.data !== undefined ? deepJSON(p.data) : p.text !== undefined && cfg.principalPath ? global.GenuiText.classify(p.text).data : undefined;
        if (named) collectKeys(p.data !== undefined ? pdata : p.text !== undefined ? global.GenuiText.classify(p.text).data : undefined, keys, 0);
        if ((cfg.partViews || []).length) partSources.push(pdata !== undefined ? pdata : p.text !== undefined ? global.GenuiText.classify(p.text).data : undefined);
        if (cfg.principalPath && pdata !== undefined && !result.isError) {
          var pv = atPointer(pdata, cfg.principalPath);
          if (pv !== undefined) {
            principalSeen = true;
            // The principal data is drawn once, however many parts of the result hold it.
            if (principalDrawn) return;
            principalDrawn = true;
            var pruned = pruneHidden(pdata, cfg), val = atPointer(pruned, cfg.principalPath);
            var parent = cfg.principalPath.length > 1 ? atPointer(pruned, cfg.principalPath.slice(0, -1)) : pruned;
            // The objects above the records' parent ({ok, data: {matches}}) are their header.
            var wrappers = cfg.principalPath.slice(0, -1).map((_, i) => atPointer(pruned, cfg.principalPath.slice(0, i))).filter(isObj);
            target.appendChild(dataView(pruned, args, p.data !== undefined ? undefined : "json",
              isRecordArray(val) ? { records: val, parent: isObj(parent) ? parent : null, path: cfg.principalPath, wrappers: wrappers } : { value: val }));
            return;
          }
        }
        if (p.data !== undefined && (cfg.hide || []).length + (cfg.hidePaths || []).length + (cfg.partViews || []).length) p = Object.assign({}, p, { data: pruneHidden(pdata, cfg) });
        target.appendChild(drawPart(p, args));
      });
      // The spec's parts with their own view or label, each once, after the rest.
      (cfg.partViews || []).forEach(function (pv) {
        var val;
        partSources.some(function (d) { val = atPointer(d, pv.path); return val !== undefined; });
        if (val === undefined || result.isError) return;
        var sec = el("section", "spec-part");
        sec.dataset.path = pv.pointer;
        sec.appendChild(el("h3", "tsec-title", pv.label || pv.path[pv.path.length - 1]));
        var saved = cfg.view;
        cfg.view = pv.kind;
        try { sec.appendChild(typeof val === "string" ? drawView(textView(val), args) : dataView(val, args)); } finally { cfg.view = saved; }
        target.appendChild(sec);
      });
      // A principal the user asked for (a refinement changed it) is said when this result lacks it;
      // a proposed one (from the output schema or an earlier result) is not: a tool with modes
      // answers without it, and the result is drawn as it is.
      var askedPrincipal = (cfg.outcomes || []).some((o) => o.status !== "not applied" && (o.changes || []).some((c) => /^principal\b/.test(c)));
      if (!principalSeen && askedPrincipal && parts.length && !result.isError) target.insertBefore(el("div", "note config-note", "Not in this result: " + cfg.principal + " (the view's principal data)."), target.firstChild);
      // Fields the user named that this result does not have are said, not silently ignored.
      var absent = (cfg.show || []).concat(cfg.hide || []).filter((n) => !keys[norm(n)]);
      if (absent.length && parts.length && !result.isError) target.insertBefore(el("div", "note config-note", "Not in this result: " + absent.join(", ") + "."), target.firstChild);
      if (!result.isError && !parts.length && !target.dataset.failed) target.appendChild(el("div", "note empty-result", "Done, no output."));
      if (env) besideEnvelope(env.rest, args, target);
      var raw = el("details", "raw");
      raw.appendChild(el("summary", "", "Raw JSON"));
      raw.addEventListener("toggle", function () {
        if (raw.open && raw.children.length === 1) raw.appendChild(h.block(h.pretty(whole), "json"));
      });
      target.appendChild(raw);
    }

    /*
     * progress returns a bar for a call in progress, placed in host:
     * update(notification params) shows progress/total (or an indeterminate
     * bar without a total) and the message; done() removes it.
     */
    function progress(host) {
      var wrap = el("div", "progress"), bar = el("div", "progress-track"), fill = el("div", "progress-fill"), label = el("span", "progress-label");
      wrap.setAttribute("role", "progressbar");
      wrap.setAttribute("aria-label", "Progress of " + (tool.name || "the call"));
      bar.appendChild(fill);
      wrap.appendChild(bar);
      wrap.appendChild(label);
      wrap.hidden = true;
      host.appendChild(wrap);
      return {
        el: wrap,
        update: function (p) {
          if (!isObj(p) || typeof p.progress !== "number") return;
          wrap.hidden = false;
          var total = typeof p.total === "number" && p.total > 0 ? p.total : null;
          wrap.classList.toggle("indeterminate", !total);
          wrap.setAttribute("aria-valuenow", String(p.progress));
          if (total) {
            wrap.setAttribute("aria-valuemax", String(total));
            fill.style.width = Math.max(0, Math.min(100, p.progress / total * 100)).toFixed(1) + "%";
          } else wrap.removeAttribute("aria-valuemax");
          label.textContent = (typeof p.message === "string" && p.message ? p.message + " \u00b7 " : "") + fmtNum(p.progress) + (total ? " of " + fmtNum(total) : "");
        },
        done: function () { wrap.remove(); }
      };
    }

    /* View settings that are not about the data: form shown or folded, font size, monospace; refinements not (fully) applied. */
    function applyLayout() {
      var root = DOC.documentElement;
      var missed = (cfg.outcomes || []).filter((o) => o.status !== "applied");
      if (missed.length && DOC.body) {
        var box = el("div", "note refine-outcomes");
        box.setAttribute("role", "status");
        missed.forEach(function (o) {
          box.appendChild(el("div", "refine-outcome", "\u201c" + o.refinement + "\u201d " + o.status + (o.reason ? ": " + o.reason : "") + "."));
        });
        var mainEl = DOC.querySelector("main") || DOC.body;
        mainEl.insertBefore(box, mainEl.firstChild);
      }
      if (cfg.fontSize) root.style.setProperty("--g-size", cfg.fontSize + "px");
      if (cfg.mono) root.classList.add("mono-all");
      var form = DOC.getElementById("tool-form");
      if (form && cfg.form === "hidden" && !form.closest("details")) {
        var d = el("details", "form-fold");
        d.appendChild(el("summary", "", "Inputs"));
        form.parentNode.insertBefore(d, form);
        d.appendChild(form);
      }
    }
    applyLayout();

    return { render: render, progress: progress, config: cfg };
  }

  var GenuiRich = {
    create: create,
    lastCSV: null,
    // Exposed for tests and reuse.
    findMain: findMain, columnsOf: columnsOf, inferType: inferType, sortRows: sortRows,
    toCSV: toCSV, chartSpec: chartSpec, pagingArgs: pagingArgs, fromSpec: fromSpec, pruneHidden: pruneHidden,
    errorTextMessage: errorTextMessage
  };
  global.GenuiRich = GenuiRich;
})(window);
