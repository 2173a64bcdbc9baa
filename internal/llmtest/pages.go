package llmtest

// ForecastPage is what a good model writes for the demo's get_forecast: a
// self-contained MCP App using genui's bridge (window.McpApps), a form, a
// result handler, text put in with textContent only.
const ForecastPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Forecast</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; padding: 12px; }
  form { display: flex; gap: 8px; margin-bottom: 12px; }
  .days { display: grid; grid-template-columns: repeat(auto-fill, minmax(120px, 1fr)); gap: 8px; }
  .day { border: 1px solid #8884; border-radius: 8px; padding: 8px; }
  .error { color: #c00; }
</style>
</head>
<body>
<form id="form"><input id="location" name="location" placeholder="City" required><button id="go" type="submit">Forecast</button></form>
<div id="status">Waiting for a forecast…</div>
<div id="days" class="days"></div>
<script type="module">
const { App } = window.McpApps;
const app = new App({ name: "forecast-card", version: "1.0.0" }, {}, { autoResize: true });
const daysEl = document.getElementById("days");
const statusEl = document.getElementById("status");
function dataOf(result) {
  if (result.structuredContent) return result.structuredContent;
  const t = (result.content || []).find((b) => b.type === "text");
  try { return JSON.parse(t ? t.text : "null"); } catch (e) { return null; }
}
function render(result) {
  daysEl.replaceChildren();
  if (!result || result.isError) {
    statusEl.className = "error";
    statusEl.textContent = "The forecast failed.";
    document.body.dataset.state = "error";
    return;
  }
  const data = dataOf(result) || {};
  statusEl.className = "";
  statusEl.textContent = "Forecast for " + (data.location || "?");
  for (const d of data.days || []) {
    const card = document.createElement("div");
    card.className = "day";
    const h = document.createElement("strong");
    h.textContent = d.date;
    const p = document.createElement("div");
    p.textContent = d.conditions + ", " + d.low + "° to " + d.high + "°";
    card.append(h, p);
    daysEl.append(card);
  }
  document.body.dataset.state = "result";
}
app.ontoolinput = (params) => {
  const a = (params && params.arguments) || {};
  if (a.location) document.getElementById("location").value = a.location;
};
app.ontoolresult = render;
app.onteardown = async () => ({});
document.getElementById("form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  statusEl.textContent = "Loading…";
  const result = await app.callServerTool({ name: "get_forecast", arguments: { location: document.getElementById("location").value } });
  render(result);
});
await app.connect();
document.body.dataset.connected = "yes";
</script>
</body>
</html>
`

// InnerHTMLPage is what a careless model writes: tool data concatenated
// into markup and put in with innerHTML (an entity named
// <img src=x onerror="..."> becomes an element whose handler would run).
// Otherwise a working page. genui rejects it; its CSP meta tag keeps the
// handler from running even where the page is served anyway.
const InnerHTMLPage = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Entities</title></head>
<body>
<ul id="list"></ul>
<script type="module">
const { App } = window.McpApps;
const app = new App({ name: "entities", version: "1.0.0" }, {}, { autoResize: true });
app.ontoolresult = (result) => {
  const data = result.structuredContent || {};
  const list = document.getElementById("list");
  for (const e of data.entities || []) {
    const h = document.createElement("li");
    h.innerHTML = "<span class=\"name\">" + e.name + "</span>";
    list.appendChild(h);
  }
  document.body.dataset.state = "result";
};
await app.connect();
</script>
</body>
</html>
`
