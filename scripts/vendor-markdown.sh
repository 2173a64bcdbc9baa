#!/usr/bin/env bash
# vendor-markdown.sh refreshes viewdefs/vendor/smd.min.js, the markdown
# renderer inlined into the offline UI, from the npm package
# streaming-markdown (MIT). The package is an ES module whose one trailing
# `export{...}` list is rewritten to assign window.GenuiMarkdown, so the page
# can inline it as a classic script (hosts inject the HTML with no module
# loader and the CSP forbids external scripts). Usage:
#   scripts/vendor-markdown.sh [VERSION]      (default: the pinned one below)
set -euo pipefail

version="${1:-0.2.15}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/../viewdefs/vendor"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

(cd "$tmp" && npm pack --silent "streaming-markdown@$version" >/dev/null && tar xzf streaming-markdown-*.tgz)
pkg="$tmp/package"
mkdir -p "$out"
cp "$pkg/license" "$out/smd.LICENSE"
node - "$pkg/smd.min.js" "$out/smd.min.js" "$version" <<'JS'
const fs = require("fs");
const [src, dst, version] = process.argv.slice(2);
const js = fs.readFileSync(src, "utf8").trim();
const re = /export\s*\{([^{}]*)\}\s*;?\s*$/;
const m = js.match(re);
if (!m || (js.match(/export\s*\{/g) || []).length !== 1) throw new Error("smd.min.js: expected one trailing export list");
if (/\bimport\b\s*[("'{*]/.test(js)) throw new Error("smd.min.js imports other modules");
const fields = m[1].split(",").map(s => s.trim()).filter(Boolean).map(item => {
  const [local, exported] = item.split(/\s+as\s+/);
  return (exported || local) + ":" + local;
});
if (/<\/script|<!--/i.test(js)) throw new Error("smd.min.js contains a script end tag or an HTML comment opener");
const header = "/*! streaming-markdown " + version + " | MIT License | Copyright (c) 2024 Damian Tarnawski | github.com/thetarnav/streaming-markdown\n" +
  " * Vendored by scripts/vendor-markdown.sh: the ES module's export list became window.GenuiMarkdown, and the\n" +
  " * raw-URL prefixes it compares with are written as concatenations (no URL text in a generated page). */\n";
let body = js.slice(0, m.index);
const urls = (body.match(/"https?:\/\/"/g) || []).length;
body = body.replace(/"(https?):\/\/"/g, '"$1:/"+"/"');
if (/https?:\/\//.test(body)) throw new Error("smd.min.js: a URL is left after the rewrite");
if (urls !== 2) throw new Error("smd.min.js: expected the two raw-URL prefixes, found " + urls);
fs.writeFileSync(dst, header + "(function(){" + body + "window.GenuiMarkdown={" + fields.join(",") + "};})();\n");
JS
echo "vendored streaming-markdown $version: $(wc -c <"$out/smd.min.js") bytes -> $out/smd.min.js"
