/*
 * genui offline form: an input form compiled in the browser from a tool's
 * whole JSON Schema. Plain browser script, defines window.GenuiForm; the
 * editors of arrays, maps and choices are in form-nested.js, which the page
 * includes only when the schema has them.
 * Scalars get typed inputs (enums a select, booleans a checkbox, dates a
 * date input); strings that hold content (by name, description, format or
 * length) get a multi-line text area; arrays of scalars are rows to add and
 * remove, arrays of objects repeated fieldsets, nested objects fieldsets,
 * oneOf/anyOf a choice of the alternatives, local $refs are followed; only
 * what a form cannot express (tuples, free-form objects, deep recursion) is
 * a JSON text area. Values round-trip exactly: a string is sent as typed,
 * and a prefilled string the user did not change goes back byte for byte
 * (text areas turn CR LF into LF, so the original is kept until it is
 * edited). All text reaches the DOM through textContent.
 * This file is inlined into a script element: it must never contain a
 * closing script tag or an HTML comment opener.
 */
/* Wrapped with form-base.js (global, DOC, el, fold) into one strict classic script (viewdefs' AssetUnits). */
  var MAX_DEPTH = 6;
  var CONTENT_NAME = /(?:^|_|-|[a-z](?=[A-Z]))(?:content|contents|text|body|code|sql|script|patch|diff|prompt|markdown|html|template|message|description|notes?|comment|snippet|instructions|yaml|csv|query_string|source_code|commit_message)$|^(?:content|contents|text|body|code|sql|script|patch|diff|prompt|markdown|md|html|template|message|description|notes?|comment|snippet|instructions|yaml|csv|data|payload|document|newText|oldText|new_text|old_text|new_string|old_string|replacement)$/i;
  var CODE_NAME = /code|sql|script|patch|diff|json|yaml|html|command|snippet|template|regex/i;
  var CONTENT_DESC = /multi-?line|\bcontents?\b|markdown|source code|\bsql\b|\bscript\b|text to (?:write|replace|insert|search)|\bbody\b/i;
  // Free text a person writes at length (a thought, an explanation): a text area in the page's font.
  var PROSE_NAME = /(?:^|_|-|[a-z](?=[A-Z]))(?:thoughts?|thinking|reasoning|reflection|rationale|explanation|summary|feedback|story|essay|narrative|analysis|hypothesis|observations?|answer|reply|response|review|abstract|bio|biography|justification|transcript|question)$/i;
  var PROSE_DESC = /\b(?:thinking|thoughts?|reasoning|reflection|in detail|detailed|explain|explanation|paragraphs?|free[- ]?form|free text|long(?:er)? text|natural language|full text|step[- ]by[- ]step|your (?:current |own )?(?:analysis|answer|response|thinking|thoughts?))\b/i;
  var SHORT_DESC = /\b(?:(?:text|string|value|characters?|keys?) to (?:type|search for|wait for|find|look for|match|press|select)|to search for|to wait for|search (?:term|keyword)s?)\b/i;
  var WIDE_NAME = /path|file|dir|folder|url|uri|source|destination|dest|target|query|pattern|command|glob|regex/i;

  function isObj(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }
  function pretty(v) { try { var s = JSON.stringify(v, null, 2); return s === undefined ? String(v) : s; } catch (e) { return String(v); } }
  function lf(s) { return String(s).replace(/\r\n?/g, "\n"); }

  /* A description: folded to two lines when long, with a button to unfold it. */
  function hint(text, cls) {
    text = tidy(text);
    var h = marked(el("span", cls || "hint"), text);
    if (String(text).length > 140 || String(text).split("\n").length > 3) fold(h);
    return h;
  }

  /*
   * A description's inline markdown (`code`, **bold**, *italic*; schema
   * descriptions are often written in it: "Enable markdown parsing (links,
   * **bold**, *italic*)") drawn as such, the rest as text, into e.
   */
  var INLINE_MARK = /`([^`\n]+)`|\*\*([^*\n]+)\*\*|(^|[^\w*])\*([^*\s](?:[^*\n]*[^*\s])?)\*(?![\w*])/g;
  function marked(e, text) {
    var at = 0, m;
    INLINE_MARK.lastIndex = 0;
    while ((m = INLINE_MARK.exec(text))) {
      var lead = m[3] || "";
      e.appendChild(DOC.createTextNode(text.slice(at, m.index) + lead));
      e.appendChild(el(m[1] !== undefined ? "code" : m[2] !== undefined ? "strong" : "em", "", m[1] !== undefined ? m[1] : m[2] !== undefined ? m[2] : m[4]));
      at = INLINE_MARK.lastIndex;
    }
    e.appendChild(DOC.createTextNode(text.slice(at)));
    return e;
  }

  /* Descriptions often come indented inside their source: trimmed and dedented. */
  function tidy(text) {
    var ls = String(text).replace(/\r\n?/g, "\n").replace(/^\s*\n|\s+$/g, "").split("\n"), pad = Infinity;
    ls.forEach(function (l, i) { if (l.trim() && (i > 0 || /^\s/.test(l))) pad = Math.min(pad, l.match(/^[ \t]*/)[0].length); });
    return ls.map(function (l, i) { return i === 0 ? l.trim() : l.slice(pad === Infinity ? 0 : pad); }).join("\n");
  }

  /* ---------- schema helpers ---------- */

  function resolve(s, root, depth) {
    depth = depth || 0;
    if (!isObj(s)) return {};
    if (typeof s.$ref === "string" && depth < 12) {
      var target = pointer(root, s.$ref);
      if (target) {
        var rest = Object.assign({}, s);
        delete rest.$ref;
        return resolve(Object.assign({}, target, rest), root, depth + 1);
      }
    }
    if (Array.isArray(s.allOf) && s.allOf.length) {
      var merged = Object.assign({}, s), props = {}, req = [];
      delete merged.allOf;
      s.allOf.concat([s]).forEach(function (part) {
        part = part === s ? s : resolve(part, root, depth + 1);
        if (isObj(part.properties)) Object.assign(props, part.properties);
        if (Array.isArray(part.required)) req = req.concat(part.required);
        ["type", "title", "description"].forEach(function (k) { if (merged[k] === undefined && part[k] !== undefined) merged[k] = part[k]; });
      });
      if (Object.keys(props).length) { merged.properties = props; merged.type = merged.type || "object"; }
      if (req.length) merged.required = req;
      return merged;
    }
    var alts = s.anyOf || s.oneOf;
    if (Array.isArray(alts)) {
      var real = alts.filter((a) => !(isObj(a) && a.type === "null"));
      if (real.length === 1) {
        var m = Object.assign({}, s, resolve(real[0], root, depth + 1));
        delete m.anyOf;
        delete m.oneOf;
        return m;
      }
    }
    if (Array.isArray(s.type)) {
      var ts = s.type.filter((t) => t !== "null");
      if (ts.length === 1) return Object.assign({}, s, { type: ts[0] });
      if (ts.length > 1 && !s.anyOf && !s.oneOf) {
        var c = Object.assign({}, s, { anyOf: ts.map(function (t) { var a = Object.assign({}, s, { type: t }); delete a.default; return a; }) });
        delete c.type;
        return c;
      }
    }
    return s;
  }

  function pointer(root, ref) {
    if (ref.charAt(0) !== "#") return null;
    var v = root;
    ref.slice(1).split("/").filter(Boolean).forEach(function (p) {
      p = decodeURIComponent(p).replace(/~1/g, "/").replace(/~0/g, "~");
      v = isObj(v) ? v[p] : undefined;
    });
    return isObj(v) ? v : null;
  }

  function kindOf(s) {
    if (Array.isArray(s.enum) && s.enum.length) return "enum";
    if (s.const !== undefined) return "enum";
    if (Array.isArray(s.anyOf || s.oneOf) && (s.anyOf || s.oneOf).length > 1) return "choice";
    switch (s.type) {
      case "string": return "string";
      case "integer": return "integer";
      case "number": return "number";
      case "boolean": return "boolean";
      case "array": return "array";
      case "object": return "object";
      case undefined: return isObj(s.properties) ? "object" : s.items ? "array" : "any";
      default: return "json";
    }
  }

  function matchesType(v, s) {
    var types = s.type;
    if (types === undefined) return true;
    if (!Array.isArray(types)) types = [types];
    return types.some(function (t) {
      switch (t) {
        case "object": return isObj(v);
        case "array": return Array.isArray(v);
        case "string": return typeof v === "string";
        case "integer": return Number.isInteger(v);
        case "number": return typeof v === "number";
        case "boolean": return typeof v === "boolean";
        case "null": return v === null;
        default: return true;
      }
    });
  }

  function isContent(name, s) {
    if (/^(?:textarea|markdown|html|json|yaml|code|text|multiline|multi-line)$/i.test(s.format || "") || s.contentMediaType) return true;
    if (Array.isArray(s.enum) || /^(?:date|date-time|time|email|uri|url|uuid|hostname|ipv4|ipv6)$/.test(s.format || "")) return false;
    // Short text by its schema or its description ("Text to type", "The text to wait for"): one line.
    if (typeof s.maxLength === "number" && s.maxLength <= 200) return false;
    if (SHORT_DESC.test(s.description || "")) return false;
    if (typeof s.maxLength === "number" && s.maxLength > 200) return true;
    if (typeof s.minLength === "number" && s.minLength >= 40) return true;
    if (CONTENT_NAME.test(name) || PROSE_NAME.test(name)) return true;
    // A path, name or id is one line, whatever its description says about contents.
    if (/(?:path|file|dir|folder|url|uri|id|name|ref|branch|tag|hash|sha|key|email)s?$/i.test(name)) return false;
    return CONTENT_DESC.test(s.description || "") || PROSE_DESC.test(s.description || "");
  }

  /*
   * The other scalar types of a union with boolean (["boolean", "string"],
   * anyOf boolean | number), or null: such a field is one control, a
   * tri-state (unset / true / false) with a text or number entry when the
   * union has one.
   */
  function boolUnion(s) {
    var alts = s.anyOf || s.oneOf;
    if (!Array.isArray(alts) || alts.length < 2) return null;
    var types = [];
    for (var i = 0; i < alts.length; i++) {
      var a = alts[i];
      if (!isObj(a) || typeof a.type !== "string" || a.enum || a.const !== undefined || a.properties || a.items) return null;
      if (a.type !== "null") types.push(a.type);
    }
    if (types.indexOf("boolean") < 0 || types.length < 2) return null;
    var others = types.filter((t) => t !== "boolean");
    return others.every((t) => t === "string" || t === "number" || t === "integer") ? others : null;
  }

  function isoToLocal(v) {
    var d = new Date(v);
    if (isNaN(d.getTime())) return "";
    var p = (n) => String(n).padStart(2, "0");
    return d.getFullYear() + "-" + p(d.getMonth() + 1) + "-" + p(d.getDate()) + "T" + p(d.getHours()) + ":" + p(d.getMinutes());
  }

  /* ---------- editors ---------- */

  /*
   * An editor edits one value: {wrap, get, set, kind}. get() returns
   * {value}, {omit: true} (nothing entered, not required) or {error} (and
   * shows the message by the input); set(v) shows v (undefined clears).
   * ctx: {name, label, id, required, root, depth, bare (no label: a row)}.
   */
  function editor(raw, ctx) {
    var s = resolve(raw, ctx.root);
    var k = kindOf(s), N = api.nested;
    // Without form-nested.js (a schema of scalars only) or too deep: JSON.
    if (k === "choice" && boolUnion(s)) return triState(s, boolUnion(s), ctx);
    if ((ctx.depth > MAX_DEPTH || !N) && (k === "object" || k === "array" || k === "choice")) k = "json";
    switch (k) {
      case "array": return N.array(s, ctx);
      case "object": return isObj(s.properties) && Object.keys(s.properties).length ? objectEditor(s, ctx) : N.map(s, ctx);
      case "choice": return N.choice(s, ctx);
      default: return scalarEditor(s, k, ctx);
    }
  }

  function labelFor(ctx, s, forId) {
    var label = el("label", "", s.title || ctx.label || ctx.name);
    if (forId) label.htmlFor = forId;
    if (ctx.required && !ctx.noStar) {
      var r = el("span", "req", "*");
      r.title = "required";
      label.appendChild(r);
    }
    return label;
  }

  /* A const is not a choice: nothing to show, its value is always sent. */
  function constEditor(s, ctx) {
    var wrap = el("div", "field const");
    wrap.id = ctx.id;
    return { kind: "const", wrap: wrap, set: function () {}, get: function () { return { value: s.const }; } };
  }

  function scalarEditor(s, kind, ctx) {
    if (s.const !== undefined && !Array.isArray(s.enum)) return constEditor(s, ctx);
    var id = ctx.id, content = kind === "string" && isContent(ctx.name, s);
    var wide = kind === "json" || kind === "any" || content || (kind === "string" && WIDE_NAME.test(ctx.name));
    var wrap = el("div", kind === "boolean" ? "field check" : wide ? "field wide" : "field");
    var err = el("div", "field-error");
    var f = { kind: kind, schema: s, dirty: false, wrap: wrap, orig: undefined };
    var input;
    function makeText(multi) {
      var t;
      if (multi) {
        t = el("textarea", CODE_NAME.test(ctx.name) || kind !== "string" ? "" : "prose");
        if (PROSE_NAME.test(ctx.name) || PROSE_DESC.test(s.description || "")) t.rows = 5;
        if (!t.rows || t.rows === 2) t.rows = 3;
        t.spellcheck = kind === "string" && !CODE_NAME.test(ctx.name);
        t.addEventListener("input", function () { grow(t); });
      } else {
        t = el("input");
        t.type = "text";
      }
      if (kind === "string") {
        if (typeof s.minLength === "number") t.minLength = s.minLength;
        if (typeof s.maxLength === "number") t.maxLength = s.maxLength;
        if (!multi && typeof s.pattern === "string") t.pattern = s.pattern;
      }
      return t;
    }
    if (kind === "enum") {
      input = el("select");
      f.values = Array.isArray(s.enum) ? s.enum : [s.const];
      if (!ctx.required || s.default === undefined) input.appendChild(el("option", "", ctx.required ? "\u2014 choose \u2014" : "\u2014")).value = "";
      f.values.forEach(function (v, i) {
        var o = el("option", "", typeof v === "string" ? v : JSON.stringify(v));
        o.value = String(i);
        input.appendChild(o);
      });
    } else if (kind === "boolean") {
      input = el("input");
      input.type = "checkbox";
    } else if (kind === "json" || kind === "any") {
      input = el("textarea");
      input.spellcheck = false;
      input.placeholder = kind === "any" ? "value (JSON or text)" : (s.type === "array" ? "[ ... ] (JSON)" : "{ ... } (JSON)");
      input.addEventListener("input", function () { grow(input); });
    } else if (kind === "integer" || kind === "number") {
      input = el("input");
      input.type = "number";
      input.step = kind === "integer" ? "1" : (typeof s.multipleOf === "number" ? String(s.multipleOf) : "any");
      var min = typeof s.minimum === "number" ? s.minimum : s.exclusiveMinimum;
      var max = typeof s.maximum === "number" ? s.maximum : s.exclusiveMaximum;
      if (typeof min === "number") input.min = String(min);
      if (typeof max === "number") input.max = String(max);
    } else {
      var type = { "date": "date", "date-time": "datetime-local", "time": "time", "email": "email", "uri": "url", "url": "url" }[s.format || ""];
      if (type) {
        input = el("input");
        input.type = type;
      } else input = makeText(content);
    }
    input.id = id;
    input.name = ctx.name;
    if (ctx.required) input.required = true;
    if (ctx.bare) input.setAttribute("aria-label", ctx.label || ctx.name);
    f.input = input;
    var touched = function () { f.dirty = true; err.textContent = ""; };
    input.addEventListener("input", touched);
    input.addEventListener("change", touched);
    var label = ctx.bare ? null : labelFor(ctx, s, id);
    if (kind === "boolean") {
      wrap.appendChild(input);
      if (label) wrap.appendChild(label);
    } else {
      if (label) wrap.appendChild(label);
      wrap.appendChild(input);
    }
    if (s.description && !ctx.bare) wrap.appendChild(hint(s.description));
    if (!ctx.bare) facts(s, input, wrap);
    wrap.appendChild(err);

    /* A single-line input cannot hold a newline: swap in a text area first. */
    function toTextarea() {
      if (input.tagName === "TEXTAREA") return;
      var t = makeText(true);
      t.id = input.id;
      t.name = input.name;
      t.required = input.required;
      if (input.getAttribute("aria-label")) t.setAttribute("aria-label", input.getAttribute("aria-label"));
      t.addEventListener("input", touched);
      t.addEventListener("change", touched);
      input.replaceWith(t);
      input = f.input = t;
      wrap.classList.add("wide");
    }

    f.set = function (v) {
      f.dirty = true;
      err.textContent = "";
      f.orig = undefined;
      switch (kind) {
        case "enum": {
          var j = JSON.stringify(v);
          var i = f.values.findIndex((x) => JSON.stringify(x) === j);
          input.value = i >= 0 ? String(i) : "";
          break;
        }
        case "boolean": input.checked = v === true; break;
        case "json": input.value = v === undefined ? "" : pretty(v); grow(input); break;
        case "any": input.value = v === undefined ? "" : (typeof v === "string" ? v : pretty(v)); grow(input); break;
        default:
          if (v === undefined || v === null) input.value = "";
          else if (input.type === "datetime-local") input.value = isoToLocal(v);
          else {
            var str = String(v);
            if (/[\r\n]/.test(str) && kind === "string") toTextarea();
            input.value = str;
            if (typeof v === "string") f.orig = v; // sent back unchanged unless edited
            if (input.tagName === "TEXTAREA") grow(input);
          }
      }
    };

    f.get = function () {
      var r = read();
      err.textContent = r.error || "";
      return r;
    };

    function read() {
      var need = function (msg) { return ctx.required ? { error: msg } : { omit: true }; };
      switch (kind) {
        case "boolean":
          if (ctx.required || f.dirty || s.default !== undefined || ctx.bare) return { value: input.checked };
          return { omit: true };
        case "enum":
          if (input.value === "") return need("Choose a value.");
          return { value: f.values[Number(input.value)] };
        case "integer":
        case "number": {
          if (input.validity && input.validity.badInput) return { error: "Enter a number." };
          if (input.value.trim() === "") return need("Required.");
          var n = Number(input.value);
          if (!Number.isFinite(n)) return { error: "Enter a number." };
          if (kind === "integer" && !Number.isInteger(n)) return { error: "Enter a whole number." };
          if (!input.checkValidity()) return { error: input.validationMessage };
          return { value: n };
        }
        case "json":
        case "any": {
          var t = input.value.trim();
          if (t === "") return need("Required (JSON).");
          var v;
          try { v = JSON.parse(t); } catch (e) {
            if (kind === "any") return { value: input.value };
            return { error: "Invalid JSON: " + e.message };
          }
          if (!matchesType(v, s)) return { error: "Expected JSON of type " + JSON.stringify(s.type) + "." };
          return { value: v };
        }
        default: {
          if (f.orig !== undefined && input.value === lf(f.orig)) return { value: f.orig };
          if (input.value === "") return need("Required.");
          if (!input.checkValidity()) return { error: input.validationMessage || "Invalid value." };
          if (input.type === "datetime-local") {
            var d = new Date(input.value);
            return isNaN(d.getTime()) ? { error: "Invalid date and time." } : { value: d.toISOString() };
          }
          return { value: input.value };
        }
      }
    }
    if (s.default !== undefined) f.set(s.default);
    f.dirty = false;
    return f;
  }

  function short(v) { var t = typeof v === "string" ? v : JSON.stringify(v); return t.length > 60 ? t.slice(0, 59) + "\u2026" : t; }

  /*
   * facts shows what the schema knows beyond the description: the default
   * (the field starts with it), examples (the first one also as the
   * placeholder) and the allowed range.
   */
  function facts(s, input, wrap) {
    var parts = [];
    var ex = Array.isArray(s.examples) ? s.examples.filter((x) => x !== null && typeof x !== "object") : s.example !== undefined && typeof s.example !== "object" ? [s.example] : [];
    if (s.default !== undefined && s.default !== null && typeof s.default !== "object") parts.push("Default: " + short(s.default));
    if (ex.length) {
      parts.push((ex.length === 1 ? "Example: " : "Examples: ") + ex.slice(0, 5).map(short).join(", "));
      if (((input.tagName === "INPUT" && input.type !== "checkbox") || input.tagName === "TEXTAREA") && !input.placeholder) input.placeholder = "e.g. " + short(ex[0]);
    }
    // Bounds a schema library adds for any integer (2^53 - 1) say nothing.
    var real = (x) => typeof x === "number" && Math.abs(x) < 1e15 ? x : undefined;
    var min = real(typeof s.minimum === "number" ? s.minimum : s.exclusiveMinimum), max = real(typeof s.maximum === "number" ? s.maximum : s.exclusiveMaximum);
    var n = (x) => x.toLocaleString("en-US");
    if (typeof min === "number" && typeof max === "number") parts.push("From " + n(min) + " to " + n(max));
    else if (typeof min === "number") parts.push("At least " + n(min));
    else if (typeof max === "number") parts.push("At most " + n(max));
    if (parts.length) wrap.appendChild(el("span", "hint facts", parts.join(" \u00b7 ")));
  }

  /*
   * A union of boolean with string or number as one control: a select of
   * unset / true / false (/ a value), and the text or number entry when a
   * value is chosen. Sends a boolean, the typed value, or nothing.
   */
  function triState(s, others, ctx) {
    var wrap = el("div", "field tri"), err = el("div", "field-error"), id = ctx.id;
    var sel = el("select", "tri-select"), text = others.indexOf("string") >= 0 ? "text" : "number";
    sel.appendChild(el("option", "", ctx.required ? "\u2014 choose \u2014" : "\u2014 (not set)")).value = "";
    sel.appendChild(el("option", "", "true")).value = "true";
    sel.appendChild(el("option", "", "false")).value = "false";
    sel.appendChild(el("option", "", text === "text" ? "text\u2026" : "number\u2026")).value = "other";
    sel.id = id;
    sel.name = ctx.name;
    var entry = el("input", "tri-value");
    entry.type = text;
    if (text === "number") entry.step = others.indexOf("number") >= 0 ? "any" : "1";
    entry.id = id + "-value";
    entry.setAttribute("aria-label", (s.title || ctx.label || ctx.name) + " (" + text + ")");
    entry.hidden = true;
    var f = { kind: "tri", schema: s, wrap: wrap, dirty: false, input: sel };
    var show = function () { entry.hidden = sel.value !== "other"; };
    sel.addEventListener("change", function () { f.dirty = true; err.textContent = ""; show(); if (!entry.hidden) entry.focus(); });
    entry.addEventListener("input", function () { f.dirty = true; err.textContent = ""; });
    if (!ctx.bare) wrap.appendChild(labelFor(ctx, s, id));
    else sel.setAttribute("aria-label", ctx.label || ctx.name);
    var row = el("div", "tri-row");
    row.appendChild(sel);
    row.appendChild(entry);
    wrap.appendChild(row);
    if (s.description && !ctx.bare) wrap.appendChild(hint(s.description));
    if (!ctx.bare) facts(s, entry, wrap);
    wrap.appendChild(err);
    f.set = function (v) {
      f.dirty = true;
      if (v === true || v === false) { sel.value = String(v); entry.value = ""; }
      else if (v === undefined || v === null) { sel.value = ""; entry.value = ""; }
      else { sel.value = "other"; entry.value = String(v); }
      show();
    };
    f.get = function () {
      var r = (function () {
        if (sel.value === "") return ctx.required ? { error: "Choose a value." } : { omit: true };
        if (sel.value !== "other") return { value: sel.value === "true" };
        if (text === "text") return { value: entry.value };
        var n = Number(entry.value);
        if (entry.value.trim() === "" || !Number.isFinite(n)) return { error: "Enter a number." };
        return { value: n };
      })();
      err.textContent = r.error || "";
      return r;
    };
    if (s.default !== undefined) f.set(s.default);
    f.dirty = false;
    return f;
  }

  /* Text areas grow with their text up to about 16 lines, then scroll. */
  function grow(t) {
    if (!t.isConnected) return;
    t.style.height = "auto";
    t.style.height = Math.min(t.scrollHeight + 2, 340) + "px";
  }

  function group(ctx, s, cls) {
    var fs = el("fieldset", "group " + cls);
    fs.id = ctx.id;
    var legend = el("legend");
    legend.appendChild(labelFor(ctx, s, null));
    fs.appendChild(legend);
    if (s.description) fs.appendChild(hint(s.description));
    return fs;
  }

  /* Objects with properties: a fieldset of editors (required ones first). */
  function objectEditor(s, ctx) {
    var fs = ctx.top || ctx.flat ? null : group(ctx, s, "object");
    var box = ctx.top ? ctx.container : el("div", "fields");
    if (fs) fs.appendChild(box);
    if (ctx.flat) fs = box;
    var req = new Set(Array.isArray(s.required) ? s.required : []);
    var names = Object.keys(s.properties);
    names.sort((a, b) => (req.has(b) ? 1 : 0) - (req.has(a) ? 1 : 0));
    var kids = names.map(function (name) {
      var id = ctx.top ? "f-" + name.replace(/[^\w-]/g, "_") : ctx.id + "-" + name.replace(/[^\w-]/g, "_");
      var ed = editor(s.properties[name], { name: name, label: name, id: id, required: req.has(name), root: ctx.root, depth: ctx.depth + 1 });
      ed.name = name;
      box.appendChild(ed.wrap);
      return ed;
    });
    var f = { kind: "object", wrap: fs, fields: kids };
    f.set = function (v) {
      kids.forEach(function (k) { k.set(isObj(v) ? v[k.name] : undefined); if (!isObj(v) || !(k.name in v)) k.dirty = false; });
    };
    f.get = function () {
      // An optional object nobody filled in stays unset: its own required fields do not block the call.
      if (!ctx.required && !ctx.top && !touched(f)) return { omit: true };
      var o = {}, bad = false, any = false;
      kids.forEach(function (k) {
        var r = k.get();
        if (r.error) bad = true;
        else if (!r.omit) { o[k.name] = r.value; any = true; }
      });
      if (bad) return { error: "Fix the fields above." };
      if (!any && !ctx.required && !ctx.top) return { omit: true };
      return { value: o };
    };
    return f;
  }

  /* touched: the user (or a prefilled value) set something in the editor ed or below it. */
  function touched(ed) {
    return !!(ed && (ed.dirty || (ed.fields || []).some(touched)));
  }

  /*
   * create builds the form of schema (a tool's inputSchema) into container
   * and returns {collect, prefill, fields}: collect() is the arguments
   * object, or null after marking what is wrong; prefill(args) shows args.
   */
  function create(schema, container) {
    var root = isObj(schema) ? schema : {};
    var top = resolve(root, root);
    var props = isObj(top.properties) ? top.properties : {};
    var form = objectEditor({ properties: props, required: top.required }, { top: true, container: container, root: root, depth: 0, id: "f" });
    if (!form.fields.length) container.appendChild(el("p", "note", "This tool takes no arguments."));
    return {
      fields: form.fields,
      collect: function () {
        var r = form.get();
        return r.error ? null : r.value || {};
      },
      prefill: function (args) {
        if (!isObj(args)) return;
        form.fields.forEach(function (k) { if (Object.prototype.hasOwnProperty.call(args, k.name)) k.set(args[k.name]); });
      }
    };
  }

  var api = global.GenuiForm = { create: create, fold: fold, resolve: resolve, nested: null,
    // For form-nested.js.
    util: { el: el, isObj: isObj, resolve: resolve, kindOf: kindOf, editor: editor, group: group, scalarEditor: scalarEditor, matchesType: matchesType } };
