// ESLint for the browser scripts genui inlines into pages (viewdefs/*.js,
// mcpshim/*.js): `make lint` runs it with eslint, @eslint/js and globals from
// the test cache (scripts/test-deps.sh installs them; NODE_PATH points there).
// The recommended rules, with the browser's globals. Several files are parts
// of one script: render.js, then render-plain.js, then page.js or
// emergency.js become one module (viewdefs/assets.go), so the later parts
// read the earlier parts' top-level names, declared here per file.
"use strict";
const js = require("@eslint/js");
const globals = require("globals");

// render.js's top-level names, which the module parts after it use.
const renderJS = Object.fromEntries(["LIMIT", "MEDIA_LIMIT", "el", "clip", "pretty", "block", "parseJSONText", "renderText",
  "renderMedia", "renderLink", "renderResource", "renderItem", "errorBanner"].map((n) => [n, "readonly"]));

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
    languageOptions: { sourceType: "module", globals: { ...renderJS, renderResult: "readonly" } },
  },
  {
    files: ["viewdefs/render-plain.js"],
    languageOptions: { globals: renderJS },
  },
];
