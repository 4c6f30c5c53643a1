// /api/health when the database answers SELECT 1 but a part's query then fails (a table missing because
// the code was deployed before its migration, a pooled connection cut): the part is failing, the answer
// is 503 naming it, the error only with HEALTH_TOKEN, and one check still answers every request for 1 s.
import { afterEach, describe, expect, it, vi } from "vitest";

const TOKEN = "monitoring-token-0123456789-abcdefghij";
process.env.HEALTH_TOKEN = TOKEN;

const state = vi.hoisted(() => ({ dbChecks: 0, queries: 0 }));
vi.mock("@/lib/db-check", async (original) => {
  const real = await original<typeof import("@/lib/db-check")>();
  return {
    ...real,
    describeDatabaseProblem: (...args: Parameters<typeof real.describeDatabaseProblem>) => {
      state.dbChecks += 1;
      return real.describeDatabaseProblem(...args);
    },
  };
});
// What Prisma throws when the table is not there: every part's query fails after SELECT 1 answered.
vi.mock("@/lib/db", () => {
  const missingTable = () => {
    state.queries += 1;
    return Promise.reject(
      Object.assign(
        new Error(
          "\nInvalid `prisma.apiCall.findFirst()` invocation:\n\n\nThe table `public.ApiCall` does not exist in the current database.",
        ),
        { code: "P2021" },
      ),
    );
  };
  const table = { findFirst: missingTable };
  return { getDb: () => ({ apiCall: table, webhookDelivery: table, reconciliationRun: table }) };
});
// The probe is never reached (the latest call cannot be read), but must not go out if it were.
(globalThis as { paydeskPlatform?: unknown }).paydeskPlatform = {
  getBanks: () => Promise.resolve({ banks: [], traceID: null }),
};

const { GET } = await import("@/app/api/health/route");
const { getLog } = await import("@/lib/log");

const get = (authorization?: string) =>
  GET(new Request("http://paydesk.test/api/health", { headers: authorization ? { authorization } : {} }));

afterEach(() => {
  vi.restoreAllMocks();
});

describe("GET /api/health, a part's query failing after SELECT 1", () => {
  it("answers 503 naming the parts, from one check (logged once) for the requests of a second", async () => {
    const logged = vi.spyOn(getLog(), "error").mockImplementation(() => undefined);
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await get());
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(503));
    expect(await answers[0]?.json()).toEqual({
      status: "fail",
      failing: ["platform", "webhookQueue", "reconciliation"],
    });
    expect(state.dbChecks).toBe(1);
    expect(state.queries).toBe(3);
    expect(logged).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(logged.mock.calls[0])).toContain("P2021");
  });

  it("tells an outsider nothing of why, and the monitoring with HEALTH_TOKEN the error", async () => {
    const outsider = await (await get()).text();
    expect(outsider).not.toContain("P2021");
    expect(outsider).not.toContain("ApiCall");

    const response = await get(`Bearer ${TOKEN}`);
    const body = (await response.json()) as { checks: Record<string, { state: string; detail: string }> };
    expect(response.status).toBe(503);
    expect(body.checks.database?.state).toBe("ok");
    for (const name of ["platform", "webhookQueue", "reconciliation"]) {
      expect(body.checks[name]?.state).toBe("failing");
      expect(body.checks[name]?.detail).toBe(
        "could not be checked: P2021: Invalid `prisma.apiCall.findFirst()` invocation: The table `public.ApiCall` does not exist in the current database.",
      );
    }
  });
});
