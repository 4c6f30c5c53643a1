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
const { ensureWebhookPathSecret } = await import("../lib/webhooks/path-secret");

const server = createServer((request, response) => {
  if (!handleIfWebhook(request, response)) void handle(request, response);
});
const app = next({ dev, port, hostname: hostname ?? "localhost", httpServer: server });
const handle = app.getRequestHandler();
await app.prepare();
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
