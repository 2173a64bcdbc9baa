/*
 * genui offline form for a tool that takes no arguments: the part of
 * form.js (window.GenuiForm) such a page uses, inlined instead of the whole
 * form compiler (viewdefs.formScripts). fold must stay form.js's own
 * (TestFormNoneFoldIsFormJS).
 */
(function (global) {
  "use strict";

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

  global.GenuiForm = {
    create: function (schema, container) {
      container.appendChild(el("p", "note", "This tool takes no arguments."));
      return { fields: [], collect: function () { return {}; }, prefill: function () {} };
    },
    fold: fold
  };
})(window);
