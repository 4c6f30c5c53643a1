// Claiming the next waiting delivery must cost the same whatever the inbox's history: it used to walk
// the primary key from the oldest delivery and skip every processed one, on every claim, which held the
// workers together to ~100 events/s once 30,000 deliveries were stored (issue 16, webhook processing).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { CLAIM_NEXT_DELIVERY } from "@/lib/webhooks/process";
import { isolateDatabase } from "../../support/database";
import { rowsRead, type PlanNode } from "../../support/plans";

async function addDeliveries(outcome: "applied" | "received", count: number): Promise<void> {
  await getDb().$executeRaw`
    INSERT INTO "WebhookDelivery" (headers, body, "bodyBytes", outcome)
    SELECT '{}'::jsonb, '{}', 2, ${outcome}::"WebhookOutcome" FROM generate_series(1, ${count})`;
}

/** Runs the claim under EXPLAIN ANALYZE in a transaction that is rolled back: nothing is claimed. */
async function explainClaim(): Promise<PlanNode> {
  let plan: PlanNode | undefined;
  await getDb()
    .$transaction(async (tx) => {
      const [row] = await tx.$queryRawUnsafe<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${CLAIM_NEXT_DELIVERY}`,
      );
      plan = row!["QUERY PLAN"][0].Plan;
      throw new Error("rollback");
    })
    .catch((error: unknown) => {
      if ((error as Error).message !== "rollback") throw error;
    });
  return plan!;
}

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(async () => restore());

describe("claiming a waiting webhook delivery", () => {
  it("reads a handful of rows, not the processed history, with a backlog behind 20,000 processed deliveries", async () => {
    await addDeliveries("applied", 20_000);
    await addDeliveries("received", 20_000);
    await getDb().$executeRaw`ANALYZE "WebhookDelivery"`;
    const plan = await explainClaim();
    expect(rowsRead(plan)).toBeLessThan(10);
    // the rollback left every delivery waiting and unclaimed
    expect(await getDb().webhookDelivery.count({ where: { outcome: "received", claimedUntil: null } })).toBe(
      20_000,
    );
  }, 120_000);
});
