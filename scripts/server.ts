// npm start (and npm run dev): the web server. Next.js serves the console; the platform's webhook is
// answered by plain node:http ahead of it, because Next's own per-request work would cap the ingest
// rate well below what the platform can send (see the integration section of `npm run bench`).
import { createServer } from "node:http";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    dev: { type: "boolean", default: false },
    port: { type: "string", short: "p" },
    hostname: { type: "string", short: "H" },
  },
});
const dev = values.dev;
// React and Next.js read NODE_ENV when they load, so it is settled before they are imported.
Object.assign(process.env, { NODE_ENV: dev ? "development" : "production" });
const port = Number(values.port ?? process.env.PORT ?? 3000);
const hostname = values.hostname;

const { default: next } = await import("next");
const { handleIfWebhook } = await import("../lib/webhooks/http-receiver");
const { getEnv, getTrustedProxies } = await import("../lib/env");
const { servedOverHttps, staticSecurityHeaders } = await import("../lib/http/security-headers");
const { markClientIpStamped, stampClientIp } = await import("../lib/http/client-ip");
const { ensureWebhookPathSecret } = await import("../lib/webhooks/path-secret");

// Security headers on every response, the webhook receiver's and Next's static files included (the
// page's Content-Security-Policy comes from proxy.ts, which knows its nonce). Requests only arrive
// after start-up (instrumentation.ts) has checked the configuration.
const headersOverHttp = Object.entries(staticSecurityHeaders({ https: false }));
const headersOverHttps = Object.entries(staticSecurityHeaders({ https: true }));

// This server is the one that sees the socket: it decides each request's client IP (the webhook
// allowlist, the audit log) and hands it to Next.js in a header of its own, overwriting the client's.
// Read once Next.js has loaded .env (in prepare), before the first request.
let trustedProxies: readonly string[] = [];
markClientIpStamped();
const server = createServer((request, response) => {
  const https = servedOverHttps({
    publicBaseUrl: getEnv().PUBLIC_BASE_URL,
    forwardedProto: request.headers["x-forwarded-proto"],
  });
  for (const [name, value] of https ? headersOverHttps : headersOverHttp) response.setHeader(name, value);
  if (handleIfWebhook(request, response, { trustedProxies })) return;
  stampClientIp(request, trustedProxies);
  void handle(request, response);
});
const app = next({ dev, port, hostname: hostname ?? "localhost", httpServer: server });
const handle = app.getRequestHandler();
await app.prepare();
trustedProxies = getTrustedProxies();
// A fresh install gets its webhook secret path segment now (Settings shows the URL to register): an
// endpoint without one is an admin's explicit choice, never a default.
await ensureWebhookPathSecret();
server.listen(port, hostname, () => {
  console.log(
    `[paydesk] ${dev ? "development" : "production"} server on http://${hostname ?? "localhost"}:${port}`,
  );
});
// Finish the requests in flight (a webhook is answered only once stored), then exit.
const stop = () => {
  server.close(() => void app.close().finally(() => process.exit(0)));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 10_000).unref();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
