// Drives a server (genui, or the upstream directly) with the official MCP
// TypeScript SDK client (@modelcontextprotocol/sdk) declaring exactly the
// capabilities it is given, and prints one JSON report on stdout: the
// tools listed, server-filesystem's allowed directories when it has that
// tool, or the error that ended the session and how long it took.
//
//   node faithful_client.mjs NODE_MODULES CAPS_JSON ROOTS_JSON stdio CMD ARGS...
//   node faithful_client.mjs NODE_MODULES CAPS_JSON ROOTS_JSON http URL
//
// ROOTS_JSON is what the client answers roots/list with (when CAPS_JSON
// declares roots).
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const [nm, capsJSON, rootsJSON, transportKind, ...target] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(join(nm, "@modelcontextprotocol/sdk/dist/esm", p)).href);
const { Client } = await load("client/index.js");
const { StdioClientTransport } = await load("client/stdio.js");
const { StreamableHTTPClientTransport } = await load("client/streamableHttp.js");
const { ListRootsRequestSchema } = await load("types.js");

const capabilities = JSON.parse(capsJSON);
const roots = JSON.parse(rootsJSON);
const report = {};
const client = new Client({ name: "faithful-test", version: "1.0.0" }, { capabilities });
if (capabilities.roots) {
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots }));
}
const transport =
  transportKind === "http"
    ? new StreamableHTTPClientTransport(new URL(target[0]))
    : new StdioClientTransport({ command: target[0], args: target.slice(1), env: process.env, stderr: "ignore" });

const start = Date.now();
try {
  await client.connect(transport, { timeout: 60000 });
  const names = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : {}, { timeout: 60000 });
    names.push(...page.tools.map((t) => t.name));
    cursor = page.nextCursor;
  } while (cursor);
  report.tools = names.sort();
  if (names.includes("list_allowed_directories")) {
    // server-filesystem asks for the roots after initialized; give the
    // answer time to land before asking what it allows.
    for (let i = 0; i < 50; i++) {
      const res = await client.callTool({ name: "list_allowed_directories", arguments: {} }, undefined, { timeout: 60000 });
      report.allowed = res.content.map((c) => c.text).join("\n");
      if (!capabilities.roots || roots.every((r) => report.allowed.includes(new URL(r.uri).pathname))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
} catch (e) {
  report.error = String(e && e.message ? e.message : e);
  report.ms = Date.now() - start;
}
await client.close().catch(() => {});
process.stdout.write(JSON.stringify(report) + "\n");
process.exit(0);
