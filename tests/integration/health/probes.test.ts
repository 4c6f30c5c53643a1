// Liveness and readiness for an orchestrator, answered ahead of Next.js by scripts/server.ts: live never
// touches the database, ready needs it and turns 503 once the process drains after SIGTERM.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleIfProbe, startDraining } from "@/lib/http/probes";

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (!handleIfProbe(req, res)) res.writeHead(418).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("health probes", () => {
  it("answers live and ready, and leaves other paths and methods alone", async () => {
    const live = await fetch(`${base}/api/health/live`);
    expect([live.status, await live.json()]).toEqual([200, { status: "ok" }]);
    const ready = await fetch(`${base}/api/health/ready?x=1`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: "ok" }]);
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect((await fetch(`${base}/api/health`)).status).toBe(418);
    expect((await fetch(`${base}/api/health/ready`, { method: "POST" })).status).toBe(418);
  });

  it("fails readiness once draining, while liveness stays up", async () => {
    startDraining();
    const ready = await fetch(`${base}/api/health/ready`);
    expect([ready.status, await ready.json()]).toEqual([503, { status: "fail", reason: "shutting down" }]);
    expect((await fetch(`${base}/api/health/live`)).status).toBe(200);
  });
});
