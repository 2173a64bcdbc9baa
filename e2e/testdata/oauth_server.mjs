// An MCP server protected by OAuth 2.1 as the MCP authorization spec has
// it, built on the official TypeScript SDK's authorization server and
// bearer middleware (@modelcontextprotocol/sdk, pinned in
// scripts/npm-packages.txt): protected resource metadata, authorization
// server metadata, dynamic client registration, the authorization code flow
// with PKCE (checked by the SDK), refresh tokens (rotated), and a consent
// page whose Deny button refuses. One origin serves both roles. The user
// who signs in is "ada.lovelace" (subject "user-1842"): access tokens are
// JWT-shaped (claims sub and client_id only; the signature is a random
// string: this server looks its tokens up, and genui only reads claims to
// show them), and the code exchange answers an OIDC id_token naming the
// user too (a refresh answers none).
//
//   node oauth_server.mjs NODE_MODULES PORT TOKEN_TTL_SECONDS
//
// The MCP endpoints are http://127.0.0.1:PORT/mcp (streamable HTTP) and
// /sse (legacy SSE, a protected resource of its own); their one tool
// "whoami" answers with the client id the token was issued to.
// GET /stats tells the test what happened (counts per step); POST
// /revoke-access revokes the access tokens issued so far, /revoke-all the
// refresh tokens too.
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";

const [nm, portArg, ttlArg] = process.argv.slice(2);
const port = Number(portArg);
const ttl = Number(ttlArg || "3600");
const require = createRequire(join(nm, "genui-test.js"));
const express = require("express");
const sdk = (p) => import(pathToFileURL(join(nm, "@modelcontextprotocol/sdk/dist/esm", p)).href);
const { mcpAuthRouter, mcpAuthMetadataRouter, createOAuthMetadata, getOAuthProtectedResourceMetadataUrl } = await sdk("server/auth/router.js");
const { requireBearerAuth } = await sdk("server/auth/middleware/bearerAuth.js");
const { InvalidGrantError, InvalidTokenError } = await sdk("server/auth/errors.js");
const { McpServer } = await sdk("server/mcp.js");
const { StreamableHTTPServerTransport } = await sdk("server/streamableHttp.js");
const { SSEServerTransport } = await sdk("server/sse.js");

const origin = `http://127.0.0.1:${port}`;
const mcpURL = new URL(`${origin}/mcp`);
const sseURL = new URL(`${origin}/sse`);
const stats = { registrations: 0, authorizations: 0, denials: 0, codeExchanges: 0, refreshes: 0, prm: 0, asMetadata: 0, rejectedTokens: 0, toolCalls: 0 };

const clients = new Map();
const codes = new Map(); // code -> {client, params}
const pending = new Map(); // consent id -> {client, params}
const tokens = new Map(); // access token -> {clientId, scopes, expiresAt, resource}
const refreshTokens = new Map(); // refresh token -> {clientId, scopes, resource}

const user = { sub: "user-1842", preferred_username: "ada.lovelace", email: "ada@example.com", name: "Ada Lovelace" };
const b64url = (s) => Buffer.from(s).toString("base64url");
// jwt is a JWT-shaped token with these claims (unsigned: a random string
// stands in for the signature).
const jwt = (claims) => [b64url(JSON.stringify({ alg: "RS256", typ: "JWT" })), b64url(JSON.stringify(claims)), b64url(randomUUID())].join(".");

function issue(clientId, scopes, resource, withIDToken) {
  const now = Math.floor(Date.now() / 1000);
  const access = jwt({ iss: origin + "/", sub: user.sub, client_id: clientId, iat: now, exp: now + ttl, jti: randomUUID() });
  const refresh = randomUUID();
  tokens.set(access, { clientId, scopes, expiresAt: Date.now() + ttl * 1000, resource });
  refreshTokens.set(refresh, { clientId, scopes, resource });
  const answer = { access_token: access, token_type: "bearer", expires_in: ttl, refresh_token: refresh, scope: scopes.join(" ") };
  if (withIDToken) answer.id_token = jwt({ iss: origin + "/", aud: clientId, iat: now, exp: now + 3600, ...user });
  return answer;
}

