/*
 * The part of the offline form both form.js (the form compiler) and
 * form-none.js (a tool without arguments) are built on: one source, each
 * unit is this file followed by its own, wrapped into one strict classic
 * script (viewdefs' AssetUnits). It must never contain a closing script tag
 * or an HTML comment opener.
 */
var global = window;
var DOC = global.document;

function el(tag, cls, text) {
  var e = DOC.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
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
