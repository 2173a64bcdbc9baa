/* genui emergency page: shows the raw input and result (after render.js). */
import { App } from "@modelcontextprotocol/ext-apps";

const data = JSON.parse(document.getElementById("tool-data").textContent);
const inputEl = document.getElementById("input");
const resultEl = document.getElementById("result");
const app = new App({ name: "genui-emergency-" + data.tool.name, version: "1.0.0" }, {}, { autoResize: true });
window.genuiApp = app;
app.ontoolinput = function (p) { inputEl.replaceChildren(block(pretty(p && p.arguments), "json")); };
app.ontoolresult = function (r) {
  resultEl.replaceChildren(block(pretty(r), "json"));
  document.body.dataset.state = "result";
};
app.ontoolcancelled = function () { resultEl.replaceChildren(el("div", "note", "The call was cancelled.")); };
app.onteardown = function () { return {}; };
app.connect().then(function () {
  document.body.dataset.state = "ready";
}, function (e) {
  document.body.dataset.state = "error";
  resultEl.replaceChildren(el("div", "error-banner", "Not connected to an MCP Apps host: " + e.message));
});