const provider = {
  clientsStore: {
    async getClient(id) { return clients.get(id); },
    async registerClient(c) { stats.registrations++; clients.set(c.client_id, c); return c; },
  },
  // The consent page: Allow or Deny, as a real authorization server asks.
  async authorize(client, params, res) {
    const id = randomUUID();
    pending.set(id, { client, params });
    res.type("html").send(`<!doctype html><title>Authorize</title><h1>Authorize ${client.client_name || client.client_id}</h1>
<form method=post action="/consent"><input type=hidden name=id value="${id}">
<button id=allow name=decision value=allow>Allow</button> <button id=deny name=decision value=deny>Deny</button></form>`);
  },
  async challengeForAuthorizationCode(client, code) {
    const c = codes.get(code);
    if (!c) throw new InvalidGrantError("unknown authorization code");
    return c.params.codeChallenge;
  },
  async exchangeAuthorizationCode(client, code) {
    const c = codes.get(code);
    if (!c || c.client.client_id !== client.client_id) throw new InvalidGrantError("authorization code not issued to this client");
    codes.delete(code);
    stats.codeExchanges++;
    return issue(client.client_id, c.params.scopes || [], c.params.resource?.href, true);
  },
  async exchangeRefreshToken(client, refreshToken) {
    const r = refreshTokens.get(refreshToken);
    if (!r || r.clientId !== client.client_id) throw new InvalidGrantError("unknown refresh token");
    refreshTokens.delete(refreshToken); // rotated
    stats.refreshes++;
    return issue(client.client_id, r.scopes, r.resource, false);
  },
  async verifyAccessToken(token) {
    const t = tokens.get(token);
    if (!t || t.expiresAt < Date.now()) {
      stats.rejectedTokens++;
      throw new InvalidTokenError("invalid or expired token");
    }
    return { token, clientId: t.clientId, scopes: t.scopes, expiresAt: Math.floor(t.expiresAt / 1000), resource: t.resource ? new URL(t.resource) : undefined };
  },
};

const app = express();
app.use((req, _res, next) => {
  if (req.path.startsWith("/.well-known/oauth-protected-resource")) stats.prm++;
  if (req.path.startsWith("/.well-known/oauth-authorization-server")) stats.asMetadata++;
  next();
});
app.use(mcpAuthRouter({ provider, issuerUrl: new URL(origin), resourceServerUrl: mcpURL, scopesSupported: ["mcp:tools"], resourceName: "genui OAuth test server",
  authorizationOptions: { rateLimit: false }, tokenOptions: { rateLimit: false }, clientRegistrationOptions: { rateLimit: false } }));
// The legacy SSE endpoint is a protected resource of its own.
app.use(mcpAuthMetadataRouter({ oauthMetadata: createOAuthMetadata({ provider, issuerUrl: new URL(origin), scopesSupported: ["mcp:tools"] }),
  resourceServerUrl: sseURL, scopesSupported: ["mcp:tools"], resourceName: "genui OAuth test server (SSE)" }));
app.post("/consent", express.urlencoded({ extended: false }), (req, res) => {
  const p = pending.get(req.body.id);
  if (!p) { res.status(400).send("unknown consent request"); return; }
  pending.delete(req.body.id);
  const target = new URL(p.params.redirectUri);
  if (p.params.state !== undefined) target.searchParams.set("state", p.params.state);
  if (req.body.decision === "allow") {
    const code = randomUUID();
    codes.set(code, p);
    stats.authorizations++;
    target.searchParams.set("code", code);
  } else {
    stats.denials++;
    target.searchParams.set("error", "access_denied");
    target.searchParams.set("error_description", "the user denied access");
  }
  res.redirect(302, target.href);
});
app.get("/stats", (_req, res) => res.json(stats));
// The server revokes every access token (refresh tokens stay good): the
// next request with one gets 401.
app.post("/revoke-access", (_req, res) => { tokens.clear(); res.json({ revoked: true }); });
// ... and every refresh token too: a refresh fails (invalid_grant).
app.post("/revoke-all", (_req, res) => { tokens.clear(); refreshTokens.clear(); res.json({ revoked: true }); });

function newServer() {
  const server = new McpServer({ name: "genui-oauth-test", version: "1.0.0" });
  server.registerTool("whoami", { description: "Says which OAuth client the call's token was issued to." }, async (extra) => {
    stats.toolCalls++;
    return { content: [{ type: "text", text: `client ${extra.authInfo?.clientId}` }] };
  });
  return server;
}

const auth = requireBearerAuth({ verifier: provider, requiredScopes: [], resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpURL) });
const sseAuth = requireBearerAuth({ verifier: provider, requiredScopes: [], resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(sseURL) });
const sseSessions = new Map();
app.get("/sse", sseAuth, async (_req, res) => {
  const t = new SSEServerTransport("/messages", res);
  sseSessions.set(t.sessionId, t);
  res.on("close", () => sseSessions.delete(t.sessionId));
  await newServer().connect(t);
});
app.post("/messages", sseAuth, express.json(), async (req, res) => {
  const t = sseSessions.get(req.query.sessionId);
  if (!t) { res.status(404).send("no such session"); return; }
  await t.handlePostMessage(req, res, req.body);
});
const sessions = new Map();
app.all("/mcp", express.json(), auth, async (req, res) => {
  const sid = req.headers["mcp-session-id"];
  let t = sid && sessions.get(sid);
  if (!t) {
    t = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => sessions.set(id, t) });
    await newServer().connect(t);
  }
  await t.handleRequest(req, res, req.body);
});

app.listen(port, "127.0.0.1", () => console.log(`listening on ${origin}`));
