// Liveness and readiness for an orchestrator, answered ahead of Next.js by scripts/server.ts: live never
// touches the database, ready needs it and turns 503 once the process drains after SIGTERM.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Counts the readiness queries: the probes are public, so a flood must not become a query per request.
const readiness = vi.hoisted(() => ({ queries: 0 }));
vi.mock("@/lib/db", async (original) => {
  const real = await original<typeof import("@/lib/db")>();
  return {
    ...real,
    getDb: () => {
      const db = real.getDb();
      return {
        $queryRawUnsafe: (sql: string) => {
          readiness.queries += 1;
          return db.$queryRawUnsafe(sql);
        },
      };
    },
  };
});

const { handleIfProbe, startDraining } = await import("@/lib/http/probes");

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

  it("answers readiness requests arriving together from one database query", async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // past the reuse of the first test's answer
    const before = readiness.queries;
    const answers = await Promise.all(Array.from({ length: 25 }, () => fetch(`${base}/api/health/ready`)));
    expect(answers.map((a) => a.status)).toEqual(Array(25).fill(200));
    expect(readiness.queries - before).toBe(1);
  });

  it("fails readiness once draining, while liveness stays up", async () => {
    startDraining();
    const ready = await fetch(`${base}/api/health/ready`);
    expect([ready.status, await ready.json()]).toEqual([503, { status: "fail", reason: "shutting down" }]);
    expect((await fetch(`${base}/api/health/live`)).status).toBe(200);
  });
});
