/* The minimal page's result renderer (the rich page uses rich.js instead). */
/* Renders a CallToolResult into target (cleared first). */
function renderResult(result, target) {
  target.replaceChildren();
  if (!result || typeof result !== "object") {
    target.appendChild(el("div", "error-banner", "The host returned no result object."));
    return;
  }
  let items = Array.isArray(result.content) ? result.content : [];
  if (result.isError) {
    target.appendChild(errorBanner(items));
    items = items.filter(function (item) { return !(item && item.type === "text"); });
  }
  items.forEach(function (item) { target.appendChild(renderItem(item)); });
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    target.appendChild(el("h2", "", "Structured content"));
    target.appendChild(block(pretty(result.structuredContent), "json"));
  }
  if (!items.length && (result.structuredContent === undefined || result.structuredContent === null)) {
    target.appendChild(el("div", "note", "The tool returned an empty result."));
  }
  const raw = el("details", "raw");
  raw.appendChild(el("summary", "", "Raw JSON"));
  raw.addEventListener("toggle", function () {
    if (raw.open && raw.children.length === 1) raw.appendChild(block(pretty(result), "json"));
  }, { once: false });
  target.appendChild(raw);
}
