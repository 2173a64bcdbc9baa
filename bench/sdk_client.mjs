// Drives one MCP stdio server with the official TypeScript SDK client
// (@modelcontextprotocol/sdk, pinned in scripts/npm-packages.txt) and prints
// one JSON report on stdout for bench/main.go. Latencies are nanoseconds.
//
//   node sdk_client.mjs NODE_MODULES SPEC_JSON -- CMD ARGS...
//
// SPEC_JSON: {"tool","args","n","warmup","reads":[uri...],"readN","sizes":bool}
//   tool/args/n/warmup: n timed tools/call round trips after warmup untimed ones;
//   reads/readN: per uri, one first (untimed, reported) read, warmup reads,
//                then readN timed reads interleaved with readN pings;
//   sizes: read every tool's ui:// resource once and report its size.
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const argv = process.argv.slice(2);
const dash = argv.indexOf("--");
const [nm, specJSON] = argv.slice(0, dash);
const [command, ...args] = argv.slice(dash + 1);
const spec = JSON.parse(specJSON);
const load = (p) => import(pathToFileURL(join(nm, p)).href);
const { Client } = await load("@modelcontextprotocol/sdk/dist/esm/client/index.js");
const { StdioClientTransport } = await load("@modelcontextprotocol/sdk/dist/esm/client/stdio.js");

const now = () => process.hrtime.bigint();
const ns = (a, b) => Number(b - a);
const report = { calls: [], reads: {}, pings: [], firstReadNs: {}, sizes: {} };

const client = new Client({ name: "genui-bench", version: "1.0.0" }, { capabilities: {} });
const transport = new StdioClientTransport({ command, args, stderr: "ignore", env: process.env });
const t0 = now();
await client.connect(transport);
const tools = await client.listTools();
report.startupNs = ns(t0, now()); // spawn -> initialize -> first tools/list answered
report.tools = tools.tools.length;
report.toolsWithUI = tools.tools.filter((t) => t._meta?.ui?.resourceUri).length;

const call = async () => {
  const r = await client.callTool({ name: spec.tool, arguments: spec.args });
  if (r.isError) throw new Error(`tools/call ${spec.tool}: ${JSON.stringify(r).slice(0, 300)}`);
};
for (let i = 0; i < (spec.warmup || 0); i++) await call();
for (let i = 0; i < (spec.n || 0); i++) {
  const a = now();
  await call();
  report.calls.push(ns(a, now()));
}

const read = async (uri) => {
  const r = await client.readResource({ uri });
  if (r.contents.length !== 1 || !r.contents[0].text) throw new Error(`resources/read ${uri}: ${JSON.stringify(r).slice(0, 200)}`);
  return r.contents[0].text.length;
};
for (const uri of spec.reads || []) {
  let a = now();
  report.sizes[uri] = await read(uri);
  report.firstReadNs[uri] = ns(a, now());
  for (let i = 0; i < (spec.warmup || 0); i++) {
    await read(uri);
    await client.ping();
  }
  const lat = [];
  for (let i = 0; i < (spec.readN || 0); i++) {
    a = now();
    await read(uri);
    const b = now();
    await client.ping();
    lat.push(ns(a, b));
    report.pings.push(ns(b, now()));
  }
  report.reads[uri] = lat;
}
if (spec.sizes) {
  for (const t of tools.tools) {
    const uri = t._meta?.ui?.resourceUri;
    if (uri && !(uri in report.sizes)) report.sizes[uri] = await read(uri);
  }
}
await client.close();
process.stdout.write(JSON.stringify(report) + "\n");
