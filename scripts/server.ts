// npm start (and npm run dev): the web server. Next.js serves the console; the platform's webhook and the
// orchestrator's probes are answered by plain node:http ahead of it, because Next's own per-request work
// would cap the ingest rate well below what the platform can send (see the integration section of
// `npm run bench`). `--webhooks-only` runs the receiver and the probes without Next.js (no build needed):
// an ingest-only web process behind the proxy's webhook route.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { dropOutputOnceItsReaderIsGone } from "./lib/lost-output";

dropOutputOnceItsReaderIsGone();

const options = {
  dev: { type: "boolean", default: false },
  port: { type: "string", short: "p" },
  hostname: { type: "string", short: "H" },
  "webhooks-only": { type: "boolean", default: false },
} as const;
let parsed: ReturnType<typeof parseArgs<{ options: typeof options }>>;
try {
  parsed = parseArgs({ options });
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}
usage: npm start -- [--port 3000] [--hostname 0.0.0.0] [--webhooks-only]`);
  process.exit(1);
}
const { values } = parsed;
const dev = values.dev;
const webhooksOnly = values["webhooks-only"];
// React and Next.js read NODE_ENV when they load, so it is settled before they are imported.
Object.assign(process.env, { NODE_ENV: dev ? "development" : "production" });
const hostname = values.hostname;
// After the shutdown grace (SHUTDOWN_GRACE_MS), the requests in flight get this long; then the process
// exits regardless. The whole stop is at most the grace and this.
const DRAIN_BOUND_MS = 10_000;

if (webhooksOnly) (await import("./lib/dotenv")).loadDotEnv();
const { exitOnStartupProblem, settingOrExit } = await import("../lib/startup");
const { getEnv, getServerPort, getShutdownGraceMs, getTrustedProxies } = await import("../lib/env");
// Read before Next.js loads .env (as `next start` does: PORT comes from the environment or --port).
const port = settingOrExit(() => getServerPort(values.port));
// Without Next.js nothing else checks the configuration and the database before the first request
// (instrumentation.ts does it in Next's prepare): one line naming the problem, not a stack trace.
if (webhooksOnly) await exitOnStartupProblem();
const { handleIfWebhook } = await import("../lib/webhooks/http-receiver");
const { handleIfProbe, startDraining } = await import("../lib/http/probes");
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
// From SIGTERM until the process exits, every response says `Connection: close`: a client (the load
// balancer) closes its pooled connection after the answer instead of sending the next request on a
// socket this process is about to close. Responses in flight whose headers are not yet sent get it too.
let closingConnections = false;
const openResponses = new Set<ServerResponse>();
const server = createServer((request, response) => {
  if (closingConnections) response.setHeader("connection", "close");
  else {
    openResponses.add(response);
    response.once("close", () => openResponses.delete(response));
  }
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
trustedProxies = settingOrExit(getTrustedProxies);
// A development server has no load balancer to tell: Ctrl-C stops it at once.
const graceMs = dev ? 0 : settingOrExit(getShutdownGraceMs);
// A fresh install gets its webhook secret path segment now (Settings shows the URL to register): an
// endpoint without one is an admin's explicit choice, never a default.
await ensureWebhookPathSecret();
server.once("error", (error) => {
  console.error(
    `[paydesk] cannot listen on ${hostname ?? "every interface"}, port ${port}: ${error.message}`,
  );
  process.exit(1);
});
server.listen(port, hostname, () => {
  const mode = webhooksOnly ? "webhook receiver" : dev ? "development server" : "production server";
  console.log(`[paydesk] ${mode} on ${describeAddress(server.address() as AddressInfo)}`);
});

/** Where the server really listens: without --hostname that is every interface, not only localhost. */
function describeAddress({ address, port: bound, family }: AddressInfo): string {
  if (address === "::" || address === "0.0.0.0") {
    return `every interface (${address}), port ${bound}: http://localhost:${bound} from this machine`;
  }
  return `http://${family === "IPv6" ? `[${address}]` : address}:${bound}`;
}

// On SIGTERM: readiness turns 503 at once, but the listener stays open for the grace, so the load
// balancer's probe sees the 503 and stops sending before connections are refused; meanwhile every answer
// closes its connection. Then the listener closes, idle connections end, the requests in flight finish
// (a webhook is answered only once stored), Next.js closes, exit. A second Ctrl-C (SIGINT) skips what is
// left of the grace. A repeated SIGTERM does not: stopping a process group (systemd's default KillMode, a
// Procfile runner) can deliver it twice, the kill's own and the one tsx relays to the process it runs,
// and the grace is what keeps the load balancer from sending to a closed listener. The process exits
// within the grace and DRAIN_BOUND_MS whatever happens.
let stopping = false;
let listenerClosed = false;
let graceTimer: NodeJS.Timeout | undefined;
const closeListener = () => {
  if (listenerClosed) return;
  listenerClosed = true;
  clearTimeout(graceTimer);
  server.close(() => void closeApp().finally(() => process.exit(0)));
  server.closeIdleConnections();
};
const stop = (signal: NodeJS.Signals) => {
  if (stopping) {
    if (signal === "SIGINT") closeListener();
    return;
  }
  stopping = true;
  startDraining();
  closingConnections = true;
  for (const response of openResponses) if (!response.headersSent) response.setHeader("connection", "close");
  openResponses.clear();
  setTimeout(() => process.exit(0), graceMs + DRAIN_BOUND_MS).unref();
  if (graceMs === 0) return closeListener();
  console.log(
    `[paydesk] ${signal}: readiness 503; closing the listener in ${graceMs} ms (SHUTDOWN_GRACE_MS), then finishing the requests in flight`,
  );
  graceTimer = setTimeout(closeListener, graceMs);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
