// "Run now" pressed over and over (a script, a stuck key) queues nothing more than the stately queue
// already holds, but each press was an audit entry: presses past the per-user limit are refused with
// words, without queueing or auditing.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { createStaff } from "../../support/mirror";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
const queue = vi.hoisted(() => ({ sent: [] as string[] }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.34" }),
}));
vi.mock("@/lib/queue/enqueue", () => ({
  enqueueJob: async (name: string) => {
    queue.sent.push(name);
    return null; // already queued: the stately queue keeps one waiting
  },
}));

const { runReconciliationNowAction } = await import("@/lib/actions/reconcile");

let userId: string;
beforeAll(async () => {
  userId = (await createStaff("finance")).id;
});

describe("run now, pressed 200 times", () => {
  it("queues and audits the first presses of a minute; the rest are refused with words, each user on their own", async () => {
    session.current = { userId, sessionVersion: 0 };
    // one minute's window throughout, however long the presses take
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-06-01T12:00:10Z") });
    const results = [];
    try {
      for (let i = 0; i < 200; i++) results.push(await runReconciliationNowAction({ kind: "full" }));
    } finally {
      vi.useRealTimers();
    }
    const accepted = results.filter((r) => r.ok).length;
    expect(accepted).toBe(10);
    expect(results.at(-1)).toMatchObject({
      ok: false,
      code: "rate_limited",
      message: "At most 10 run requests a minute; wait a minute and try again.",
    });
    expect(queue.sent).toHaveLength(10);
    expect(
      await getDb().auditLog.count({ where: { action: "reconciliation.runNow", actorUserId: userId } }),
    ).toBe(10);

    const other = await createStaff("finance");
    session.current = { userId: other.id, sessionVersion: 0 };
    expect(await runReconciliationNowAction({ kind: "incremental" })).toMatchObject({ ok: true });
  });
});
