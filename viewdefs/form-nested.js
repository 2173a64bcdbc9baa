/*
 * genui offline form, nested editors: arrays (rows of item editors with add
 * and remove; JSON for tuples), objects without properties (key/value rows
 * of scalars, else JSON) and oneOf/anyOf (a select of the alternatives and
 * the chosen one's editor). Registers itself as window.GenuiForm.nested;
 * form.js must come first. Inlined into a script element: it must never
 * contain a closing script tag or an HTML comment opener.
 */
(function (global) {
  "use strict";

  var F = global.GenuiForm, U = F.util;
  var el = U.el, isObj = U.isObj, resolve = U.resolve, kindOf = U.kindOf, editor = U.editor, group = U.group, scalarEditor = U.scalarEditor, matchesType = U.matchesType;

  function singular(name) {
    var n = String(name || "item").replace(/[_-]+/g, " ");
    return /ies$/.test(n) ? n.slice(0, -3) + "y" : /(?:ss|us)$/.test(n) ? n : /s$/.test(n) ? n.slice(0, -1) : n;
  }

  /* A one-line summary of an editor's value (its get() answer) for a folded row: `font bold · fill solid`. */
  function briefValue(r) {
    if (!r || r.error) return "to fix";
    if (r.omit || r.value === undefined || r.value === null) return "not set";
    var v = r.value, out;
    if (isObj(v)) {
      out = Object.keys(v).map(function (k) {
        var x = v[k];
        if (isObj(x)) return k + " " + Object.keys(x).map((j) => x[j] === true ? j : j + " " + (typeof x[j] === "object" ? "\u2026" : String(x[j]))).join(", ");
        return k + (x === true ? "" : " " + (typeof x === "object" ? "\u2026" : String(x)));
      }).join(" \u00b7 ");
      if (!out) out = "empty";
    } else out = typeof v === "object" ? JSON.stringify(v) : String(v);
    return out.length > 90 ? out.slice(0, 89) + "\u2026" : out;
  }

  /* Arrays: rows of item editors with add and remove; JSON for tuples. */
  function arrayEditor(s, ctx) {
    var items = s.items;
    if (Array.isArray(items) || Array.isArray(s.prefixItems)) return scalarEditor(s, "json", ctx);
    var itemSchema = resolve(isObj(items) ? items : {}, ctx.root);
    var ik = kindOf(itemSchema);
    // Rows of scalar cells (a sheet, a matrix): a grid.
    var cell = gridCell(itemSchema, ctx.root);
    if (cell) return gridEditor(s, itemSchema, cell, ctx);
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
    var itemName = itemSchema.title || singular(ctx.label || ctx.name).replace(/^./, (c) => c.toUpperCase());
    // Items that are objects or choices of an array inside another array's item fold to one line each:
    // a few cells of a few styles were thousands of pixels of fieldsets.
    var foldRows = !scalarItems && (ctx.depth || 0) >= 2;
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
      if (foldRows) {
        // An item of an array inside another array's item (a cell of a row of styles): one line that opens its editor.
        var fold = el("details", "row-fold"), sum = el("summary", "");
        fold.appendChild(sum);
        fold.appendChild(ed.wrap);
        entry.fold = fold;
        entry.summary = sum;
        var resum = function () { sum.textContent = itemName + " " + (rows.indexOf(entry) + 1) + ": " + briefValue(ed.get()); };
        entry.resum = resum;
        fold.addEventListener("change", resum);
        fold.addEventListener("toggle", resum);
        row.appendChild(fold);
      } else row.appendChild(ed.wrap);
      row.appendChild(rm);
      list.appendChild(row);
      rows.push(entry);
      if (v !== undefined) ed.set(v);
      relabel();
      if (entry.resum) entry.resum();
      return entry;
    }
    function relabel() {
      rows.forEach(function (r, i) {
        if (r.resum) r.resum();
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
      var constKey = keys.filter((k) => isObj(a.properties[k]) && a.properties[k].const !== undefined)[0];
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
    if (Array.isArray(a.enum)) return a.enum.some((x) => JSON.stringify(x) === JSON.stringify(v)) ? 8 : -1;
    if (!matchesType(v, a) && a.type !== undefined) return -1;
    var score = a.type !== undefined ? 2 : 1;
    if (isObj(v) && isObj(a.properties)) {
      var props = a.properties;
      Object.keys(props).forEach(function (k) {
        if (isObj(props[k]) && props[k].const !== undefined) score += JSON.stringify(props[k].const) === JSON.stringify(v[k]) ? 5 : -10;
      });
      if (Array.isArray(a.required) && a.required.some((k) => !(k in v))) score -= 5;
      score += Object.keys(v).filter((k) => k in props).length;
    }
    return score;
  }

  /* oneOf/anyOf: a select of the alternatives and the chosen one's editor below it. */
  function choiceEditor(s, ctx) {
    var alts = (s.oneOf || s.anyOf).map((a) => resolve(a, ctx.root));
    var nullable = alts.some((a) => a.type === "null");
    alts = alts.filter((a) => a.type !== "null");
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
   * gridCell: when rows (an array's items) are arrays of scalars, the kinds a
   * cell may hold ({string, number, integer, boolean, null}: true), else null.
   */
  function gridCell(rows, root) {
    if (kindOf(rows) !== "array" || !isObj(rows.items)) return null;
    var c = resolve(rows.items, root), kinds = {};
    var add = function (x) {
      x = resolve(x, root);
      var ts = Array.isArray(x.type) ? x.type : x.type ? [x.type] : [];
      if (!ts.length && Array.isArray(x.anyOf || x.oneOf)) return (x.anyOf || x.oneOf).every(add);
      if (!ts.length) { kinds.string = kinds.number = kinds.boolean = kinds["null"] = true; return true; }
      return ts.every(function (t) { if (["string", "number", "integer", "boolean", "null"].indexOf(t) < 0) return false; kinds[t] = true; return true; });
    };
    var alts = c.anyOf || c.oneOf;
    var ok = Array.isArray(alts) ? alts.every(add) : add(c);
    return ok && Object.keys(kinds).some((k) => k !== "null") ? kinds : null;
  }

  function colName(i) {
    var n = "";
    for (i++; i > 0; i = Math.floor((i - 1) / 26)) n = String.fromCharCode(65 + (i - 1) % 26) + n;
    return n;
  }

  /*
   * gridEditor edits rows of scalar cells as a grid of text inputs (columns
   * A, B, C..., rows 1, 2, 3...): rows and columns added or removed, a
   * tab-separated block pasted from a spreadsheet fills the cells from the
   * one pasted into. Each cell is typed as the schema allows: a number when
   * it reads as one, true/false, empty as null (or "" when null is not
   * allowed); the rest text (formulas such as "=SUM(A1:A3)" included).
   */
  function gridEditor(s, rowSchema, kinds, ctx) {
    var fs = group(ctx, s, "array grid");
    var scroll = el("div", "grid-wrap");
    var table = el("table", "grid");
    scroll.appendChild(table);
    var bar = el("div", "grid-bar");
    var err = el("div", "field-error");
    var b = function (text, label, fn) { var x = el("button", "secondary", text); x.type = "button"; x.setAttribute("aria-label", label); x.addEventListener("click", function () { f.dirty = true; fn(); }); bar.appendChild(x); return x; };
    var data = [], cols = 0;
    var f = { kind: "grid", wrap: fs, dirty: false };
    function draw() {
      table.replaceChildren();
      var head = el("tr");
      head.appendChild(el("th", "corner", ""));
      for (var c = 0; c < cols; c++) head.appendChild(el("th", "", colName(c)));
      var thead = el("thead");
      thead.appendChild(head);
      table.appendChild(thead);
      var tbody = el("tbody");
      // Each column as wide as its longest value (7 to 24 characters).
      var widths = [];
      for (var w = 0; w < cols; w++) widths.push(Math.min(24, Math.max(7, data.reduce((m, row) => Math.max(m, String(row[w] || "").length + 2), 0))));
      data.forEach(function (row, r) {
        var tr = el("tr");
        tr.appendChild(el("th", "", String(r + 1)));
        for (var c = 0; c < cols; c++) {
          var td = el("td"), input = el("input");
          input.type = "text";
          input.value = row[c] === undefined ? "" : row[c];
          input.style.width = widths[c] + "ch";
          input.id = ctx.id + "-r" + r + "c" + c;
          input.setAttribute("aria-label", (ctx.label || ctx.name) + " " + colName(c) + (r + 1));
          (function (r, c) {
            input.addEventListener("input", function (ev) { data[r][c] = ev.target.value; f.dirty = true; err.textContent = ""; });
            input.addEventListener("paste", function (ev) {
              var t = ev.clipboardData ? ev.clipboardData.getData("text/plain") : "";
              if (!/[\t\n]/.test(t.replace(/\r?\n$/, ""))) return;
              ev.preventDefault();
              paste(r, c, t);
            });
          })(r, c);
          td.appendChild(input);
          tr.appendChild(td);
        }
        tbody.appendChild(tr);
      });
      table.appendChild(tbody);
      size.textContent = data.length + " \u00d7 " + cols;
    }
    function resize(rows, columns) {
      while (data.length < rows) data.push([]);
      data.length = rows;
      cols = columns;
      data.forEach(function (row) { while (row.length < cols) row.push(""); row.length = cols; });
      draw();
    }
    function paste(r, c, text) {
      var rowsIn = text.replace(/\r\n?/g, "\n").replace(/\n$/, "").split("\n").map((l) => l.split("\t"));
      var w = Math.max.apply(null, rowsIn.map((x) => x.length));
      resize(Math.max(data.length, r + rowsIn.length), Math.max(cols, c + w));
      rowsIn.forEach(function (row, i) { row.forEach(function (v, j) { data[r + i][c + j] = v; }); });
      f.dirty = true;
      draw();
    }
    b("+ Row", "Add a row", function () { resize(data.length + 1, Math.max(cols, 1)); });
    b("+ Column", "Add a column", function () { resize(Math.max(data.length, 1), cols + 1); });
    b("\u2212 Row", "Remove the last row", function () { resize(Math.max(0, data.length - 1), cols); });
    b("\u2212 Column", "Remove the last column", function () { resize(data.length, Math.max(0, cols - 1)); });
    var size = el("span", "note grid-size", "");
    bar.appendChild(size);
    fs.appendChild(scroll);
    fs.appendChild(bar);
    fs.appendChild(err);

    function typedCell(text, r, c) {
      var t = String(text);
      if (t.trim() === "") {
        if (kinds["null"]) return { value: null };
        if (kinds.string) return { value: "" };
        return { error: "Cell " + colName(c) + (r + 1) + " is empty." };
      }
      var n = Number(t.trim());
      if ((kinds.number || kinds.integer) && /^-?(?:\d+|\d*\.\d+)(?:[eE][+-]?\d+)?$/.test(t.trim()) && isFinite(n) && (kinds.number || Number.isInteger(n))) return { value: n };
      if (kinds.boolean && (t.trim() === "true" || t.trim() === "false")) return { value: t.trim() === "true" };
      if (kinds.string) return { value: t };
      return { error: "Cell " + colName(c) + (r + 1) + ": enter " + Object.keys(kinds).filter((k) => k !== "null").join(" or ") + "." };
    }
    f.set = function (v) {
      var rows = Array.isArray(v) ? v.filter(Array.isArray) : [];
      var w = rows.reduce((m, row) => Math.max(m, row.length), 0);
      data = rows.map((row) => row.map((x) => x === null || x === undefined ? "" : typeof x === "object" ? JSON.stringify(x) : String(x)));
      resize(data.length, w);
      f.dirty = true;
    };
    f.get = function () {
      err.textContent = "";
      if (!data.length && !ctx.required && !f.dirty) return { omit: true };
      var out = [];
      for (var r = 0; r < data.length; r++) {
        var row = [];
        for (var c = 0; c < cols; c++) {
          var x = typedCell(data[r][c], r, c);
          if (x.error) { err.textContent = x.error; return { error: x.error }; }
          row.push(x.value);
        }
        out.push(row);
      }
      var min = typeof s.minItems === "number" ? s.minItems : 0;
      if (out.length < min) { err.textContent = "Add at least " + min + (min === 1 ? " row." : " rows."); return { error: err.textContent }; }
      return { value: out };
    };
    if (Array.isArray(s.default)) f.set(s.default);
    else resize(ctx.required ? 2 : 0, ctx.required ? 2 : 0);
    f.dirty = false;
    return f;
  }

  F.nested = { array: arrayEditor, map: mapEditor, choice: choiceEditor };
})(window);
