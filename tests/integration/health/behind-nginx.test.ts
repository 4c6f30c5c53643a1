// The guide's reverse proxy, tried: deploy/nginx.conf as shipped (only its ports changed) in front of two web
// processes, each started as `npm start` starts it (under tsx, in a process group of its own), with
// TRUSTED_PROXIES naming nginx. A rolling restart stops each web process as systemd does (SIGTERM to
// its whole group) while webhooks keep arriving: nginx must send none of them to a closed listener.
import { once } from "node:events";
import { createServer, type AddressInfo, type Server } from "node:net";
import autocannon from "autocannon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { sleep } from "@/lib/time/sleep";
import { freePort } from "../../../scripts/lib/embedded-postgres";
import { isolateDatabase } from "../../support/database";
import { startNginx, type Nginx } from "../../support/nginx";
import { PATH_SECRET, startServer, waitUntilReady, type ServerProcess } from "../../support/server-process";
import { webhookBody } from "../../support/webhooks";

// SHUTDOWN_GRACE_MS's default: nginx's keepalive_timeout (4 s) is chosen against it
const GRACE_MS = 5_000;
const env = {
  TRUSTED_PROXIES: "127.0.0.1/32",
  WEBHOOK_ALLOWED_IPS: "127.0.0.1/32",
};

let restore: () => Promise<void>;
let ports: [number, number];
const servers = new Map<number, ServerProcess>();
let nginx: Nginx;

async function startWeb(port: number): Promise<void> {
  const server = startServer(
    ["--webhooks-only", "--port", String(port), "--hostname", "127.0.0.1"],
    env,
    "tsx-group",
  );
  servers.set(port, server);
  await waitUntilReady(server, `http://127.0.0.1:${port}`);
}

/** SIGTERM to the web process's whole group, as systemd's default KillMode sends it: its exit code, and when. */
async function stopWeb(port: number): Promise<{ code: number | null; afterMs: number }> {
  const server = servers.get(port)!;
  const sent = Date.now();
  process.kill(-server.child.pid!, "SIGTERM");
  const code = await server.exited;
  return { code, afterMs: Date.now() - sent };
}

beforeAll(async () => {
  restore = await isolateDatabase();
  ports = [await freePort(), await freePort()];
  await Promise.all(ports.map(startWeb));
  nginx = await startNginx(ports);
}, 120_000);

afterAll(async () => {
  await nginx?.stop();
  for (const server of servers.values())
    if (server.child.exitCode === null) process.kill(-server.child.pid!, "SIGKILL");
  await restore();
});

const webhookUrl = () => `${nginx.url}/api/webhooks/platform/${PATH_SECRET}`;
const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(webhookUrl(), { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

describe("behind deploy/nginx.conf", () => {
  it("believes only the client address nginx appends to X-Forwarded-For", async () => {
    const body = webhookBody();
    const answer = await post(body, { "x-forwarded-for": "203.0.113.9" });
    expect(answer.status).toBe(200);
    const stored = await getDb().webhookDelivery.findFirstOrThrow({ where: { body } });
    expect([stored.sourceIp, stored.outcome]).toEqual(["127.0.0.1", "received"]);
  });

  it("refuses a body over Paydesk's limit (64 KiB, kept as malformed) and over nginx's (1 MiB)", async () => {
    const overPaydesk = await post("x".repeat(70_000));
    expect(overPaydesk.status).toBe(400);
    const kept = await getDb().webhookDelivery.findFirstOrThrow({ orderBy: { id: "desc" } });
    expect([kept.outcome, kept.outcomeCode, kept.bodyBytes]).toEqual(["malformed", "bodyTooLarge", 70_000]);

    const overNginx = await post("x".repeat(2_000_000));
    expect(overNginx.status).toBe(413);
    expect(await getDb().webhookDelivery.count({ where: { bodyBytes: 2_000_000 } })).toBe(0);
  });

  it("loses and fails no webhook while each web process is restarted in turn", async () => {
    const before = await getDb().webhookDelivery.count();
    const connections = 10;
    const load = autocannon({
      url: webhookUrl(),
      method: "POST",
      connections,
      overallRate: 150,
      duration: 25,
      headers: { "content-type": "application/json" },
      body: webhookBody(),
    });
    const exits: { code: number | null; afterMs: number }[] = [];
    const restarts = (async () => {
      for (const port of ports) {
        await sleep(4_000);
        exits.push(await stopWeb(port));
        await startWeb(port);
      }
    })();
    const result = await load;
    await restarts;

    expect(exits.map((exit) => exit.code)).toEqual([0, 0]);
    // each kept its grace: a second SIGTERM (tsx relays one when its child reports the signal late) did not end it
    for (const exit of exits) expect(exit.afterMs).toBeGreaterThanOrEqual(GRACE_MS);
    expect([result.non2xx, result.errors, result.timeouts], await nginx.errorLog()).toEqual([0, 0, 0]);
    expect(result["2xx"]).toBeGreaterThan(1_000);
    // every answered webhook is stored; the ones still in flight when the load stopped may be stored too
    const stored = (await getDb().webhookDelivery.count()) - before;
    expect(stored).toBeGreaterThanOrEqual(result["2xx"]);
    expect(stored - result["2xx"]).toBeLessThanOrEqual(connections);
  }, 120_000);
});

// When a stopping process closes its listener, a connection still in the listener's queue is reset after
// nginx has sent a request on it: rare (1–5 requests in 1 of 3 to 6 rolling restarts above, before the
// webhook route resent them), so here an upstream that resets every request stands in for it.
describe("behind deploy/nginx.conf, an upstream that resets a request it was sent", () => {
  let resetting: Server;
  let proxy: Nginx;
  beforeAll(async () => {
    resetting = createServer((socket) => socket.once("data", () => socket.resetAndDestroy()));
    resetting.listen(0, "127.0.0.1");
    await once(resetting, "listening");
    proxy = await startNginx([(resetting.address() as AddressInfo).port, ports[0]]);
  });
  afterAll(async () => {
    await proxy?.stop();
    resetting?.close();
  });

  const postTo = (route: string, body: string) =>
    fetch(`${proxy.url}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body });

  it("resends a webhook to the next process", async () => {
    const bodies = Array.from({ length: 4 }, () => webhookBody());
    const statuses = [];
    for (const body of bodies)
      statuses.push((await postTo(`/api/webhooks/platform/${PATH_SECRET}`, body)).status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(await getDb().webhookDelivery.count({ where: { body: { in: bodies } } })).toBe(4);
    expect(await proxy.errorLog()).toContain("Connection reset by peer");
  });

  it("does not resend the console's POSTs", async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await postTo("/login", "{}")).status);
    expect(statuses).toContain(502);
  });
});
