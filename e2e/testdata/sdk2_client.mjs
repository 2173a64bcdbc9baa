// Drives genui with the official MCP TypeScript SDK v2 client
// (@modelcontextprotocol/client) in a protocol negotiation mode, and prints
// one JSON report on stdout for the Go test to check.
//
//   node sdk2_client.mjs NODE_MODULES auto|pin stdio CMD ARGS...
//   node sdk2_client.mjs NODE_MODULES auto|pin http URL
//
// The upstream behind genui is npm's server-everything: the report covers
// discovery, tools (with genui's UI metadata), a call, the UI resource,
// prompts, a subscriptions/listen stream that hears a UI change, and a
// sampling request of the upstream answered through multi round-trip.
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const [nm, mode, transportKind, ...target] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(join(nm, p)).href);
const { Client, StreamableHTTPClientTransport } = await load("@modelcontextprotocol/client/dist/index.mjs");
const { StdioClientTransport } = await load("@modelcontextprotocol/client/dist/stdio.mjs");

const report = { steps: [] };
const step = (name, value) => report.steps.push({ name, value });
const withTimeout = (p, ms, what) =>
  Promise.race([p, new Promise((_, rej) => setTimeout(() => rej(new Error(`${what}: no answer within ${ms} ms`)), ms))]);

const client = new Client(
  { name: "genui-sdk2-test", version: "1.0.0" },
  {
    capabilities: {
      sampling: {},
      elicitation: { form: {} },
      extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
    },
    versionNegotiation: { mode: mode === "auto" ? "auto" : { pin: "2026-07-28" } },
  },
);
const sampled = [];
client.setRequestHandler("sampling/createMessage", async (req) => {
  sampled.push(req.params);
  return { role: "assistant", content: { type: "text", text: "sampled by the sdk2 test" }, model: "test-model", stopReason: "endTurn" };
});

let transport;
if (transportKind === "stdio") {
  transport = new StdioClientTransport({ command: target[0], args: target.slice(1), stderr: "ignore", env: process.env });
} else {
  transport = new StreamableHTTPClientTransport(new URL(target[0]));
}

try {
  await withTimeout(client.connect(transport), 60000, "connect");
  step("protocol", client.getNegotiatedProtocolVersion());
  step("era", client.getProtocolEra());
  step("serverInfo", client.getServerVersion());
  step("capabilities", client.getServerCapabilities());
  step("instructions", (client.getInstructions() || "").slice(0, 40));

  const tools = await withTimeout(client.listTools(), 30000, "tools/list");
  const echo = tools.tools.find((t) => t.name === "echo");
  step("tools", { count: tools.tools.length, echoUI: echo?._meta?.ui?.resourceUri, wrappers: tools.tools.filter((t) => t.name.startsWith("_ui_")).length });

  const call = await withTimeout(client.callTool({ name: "echo", arguments: { message: "hi from sdk2" } }), 30000, "tools/call echo");
  step("call", call.content?.[0]?.text);

  const ui = await withTimeout(client.readResource({ uri: "ui://echo" }), 30000, "resources/read ui://echo");
  step("ui", { mimeType: ui.contents[0].mimeType, html: ui.contents[0].text.includes("<html") });

  const prompts = await withTimeout(client.listPrompts(), 30000, "prompts/list");
  step("prompts", prompts.prompts.length);

  const templates = await withTimeout(client.listResourceTemplates(), 30000, "resources/templates/list");
  step("templates", templates.resourceTemplates.length);

  // A listen stream hears genui's own change: a refinement of echo's UI.
  const heard = [];
  client.setNotificationHandler("notifications/resources/updated", (n) => heard.push(n.params.uri));
  const sub = await withTimeout(client.listen({ toolsListChanged: true, resourceSubscriptions: ["ui://echo"] }), 30000, "subscriptions/listen");
  step("listen", sub.honoredFilter);
  await withTimeout(client.callTool({ name: "_ui_refine", arguments: { toolName: "echo", feedback: "dark theme" } }), 30000, "_ui_refine");
  for (let i = 0; i < 100 && !heard.includes("ui://echo"); i++) await new Promise((r) => setTimeout(r, 100));
  step("updated", heard);
  await sub.close();
  step("listenClosed", await withTimeout(sub.closed, 10000, "listen close"));

  // The upstream asks for sampling during a call: multi round-trip.
  const sample = await withTimeout(client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "say hi", maxTokens: 20 } }), 60000, "trigger-sampling-request");
  step("sampling", { asked: sampled.length, result: JSON.stringify(sample.content).includes("sampled by the sdk2 test") });
} catch (e) {
  report.error = String(e && e.stack || e);
} finally {
  try { await withTimeout(client.close(), 10000, "close"); } catch (e) { report.closeError = String(e); }
}
process.stdout.write(JSON.stringify(report) + "\n");
process.exit(0);
