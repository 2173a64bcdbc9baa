// A stdio MCP server whose tools come from a file, for the develop-loop
// tests: edit the file and the next start serves the new tools and answers.
//
//   TOOLS_FILE=tools.json node filetools.mjs
//
// tools.json: {"tools": [MCP tool definitions],
//              "results": {"tool name": CallToolResult, ...},
//              "delayMs": {"tool name": milliseconds before answering},
//              "notify": {"tool name": N notifications/message sent at once before the answer},
//              "crash": true (exit at start, like a server with a syntax error)}
// A tool without a result answers {"content":[{"type":"text","text":"<name> <arguments>"}]}.
// Newline-delimited JSON-RPC on stdin/stdout; no dependencies.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const file = process.env.TOOLS_FILE || "tools.json";
let spec;
try {
  spec = JSON.parse(readFileSync(file, "utf8"));
} catch (e) {
  process.stderr.write(`filetools: cannot read ${file}: ${e.message}\n`);
  process.exit(1);
}
if (spec.crash) {
  process.stderr.write(`filetools: ${file}:1 SyntaxError: Unexpected token (crash requested)\n`);
  process.exit(1);
}
process.stderr.write(`filetools: pid ${process.pid} serving ${(spec.tools || []).length} tools\n`);

const send = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");

const rl = createInterface({ input: process.stdin });
rl.on("line", (line) => {
  if (!line.trim()) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (msg.id === undefined || msg.method === undefined) return; // notifications, answers
  const reply = (result) => send({ jsonrpc: "2.0", id: msg.id, result });
  switch (msg.method) {
    case "initialize":
      reply({
        protocolVersion: msg.params?.protocolVersion || "2025-11-25",
        capabilities: { tools: {} },
        serverInfo: { name: "filetools", version: String(spec.version || "1") },
      });
      return;
    case "ping":
      reply({});
      return;
    case "tools/list":
      reply({ tools: spec.tools || [] });
      return;
    case "tools/call": {
      const name = msg.params?.name;
      const args = msg.params?.arguments || {};
      if (!(spec.tools || []).some((t) => t.name === name)) {
        send({ jsonrpc: "2.0", id: msg.id, error: { code: -32602, message: `unknown tool ${name}` } });
        return;
      }
      const result = (spec.results || {})[name] || {
        content: [{ type: "text", text: `${name} ${JSON.stringify(args)}` }],
      };
      const delay = (spec.delayMs || {})[name] || 0;
      process.stderr.write(`filetools: call ${name}\n`);
      const burst = (spec.notify || {})[name] || 0;
      if (burst > 0) {
        // One write: the whole burst reaches genui at once.
        const notes = [];
        for (let i = 1; i <= burst; i++) {
          notes.push(JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: `${name} ${i}/${burst}` } }));
        }
        process.stdout.write(notes.join("\n") + "\n");
      }
      setTimeout(() => reply(result), delay);
      return;
    }
    default:
      send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: `method not found: ${msg.method}` } });
  }
});
rl.on("close", () => process.exit(0));
