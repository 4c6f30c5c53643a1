// /api/health is public (the proxy routes everything to the web processes): an outsider gets whether
// Paydesk is healthy and which parts fail, never why (hosts, error texts), and cannot make it check
// once per request. The monitoring reads the details with HEALTH_TOKEN.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { isolateDatabase } from "../../support/database";

const TOKEN = "monitoring-token-0123456789-abcdefghij";
process.env.HEALTH_TOKEN = TOKEN;

const dbCheck = vi.hoisted(() => ({ calls: 0 }));
vi.mock("@/lib/db-check", async (original) => {
  const real = await original<typeof import("@/lib/db-check")>();
  return {
    ...real,
    describeDatabaseProblem: (...args: Parameters<typeof real.describeDatabaseProblem>) => {
      dbCheck.calls += 1;
      return real.describeDatabaseProblem(...args);
    },
  };
});

const { GET } = await import("@/app/api/health/route");
const { getDb } = await import("@/lib/db");

// What the platform's last failure said: internal detail an outsider must not read.
const INTERNAL = "connect ECONNREFUSED 10.20.30.40:443";

let restoreDatabase: () => Promise<void>;
beforeAll(async () => {
  restoreDatabase = await isolateDatabase();
  await getDb().apiCall.create({
    data: { startedAt: new Date(), method: "GET", path: "/balance", error: INTERNAL, latencyMs: 3 },
  });
});
afterAll(() => restoreDatabase());

const get = (authorization?: string) =>
  GET(new Request("http://paydesk.test/api/health", { headers: authorization ? { authorization } : {} }));

describe("GET /api/health", () => {
  it("checks once for many requests arriving together", async () => {
    const answers = await Promise.all(Array.from({ length: 25 }, () => get()));
    expect(answers.map((a) => a.status)).toEqual(Array(25).fill(503));
    expect(dbCheck.calls).toBe(1);
  });

  it("tells an outsider which parts fail, and nothing of why", async () => {
    const response = await get();
    const text = await response.text();
    expect(response.status).toBe(503);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(JSON.parse(text)).toEqual({ status: "fail", failing: ["platform", "reconciliation"] });
    expect(text).not.toContain("10.20.30.40");
  });

  it("gives the monitoring with HEALTH_TOKEN every part and why it fails", async () => {
    const response = await get(`Bearer ${TOKEN}`);
    const body = (await response.json()) as { checks: Record<string, { state: string; detail: string }> };
    expect(response.status).toBe(503);
    expect(body.checks.database?.state).toBe("ok");
    expect(body.checks.platform).toMatchObject({ state: "failing" });
    expect(body.checks.platform?.detail).toContain(INTERNAL);
  });

  it.each([
    ["a wrong token", `Bearer ${TOKEN}-guess`],
    ["another scheme", `Basic ${btoa(`admin:${TOKEN}`)}`],
    ["a Latin-1 character", `Bearer ${TOKEN}\u00e9`],
  ])("refuses %s with 401 and no details", async (_what, authorization) => {
    const response = await get(authorization);
    const text = await response.text();
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="health"');
    expect(JSON.parse(text)).toMatchObject({ status: "refused" });
    expect(text).not.toContain("checks");
    expect(text).not.toContain("10.20.30.40");
  });
});
