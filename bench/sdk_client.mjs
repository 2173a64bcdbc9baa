// Drives MCP stdio servers with the official TypeScript SDK client
// (@modelcontextprotocol/sdk, pinned in scripts/npm-packages.txt) and prints
// one JSON report on stdout for bench/main.go. Latencies are nanoseconds.
//
//   node sdk_client.mjs NODE_MODULES SPEC_JSON
//
// SPEC_JSON: {"servers":[{"command","args","env"}...],"tool","args","n","warmup",
//             "reads":[uri...],"readN","sizes":bool}
//   servers: started and connected one after another (startup: spawn ->
//            initialize -> first tools/list answered, each measured alone);
//   tool/args/n/warmup: warmup untimed rounds, then n timed rounds; in each
//            round every server gets one tools/call, in an order that rotates,
//            so machine noise hits all servers alike;
//   reads/readN (first server): per uri, one first (untimed, reported) read,
//            warmup reads, then readN timed reads interleaved with readN pings;
//   sizes (first server): read every tool's ui:// resource once, report its size.
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const [nm, specJSON] = process.argv.slice(2);
const spec = JSON.parse(specJSON);
const load = (p) => import(pathToFileURL(join(nm, p)).href);
const { Client } = await load("@modelcontextprotocol/sdk/dist/esm/client/index.js");
const { StdioClientTransport } = await load("@modelcontextprotocol/sdk/dist/esm/client/stdio.js");

const now = () => process.hrtime.bigint();
const ns = (a, b) => Number(b - a);
const report = { servers: [], reads: {}, pings: [], firstReadNs: {}, sizes: {} };

const conns = [];
for (const s of spec.servers) {
  const client = new Client({ name: "genui-bench", version: "1.0.0" }, { capabilities: {} });
  const transport = new StdioClientTransport({ command: s.command, args: s.args, stderr: "ignore",
    env: { ...process.env, ...(s.env || {}) } });
  const t0 = now();
  await client.connect(transport);
  const tools = await client.listTools();
  const startupNs = ns(t0, now()); // spawn -> initialize -> first tools/list answered
  conns.push({ client, tools });
  report.servers.push({ startupNs, tools: tools.tools.length,
    toolsWithUI: tools.tools.filter((t) => t._meta?.ui?.resourceUri).length, calls: [] });
}

const call = async (client) => {
  const r = await client.callTool({ name: spec.tool, arguments: spec.args });
  if (r.isError) throw new Error(`tools/call ${spec.tool}: ${JSON.stringify(r).slice(0, 300)}`);
};
for (let i = 0; i < (spec.warmup || 0); i++) for (const c of conns) await call(c.client);
for (let i = 0; i < (spec.n || 0); i++) {
  for (let k = 0; k < conns.length; k++) {
    const j = (i + k) % conns.length; // rotate who goes first
    const a = now();
    await call(conns[j].client);
    report.servers[j].calls.push(ns(a, now()));
  }
}

const first = conns[0];
const read = async (uri) => {
  const r = await first.client.readResource({ uri });
  if (r.contents.length !== 1 || !r.contents[0].text) throw new Error(`resources/read ${uri}: ${JSON.stringify(r).slice(0, 200)}`);
  return r.contents[0].text.length;
};
for (const uri of spec.reads || []) {
  let a = now();
  report.sizes[uri] = await read(uri);
  report.firstReadNs[uri] = ns(a, now());
  for (let i = 0; i < (spec.warmup || 0); i++) {
    await read(uri);
    await first.client.ping();
  }
  const lat = [];
  for (let i = 0; i < (spec.readN || 0); i++) {
    a = now();
    await read(uri);
    const b = now();
    await first.client.ping();
    lat.push(ns(a, b));
    report.pings.push(ns(b, now()));
  }
  report.reads[uri] = lat;
}
if (spec.sizes) {
  for (const t of first.tools.tools) {
    const uri = t._meta?.ui?.resourceUri;
    if (uri && !(uri in report.sizes)) report.sizes[uri] = await read(uri);
  }
}
for (const c of conns) await c.client.close();
process.stdout.write(JSON.stringify(report) + "\n");
