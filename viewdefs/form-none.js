/*
 * genui offline form for a tool that takes no arguments: what such a page
 * uses of window.GenuiForm, inlined instead of the whole form compiler
 * (viewdefs.formScripts). Wrapped with form-base.js, whose el and fold are
 * form.js's own.
 */
global.GenuiForm = {
  create: function (schema, container) {
    container.appendChild(el("p", "note", "This tool takes no arguments."));
    return { fields: [], collect: function () { return {}; }, prefill: function () {} };
  },
  fold: fold
};
