/*
 * Presentation metrics of one result page (issue 33), measured in the page's
 * own frame by corpus_metrics_browser_test.go. Called as
 * metrics(window, document, facts), facts being what the test read from the
 * recorded result (one representation: structuredContent when present, else
 * the JSON of the text content, else its words):
 *   leaves:    the result's leaf values (strings and numbers; nulls, booleans
 *              and empty strings left out; text, and long or multi-line
 *              strings, as their words), as strings
 *   principal: the row count of the principal data (the largest array of
 *              like records at any depth), 0 when there is none
 *   keys:      the result's object keys (a value equal to one may be drawn
 *              as a label too, so it is not counted as drawn twice)
 *   held:      the result's strings whole (long text too), to count how often
 *              it holds a value, inside other values too; else the leaves
 *   minWidth:  the narrowest the primary text column may be (150 px)
 *   prose:     sentences of prose text in the result (not JSON, not tabular)
 * Returns:
 *   leaves, covered: leaves counted, leaves visible or one click away
 *   missing:   up to 5 leaves neither visible nor one click away
 *   duplicated: distinctive leaves (12+ letters and digits, holding a space
 *              or a digit) drawn visibly outside charts more often than the
 *              result holds them, up to 5 of them, and dupCount their number
 *   principalRows: rows drawn of the principal data (table rows or list
 *              items of the largest visible table or list), principalCount
 *              whether its row count is visible as a number
 *   proseInCell: prose sentences found inside a table cell or key-value cell
 *   primary:   problems with the primary text column of each visible table
 *              (the column with the longest text in sight): narrower than 150 px while
 *              its text wraps, or less than 150 px of it (or all of it when
 *              narrower) inside the frame before any scrolling
 * Text counts as visible when no closed <details>, hidden element or
 * display:none box stands between it and #result; as one click away when
 * exactly one does (a fold, a tab, the raw view, a hidden column), or when it
 * is the title or link target of an element that is visible or one click
 * away (a value drawn as read, its text as written on hover: inside a fold
 * the page could show it no nearer without drawing it twice).
 */
