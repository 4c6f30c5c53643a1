// The baseline for the webhook-ingest benchmark: the least a receiver can do — node:http and one
// INSERT of the raw body per request, on the same table and database as Paydesk's receiver.
import { createServer } from "node:http";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks);
    pool
      .query(
        `INSERT INTO "WebhookDelivery" (headers, body, "bodyBytes", "sourceIp") VALUES ($1, $2, $3, $4)`,
        [
          JSON.stringify({ "content-type": req.headers["content-type"] ?? null }),
          body.toString("utf8"),
          body.byteLength,
          req.socket.remoteAddress ?? null,
        ],
      )
      .then(
        () => res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}'),
        () => res.writeHead(500).end(),
      );
  });
});
server.listen(Number(process.env.PORT), "127.0.0.1", () => process.send?.("ready"));
