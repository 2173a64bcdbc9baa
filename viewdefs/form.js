/*
 * genui offline form: an input form compiled in the browser from a tool's
 * whole JSON Schema. Plain browser script, defines window.GenuiForm.
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
(function (global) {
  "use strict";

  var DOC = global.document;
  var MAX_DEPTH = 6;
  var CONTENT_NAME = /(?:^|_|-|[a-z](?=[A-Z]))(?:content|contents|text|body|code|sql|script|patch|diff|prompt|markdown|html|template|message|description|notes?|comment|snippet|instructions|yaml|csv|query_string|source_code|commit_message)$|^(?:content|contents|text|body|code|sql|script|patch|diff|prompt|markdown|md|html|template|message|description|notes?|comment|snippet|instructions|yaml|csv|data|payload|document|newText|oldText|new_text|old_text|new_string|old_string|replacement)$/i;
  var CODE_NAME = /code|sql|script|patch|diff|json|yaml|html|command|snippet|template|regex/i;
  var CONTENT_DESC = /multi-?line|\bcontents?\b|markdown|source code|\bsql\b|\bscript\b|text to (?:write|replace|insert|search)|\bbody\b/i;
  var WIDE_NAME = /path|file|dir|folder|url|uri|source|destination|dest|target|query|pattern|command|glob|regex/i;

  function el(tag, cls, text) {
    var e = DOC.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function isObj(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }
  function pretty(v) { try { var s = JSON.stringify(v, null, 2); return s === undefined ? String(v) : s; } catch (e) { return String(v); } }
  function lf(s) { return String(s).replace(/\r\n?/g, "\n"); }

  /* A description: folded to two lines when long, with a button to unfold it. */
  function hint(text, cls) {
    var h = el("span", cls || "hint", text);
    if (String(text).length > 140 || String(text).split("\n").length > 3) fold(h);
    return h;
  }

  /* Folds e (a long description) and puts a More/Less button after it once it is in the page. */
  function fold(e) {
    e.classList.add("folded");
    var b = el("button", "more", "More");
    b.type = "button";
    b.setAttribute("aria-expanded", "false");
    b.addEventListener("click", function () {
      var open = e.classList.toggle("folded") === false;
      b.textContent = open ? "Less" : "More";
      b.setAttribute("aria-expanded", String(open));
    });
    e.moreButton = b;
    setTimeout(function () { if (e.parentNode && !b.parentNode) e.parentNode.insertBefore(b, e.nextSibling); }, 0);
    return e;
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
      var real = alts.filter(function (a) { return !(isObj(a) && a.type === "null"); });
      if (real.length === 1) {
        var m = Object.assign({}, s, resolve(real[0], root, depth + 1));
        delete m.anyOf;
        delete m.oneOf;
        return m;
      }
    }
    if (Array.isArray(s.type)) {
      var ts = s.type.filter(function (t) { return t !== "null"; });
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
    if (typeof s.maxLength === "number" && s.maxLength > 200) return true;
    if (CONTENT_NAME.test(name)) return true;
    return CONTENT_DESC.test(s.description || "");
  }

  function isoToLocal(v) {
    var d = new Date(v);
    if (isNaN(d.getTime())) return "";
    var p = function (n) { return String(n).padStart(2, "0"); };
    return d.getFullYear() + "-" + p(d.getMonth() + 1) + "-" + p(d.getDate()) + "T" + p(d.getHours()) + ":" + p(d.getMinutes());
  }

  function singular(name) {
    var n = String(name || "item").replace(/[_-]+/g, " ");
    return /ies$/.test(n) ? n.slice(0, -3) + "y" : /(?:ss|us)$/.test(n) ? n : /s$/.test(n) ? n.slice(0, -1) : n;
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
    var k = kindOf(s);
    if (ctx.depth > MAX_DEPTH && (k === "object" || k === "array" || k === "choice")) k = "json";
    switch (k) {
      case "array": return arrayEditor(s, ctx);
      case "object": return isObj(s.properties) && Object.keys(s.properties).length ? objectEditor(s, ctx) : mapEditor(s, ctx);
      case "choice": return choiceEditor(s, ctx);
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
        t.rows = 3;
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
          var i = f.values.findIndex(function (x) { return JSON.stringify(x) === j; });
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

  /* Arrays: rows of item editors with add and remove; JSON for tuples. */
  function arrayEditor(s, ctx) {
    var items = s.items;
    if (Array.isArray(items) || Array.isArray(s.prefixItems)) return scalarEditor(s, "json", ctx);
    var itemSchema = resolve(isObj(items) ? items : {}, ctx.root);
    var ik = kindOf(itemSchema);
    if (ik === "any") itemSchema = Object.assign({ type: "string" }, itemSchema);
    var scalarItems = ["string", "number", "integer", "boolean", "enum", "any", "json"].indexOf(ik) >= 0;
    var fs = group(ctx, s, "array" + (scalarItems ? " scalars" : " objects"));
    var list = el("div", "rows");
    var err = el("div", "field-error");
    var add = el("button", "secondary add", "+ Add " + (itemSchema.title || singular(ctx.label || ctx.name)));
    add.type = "button";
    fs.appendChild(list);
    fs.appendChild(add);
    fs.appendChild(err);
    var rows = [], seq = 0;
    var itemName = itemSchema.title || singular(ctx.label || ctx.name).replace(/^./, function (c) { return c.toUpperCase(); });
    var f = { kind: "array", wrap: fs, dirty: false };

    function addRow(v) {
      var n = seq++;
      var row = el("div", "row");
      var ed = editor(itemSchema, { name: ctx.name, label: scalarItems ? (ctx.label || ctx.name) + " " + (rows.length + 1) : itemName + " " + (rows.length + 1), id: ctx.id + "-" + n, required: !scalarItems, noStar: true, root: ctx.root, depth: ctx.depth + 1, bare: scalarItems });
      var rm = el("button", "secondary remove", "\u00d7");
      rm.type = "button";
      rm.title = "Remove";
      rm.setAttribute("aria-label", "Remove " + singular(ctx.label || ctx.name) + " " + (rows.length + 1));
      var entry = { row: row, ed: ed };
      rm.addEventListener("click", function () {
        rows.splice(rows.indexOf(entry), 1);
        row.remove();
        f.dirty = true;
        relabel();
      });
      row.appendChild(ed.wrap);
      row.appendChild(rm);
      list.appendChild(row);
      rows.push(entry);
      if (v !== undefined) ed.set(v);
      relabel();
      return entry;
    }
    function relabel() {
      rows.forEach(function (r, i) {
        var lg = r.ed.wrap.querySelector ? r.ed.wrap.querySelector(":scope > legend label") : null;
        if (lg && !scalarItems && lg.firstChild) lg.firstChild.textContent = itemName + " " + (i + 1);
      });
      err.textContent = "";
    }
    add.addEventListener("click", function () {
      f.dirty = true;
      var r = addRow();
      var first = r.row.querySelector("input, select, textarea");
      if (first) first.focus();
    });

    f.set = function (v) {
      rows.slice().forEach(function (r) { r.row.remove(); });
      rows = [];
      if (Array.isArray(v)) v.forEach(function (x) { addRow(x); });
      else if (v !== undefined && v !== null) addRow(v);
      f.dirty = true;
    };
    f.get = function () {
      var out = [], bad = false;
      rows.forEach(function (r) {
        var x = r.ed.get();
        if (x.error) bad = true;
        else if (!x.omit) out.push(x.value);
      });
      err.textContent = "";
      if (bad) return { error: "Fix the items above." };
      var min = typeof s.minItems === "number" ? s.minItems : 0;
      if (!out.length && !ctx.required && !f.dirty) return { omit: true };
      if (out.length < min) { err.textContent = "Add at least " + min + (min === 1 ? " item." : " items."); return { error: err.textContent }; }
      if (typeof s.maxItems === "number" && out.length > s.maxItems) { err.textContent = "At most " + s.maxItems + " items."; return { error: err.textContent }; }
      if (s.uniqueItems) {
        var seen = {};
        if (out.some(function (x) { var j = JSON.stringify(x); if (seen[j]) return true; seen[j] = true; return false; })) { err.textContent = "Items must differ."; return { error: err.textContent }; }
      }
      return { value: out };
    };
    if (Array.isArray(s.default)) f.set(s.default);
    else if (ctx.required) addRow();
    f.dirty = false;
    return f;
  }

  /* Objects with properties: a fieldset of editors (required ones first). */
  function objectEditor(s, ctx) {
    var fs = ctx.top || ctx.flat ? null : group(ctx, s, "object");
    var box = ctx.top ? ctx.container : el("div", "fields");
    if (fs) fs.appendChild(box);
    if (ctx.flat) fs = box;
    var req = new Set(Array.isArray(s.required) ? s.required : []);
    var names = Object.keys(s.properties);
    names.sort(function (a, b) { return (req.has(b) ? 1 : 0) - (req.has(a) ? 1 : 0); });
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

  /* Objects without properties: key/value rows when the values are scalars, else JSON. */
  function mapEditor(s, ctx) {
    var vs = isObj(s.additionalProperties) ? resolve(s.additionalProperties, ctx.root) : null;
    var vk = vs ? kindOf(vs) : "json";
    if (!vs || ["string", "number", "integer", "boolean", "enum"].indexOf(vk) < 0) return scalarEditor(Object.assign({ type: "object" }, s), "json", ctx);
    var fs = group(ctx, s, "map");
    var list = el("div", "rows");
    var add = el("button", "secondary add", "+ Add entry");
    add.type = "button";
    fs.appendChild(list);
    fs.appendChild(add);
    var rows = [], seq = 0, f = { kind: "map", wrap: fs, dirty: false };
    function addRow(key, v) {
      var n = seq++, row = el("div", "row kv");
      var k = el("input");
      k.type = "text";
      k.placeholder = "key";
      k.setAttribute("aria-label", (ctx.label || ctx.name) + " key");
      k.id = ctx.id + "-k" + n;
      if (key !== undefined) k.value = key;
      var ed = editor(vs, { name: ctx.name, label: "value", id: ctx.id + "-v" + n, required: true, root: ctx.root, depth: ctx.depth + 1, bare: true });
      var rm = el("button", "secondary remove", "\u00d7");
      rm.type = "button";
      rm.setAttribute("aria-label", "Remove entry");
      var entry = { k: k, ed: ed, row: row };
      rm.addEventListener("click", function () { rows.splice(rows.indexOf(entry), 1); row.remove(); f.dirty = true; });
      row.appendChild(k);
      row.appendChild(ed.wrap);
      row.appendChild(rm);
      list.appendChild(row);
      rows.push(entry);
      if (v !== undefined) ed.set(v);
    }
    add.addEventListener("click", function () { f.dirty = true; addRow(); });
    f.set = function (v) {
      rows.forEach(function (r) { r.row.remove(); });
      rows = [];
      if (isObj(v)) Object.keys(v).forEach(function (key) { addRow(key, v[key]); });
      f.dirty = true;
    };
    f.get = function () {
      var o = {}, bad = false;
      rows.forEach(function (r) {
        if (!r.k.value) return;
        var x = r.ed.get();
        if (x.error) bad = true;
        else o[r.k.value] = x.value;
      });
      if (bad) return { error: "Fix the entries above." };
      if (!Object.keys(o).length && !ctx.required && !f.dirty) return { omit: true };
      return { value: o };
    };
    if (isObj(s.default)) f.set(s.default);
    f.dirty = false;
    return f;
  }

  function altLabel(a, i) {
    if (a.title) return a.title;
    if (a.const !== undefined) return String(a.const);
    if (isObj(a.properties)) {
      var keys = Object.keys(a.properties);
      var constKey = keys.filter(function (k) { return isObj(a.properties[k]) && a.properties[k].const !== undefined; })[0];
      if (constKey) return String(a.properties[constKey].const);
      var req = Array.isArray(a.required) && a.required.length ? a.required : keys;
      return "{" + req.slice(0, 3).join(", ") + (req.length > 3 ? ", \u2026" : "") + "}";
    }
    if (a.type === "array") return "list";
    if (a.type) return String(a.type);
    if (a.description) return String(a.description).slice(0, 40);
    return "Option " + (i + 1);
  }

  /* How well v fits alternative a (higher is better). */
  function fit(v, a) {
    if (a.const !== undefined) return JSON.stringify(a.const) === JSON.stringify(v) ? 10 : -1;
    if (Array.isArray(a.enum)) return a.enum.some(function (x) { return JSON.stringify(x) === JSON.stringify(v); }) ? 8 : -1;
    if (!matchesType(v, a) && a.type !== undefined) return -1;
    var score = a.type !== undefined ? 2 : 1;
    if (isObj(v) && isObj(a.properties)) {
      var props = a.properties;
      Object.keys(props).forEach(function (k) {
        if (isObj(props[k]) && props[k].const !== undefined) score += JSON.stringify(props[k].const) === JSON.stringify(v[k]) ? 5 : -10;
      });
      if (Array.isArray(a.required) && a.required.some(function (k) { return !(k in v); })) score -= 5;
      score += Object.keys(v).filter(function (k) { return k in props; }).length;
    }
    return score;
  }

  /* oneOf/anyOf: a select of the alternatives and the chosen one's editor below it. */
  function choiceEditor(s, ctx) {
    var alts = (s.oneOf || s.anyOf).map(function (a) { return resolve(a, ctx.root); });
    var nullable = alts.some(function (a) { return a.type === "null"; });
    alts = alts.filter(function (a) { return a.type !== "null"; });
    var fs = group(ctx, s, "choice");
    var sel = el("select", "choice-select");
    sel.id = ctx.id + "-choice";
    sel.setAttribute("aria-label", (s.title || ctx.label || ctx.name) + ": kind");
    if (!ctx.required || nullable) sel.appendChild(el("option", "", nullable ? "none (null)" : "\u2014")).value = "";
    alts.forEach(function (a, i) { var o = el("option", "", altLabel(a, i)); o.value = String(i); sel.appendChild(o); });
    var body = el("div", "choice-body");
    fs.appendChild(sel);
    fs.appendChild(body);
    var cur = null, f = { kind: "choice", wrap: fs, dirty: false };
    function pick(i, v) {
      body.replaceChildren();
      cur = null;
      sel.value = i < 0 ? "" : String(i);
      if (i < 0) return;
      cur = editor(alts[i], { name: ctx.name, label: altLabel(alts[i], i), id: ctx.id + "-" + i, required: true, root: ctx.root, depth: ctx.depth + 1, flat: true, bare: kindOf(alts[i]) !== "object" && kindOf(alts[i]) !== "array" });
      if (v !== undefined) cur.set(v);
      body.appendChild(cur.wrap);
    }
    sel.addEventListener("change", function () { f.dirty = true; pick(sel.value === "" ? -1 : Number(sel.value)); });
    f.set = function (v) {
      f.dirty = true;
      if (v === undefined || v === null) { pick(ctx.required && !nullable && alts.length ? 0 : -1); return; }
      var best = 0, bestScore = -Infinity;
      alts.forEach(function (a, i) { var sc = fit(v, a); if (sc > bestScore) { best = i; bestScore = sc; } });
      pick(best, v);
    };
    f.get = function () {
      if (!cur) return sel.value === "" && nullable && f.dirty ? { value: null } : ctx.required && !nullable ? { error: "Choose one." } : { omit: true };
      var r = cur.get();
      if (r.omit && ctx.required) return { error: "Required." };
      return r;
    };
    if (s.default !== undefined) f.set(s.default);
    else pick(ctx.required && !nullable ? 0 : -1);
    f.dirty = false;
    return f;
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

  global.GenuiForm = { create: create, fold: fold, resolve: resolve };
})(window);
