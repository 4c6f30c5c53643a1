// Claiming the next waiting delivery must cost the same whatever the inbox's history: it used to walk
// the primary key from the oldest delivery and skip every processed one, on every claim, which held the
// workers together to ~100 events/s once 30,000 deliveries were stored (issue 16, webhook processing).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { CLAIM_SETTINGS, claimStatement } from "@/lib/webhooks/process";
import { isolateDatabase } from "../../support/database";
import { explainAnalyze, planOf, rowsRead, type ExplainRow, type PlanNode } from "../../support/plans";
import { addDeliveries } from "../../support/webhook-deliveries";

/**
 * Runs the claim under EXPLAIN ANALYZE, after the settings the worker sends with it, in a transaction
 * that is rolled back: nothing is claimed.
 */
async function explainClaim(): Promise<PlanNode> {
  let plan: PlanNode | undefined;
  await getDb()
    .$transaction(async (tx) => {
      for (const setting of CLAIM_SETTINGS.split(";")) await tx.$executeRawUnsafe(setting);
      plan = planOf(await tx.$queryRawUnsafe<ExplainRow[]>(explainAnalyze(claimStatement(4))));
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

  it("still reads a handful when the backlog came after the statistics, or before any", async () => {
    // Seen in the processing bench on a freshly emptied inbox: planned from statistics that knew no
    // waiting delivery, the claim read every waiting one and sorted them by id, each claim slower as the
    // backlog grew (0.2 to 2 ms of database time per claim; 5 s of lag after 20 s at 500 events/s).
    await getDb().$executeRaw`TRUNCATE "WebhookDelivery"`;
    await addDeliveries("applied", 2_000);
    await addDeliveries("received", 2_000);
    expect(rowsRead(await explainClaim())).toBeLessThan(10);

    await getDb().$executeRaw`TRUNCATE "WebhookDelivery"`;
    await addDeliveries("applied", 2_000);
    await getDb().$executeRaw`ANALYZE "WebhookDelivery"`;
    await addDeliveries("received", 2_000);
    expect(rowsRead(await explainClaim())).toBeLessThan(10);
  }, 120_000);
});
