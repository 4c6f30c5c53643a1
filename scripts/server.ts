// npm start (and npm run dev): the web server. Next.js serves the console; the platform's webhook and the
// orchestrator's probes are answered by plain node:http ahead of it, because Next's own per-request work
// would cap the ingest rate well below what the platform can send (see the integration section of
// `npm run bench`). `--webhooks-only` runs the receiver and the probes without Next.js (no build needed):
// an ingest-only web process behind the proxy's webhook route.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    dev: { type: "boolean", default: false },
    port: { type: "string", short: "p" },
    hostname: { type: "string", short: "H" },
    "webhooks-only": { type: "boolean", default: false },
  },
});
const dev = values.dev;
const webhooksOnly = values["webhooks-only"];
// React and Next.js read NODE_ENV when they load, so it is settled before they are imported.
Object.assign(process.env, { NODE_ENV: dev ? "development" : "production" });
const port = Number(values.port ?? process.env.PORT ?? 3000);
const hostname = values.hostname;
// In-flight requests get this long after SIGTERM; then the process exits regardless.
const SHUTDOWN_BOUND_MS = 10_000;

if (webhooksOnly) (await import("./lib/dotenv")).loadDotEnv();
const { handleIfWebhook } = await import("../lib/webhooks/http-receiver");
const { handleIfProbe, startDraining } = await import("../lib/http/probes");
const { getEnv, getTrustedProxies } = await import("../lib/env");
const { servedOverHttps, staticSecurityHeaders } = await import("../lib/http/security-headers");
const { markClientIpStamped, stampClientIp } = await import("../lib/http/client-ip");
const { ensureWebhookPathSecret } = await import("../lib/webhooks/path-secret");

// Security headers on every response, the webhook receiver's and Next's static files included (the
// page's Content-Security-Policy comes from proxy.ts, which knows its nonce). Requests only arrive
// after start-up has checked the configuration.
const headersOverHttp = Object.entries(staticSecurityHeaders({ https: false }));
const headersOverHttps = Object.entries(staticSecurityHeaders({ https: true }));

// This server is the one that sees the socket: it decides each request's client IP (the webhook
// allowlist, the audit log) and hands it to Next.js in a header of its own, overwriting the client's.
// Read once Next.js has loaded .env (in prepare), before the first request.
let trustedProxies: readonly string[] = [];
markClientIpStamped();

let handle: (request: IncomingMessage, response: ServerResponse) => unknown = (_, response) =>
  response.writeHead(404, { "content-type": "text/plain" }).end("not found (webhook receiver only)\n");
let closeApp = async () => {};
const server = createServer((request, response) => {
  const https = servedOverHttps({
    publicBaseUrl: getEnv().PUBLIC_BASE_URL,
    forwardedProto: request.headers["x-forwarded-proto"],
  });
  for (const [name, value] of https ? headersOverHttps : headersOverHttp) response.setHeader(name, value);
  if (handleIfProbe(request, response)) return;
  if (handleIfWebhook(request, response, { trustedProxies })) return;
  stampClientIp(request, trustedProxies);
  void handle(request, response);
});
if (!webhooksOnly) {
  const { default: next } = await import("next");
  const app = next({ dev, port, hostname: hostname ?? "localhost", httpServer: server });
  handle = app.getRequestHandler();
  closeApp = () => app.close();
  await app.prepare();
}
trustedProxies = getTrustedProxies();
// A fresh install gets its webhook secret path segment now (Settings shows the URL to register): an
// endpoint without one is an admin's explicit choice, never a default.
await ensureWebhookPathSecret();
server.listen(port, hostname, () => {
  const mode = webhooksOnly ? "webhook receiver" : dev ? "development server" : "production server";
  console.log(`[paydesk] ${mode} on http://${hostname ?? "localhost"}:${port}`);
});
// Readiness fails at once; the requests in flight finish (a webhook is answered only once stored); exit.
const stop = () => {
  startDraining();
  server.close(() => void closeApp().finally(() => process.exit(0)));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), SHUTDOWN_BOUND_MS).unref();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