function metrics(w, d, facts) {
  "use strict";
  var root = d.getElementById("result") || d.body;
  function norm(s) { return String(s).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ""); }
  function hiddenSteps(n) {
    var steps = 0;
    for (var e = n; e && e !== root; e = e.parentNode) {
      var parent = e.parentNode;
      if (parent && parent.tagName === "DETAILS" && !parent.open && e.tagName !== "SUMMARY") steps++;
      if (e.nodeType === 1 && (e.hidden || w.getComputedStyle(e).display === "none")) steps++;
    }
    return steps;
  }
  // visDup: visible text outside charts (a chart is a view of the data,
  // not a second copy of its text), for the duplication count.
  // attrs: titles, labels and link targets of elements visible or one click
  // away, kept apart from the text so that a titled part of a value (a
  // wikilink in a sentence) leaves its letters in order.
  var vis = [], near = [], visDup = [], attrs = [];
  var walker = d.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  for (var n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.nodeType === 1) {
      if (n.tagName === "SCRIPT" || n.tagName === "STYLE") continue;
      var extra = [n.getAttribute("title"), n.getAttribute("alt"), n.getAttribute("aria-label"), n.tagName === "A" ? n.getAttribute("href") : null, n.tagName === "IMG" ? n.getAttribute("src") : null];
      var s0 = null;
      extra.forEach(function (x) {
        if (!x) return;
        if (s0 === null) s0 = hiddenSteps(n);
        if (s0 <= 1) attrs.push(x);
      });
      continue;
    }
    if (!n.nodeValue.trim()) continue;
    var s = hiddenSteps(n);
    if (s === 0) {
      vis.push(n.nodeValue); near.push(n.nodeValue);
      if (!n.parentElement.closest("svg")) visDup.push(n.nodeValue);
    } else if (s === 1) near.push(n.nodeValue);
  }
  var nearN = norm(near.join(" ")) + " " + attrs.map(norm).join(" ");
  function count(hay, needle) {
    var c = 0, i = 0;
    while ((i = hay.indexOf(needle, i)) >= 0) { c++; i += needle.length; }
    return c;
  }
  var out = { leaves: 0, covered: 0, missing: [], duplicated: [], dupCount: 0, principalRows: 0, principalCount: false, proseInCell: [], primary: [] };
  var leaves = facts.leaves || [];
  var leafN = leaves.map(function (v) { var x = norm(v); return x.length > 160 ? x.slice(0, 160) : x; });
  // How often the result holds a value: in its strings whole (held) when given, so a value
  // that is also inside another one (an argument list in a definition) is held twice.
  // An ISO date-time's "T" is notation, not content: "2026-12-02T15:13:38.514Z" holds the
  // "2026-12-02 15:13:38" a page draws it as, so another value written that way is not drawn
  // twice when both are drawn.
  // It is read so everywhere the count looks: in the value, in the result and in the drawing,
  // so a date-time drawn once as written is held once, not zero times.
  var isoT = function (s) { return String(s).replace(/(\d{4}-\d{2}-\d{2})T(?=\d{2}:\d{2})/g, "$1 "); };
  var dupN = function (s) { var x = norm(isoT(s)); return x.length > 160 ? x.slice(0, 160) : x; };
  var allN = facts.held && facts.held.length ? facts.held.map(function (s) { return norm(isoT(s)); }).join(" ") : leaves.map(dupN).join(" ");
  var visN = norm(isoT(visDup.join(" ")));
  var seenDup = {};
  (facts.keys || []).forEach(function (k) { seenDup[norm(k)] = true; });
  leafN.forEach(function (x, i) {
    if (!x) return;
    out.leaves++;
    if (nearN.indexOf(x) >= 0) out.covered++;
    else if (out.missing.length < 5) out.missing.push(String(leaves[i]).slice(0, 80));
    // Distinctive values only: 12+ letters and digits, and a phrase or a
    // number-bearing value rather than an identifier a page also uses as a
    // label (best-practices, response_body).
    if (x.length >= 12 && !seenDup[x] && /[\s\d]/.test(String(leaves[i]))) {
      seenDup[x] = true;
      var xd = dupN(leaves[i]);
      var held = count(allN, xd);
      var drawn = count(visN, xd);
      if (drawn > held) {
        out.dupCount++;
        if (out.duplicated.length < 5) out.duplicated.push(String(leaves[i]).slice(0, 60) + " (" + drawn + "x drawn, " + held + "x held)");
      }
    }
  });

  function shown(e) {
    if (!e.getClientRects().length) return false;
    var st = w.getComputedStyle(e);
    return st.visibility !== "hidden" && st.display !== "none";
  }
  function inRaw(e) { return !!e.closest("details.raw, [data-raw-view]"); }
  var tables = [].filter.call(root.querySelectorAll("table"), function (t) { return shown(t) && !inRaw(t) && hiddenSteps(t) === 0; });

  /* ---- principal data as rows ---- */
  if (facts.principal > 0) {
    var best = 0;
    tables.forEach(function (t) {
      var rows = [].filter.call(t.querySelectorAll("tbody tr, tr"), function (r) { return r.querySelector("td") && shown(r); }).length;
      if (rows > best) best = rows;
    });
    [].forEach.call(root.querySelectorAll("ul, ol"), function (l) {
      if (!shown(l) || inRaw(l) || hiddenSteps(l) > 0) return;
      var items = [].filter.call(l.children, function (li) { return li.tagName === "LI" && shown(li); }).length;
      if (items > best) best = items;
    });
    out.principalRows = best;
    var re = new RegExp("(^|[^0-9.,])" + String(facts.principal) + "([^0-9.,]|$)");
    out.principalCount = re.test(vis.join(" "));
  }

  /* ---- prose never in a table cell ---- */
  var cells = [].filter.call(root.querySelectorAll("td, th, dt, dd"), function (c) { return shown(c) && !inRaw(c); });
  (facts.prose || []).forEach(function (p) {
    var x = norm(p);
    if (x.length < 20) return;
    x = x.slice(0, 60);
    for (var i = 0; i < cells.length; i++) {
      if (norm(cells[i].textContent).indexOf(x) >= 0) {
        if (out.proseInCell.length < 5) out.proseInCell.push(cells[i].tagName.toLowerCase() + ": " + p.slice(0, 60));
        break;
      }
    }
  });

  /* ---- the primary text column ---- */
  var frameW = d.documentElement.clientWidth, minW = facts.minWidth || 150;
  tables.forEach(function (t, ti) {
    var rows = [].filter.call(t.querySelectorAll("tr"), function (r) { return r.querySelector("td") && shown(r); }).slice(0, 50);
    if (!rows.length) return;
    var sums = [], cellsBy = [];
    rows.forEach(function (r) {
      [].forEach.call(r.children, function (c, ci) {
        if (!shown(c)) return;
        // The text in sight: a fold's hidden content is not the column's text.
        sums[ci] = (sums[ci] || 0) + c.innerText.trim().length;
        (cellsBy[ci] = cellsBy[ci] || []).push(c);
      });
    });
    var pc = -1, pmax = 0;
    sums.forEach(function (v, ci) { if (v > pmax) { pmax = v; pc = ci; } });
    if (pc < 0 || cellsBy[pc].length < 1 || pmax / rows.length < 10) return;
    if (sums.filter(function (v) { return v > 0; }).length < 2) return;
    var c0 = cellsBy[pc][0], rect = c0.getBoundingClientRect();
    var wraps = cellsBy[pc].some(function (c) {
      var lh = parseFloat(w.getComputedStyle(c).lineHeight) || 20;
      var rg = d.createRange(); rg.selectNodeContents(c);
      return rg.getClientRects().length > 1 && rg.getBoundingClientRect().height > lh * 1.5;
    });
    var label = "table " + (ti + 1) + " column " + (pc + 1);
    if (rect.width < minW && wraps) out.primary.push(label + " is " + Math.round(rect.width) + " px wide and its text wraps");
    var seen = Math.min(rect.right, frameW) - Math.max(rect.left, 0);
    if (seen < Math.min(minW, rect.width) - 1) out.primary.push(label + " spans " + Math.round(rect.left) + "-" + Math.round(rect.right) + " px in a " + frameW + " px frame");
  });
  return out;
}
