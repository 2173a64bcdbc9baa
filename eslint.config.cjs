// ESLint for the browser scripts genui inlines into pages (viewdefs/*.js, pagepack/*.js,
// mcpshim/*.js): `make lint` runs it with eslint, @eslint/js and globals from
// the test cache (scripts/test-deps.sh installs them; NODE_PATH points there).
// The recommended rules, with the browser's globals. Some files are parts of
// one script: render.js and then page.js or emergency.js become one module
// (viewdefs/assets.go), so the later part reads render.js's top-level names,
// which are read from render.js itself here; form-base.js opens form.js and
// form-none.js the same way.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const js = require("@eslint/js");
const globals = require("globals");

// render.js's top-level declarations, which the module parts after it use.
const renderJS = Object.fromEntries(
  [...fs.readFileSync(path.join(__dirname, "viewdefs", "render.js"), "utf8")
    .matchAll(/^(?:async\s+)?(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)/gm)]
    .map((m) => [m[1], "readonly"]),
);

// form-base.js's top-level declarations, which form.js and form-none.js
// (each wrapped with it into one script) use.
const formBaseJS = Object.fromEntries(
  [...fs.readFileSync(path.join(__dirname, "viewdefs", "form-base.js"), "utf8")
    .matchAll(/^(?:function|const|let|var)\s+([A-Za-z_$][\w$]*)/gm)]
    .map((m) => [m[1], "readonly"]),
);

module.exports = [
  js.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: { ...globals.browser },
    },
    rules: {
      // Top-level functions of a part are used by the parts after it.
      "no-unused-vars": ["error", { vars: "local", args: "none", caughtErrors: "none" }],
      // Escaping / and [ in a regular expression reads as intended and does no harm.
      "no-useless-escape": "off",
      // text.js strips terminal escapes (\x1b) on purpose.
      "no-control-regex": "off",
    },
  },
  {
    files: ["viewdefs/page.js", "viewdefs/emergency.js"],
    languageOptions: { sourceType: "module", globals: renderJS },
  },
  {
    files: ["viewdefs/form.js", "viewdefs/form-none.js"],
    languageOptions: { globals: formBaseJS },
  },
];
