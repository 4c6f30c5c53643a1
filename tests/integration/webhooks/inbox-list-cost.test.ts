// The inbox list filtered by an outcome, newest first (listDeliveries), reads one page of rows however
// many newer deliveries of other outcomes there are: the `WebhookDelivery(outcome, id)` index gives it that
// order. Without it PostgreSQL walks the primary key back through every newer delivery (2.3 million
// deliveries, 1.3 % failed and those older: 4 pages 820 ms without the index, 12 ms with it).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { listDeliveries } from "@/lib/webhooks/inbox";
import { isolateDatabase } from "../../support/database";
import { explainAnalyze, planOf, rowsRead, type ExplainRow, type PlanNode } from "../../support/plans";
import { addDeliveries } from "../../support/webhook-deliveries";

/** The list's query as Prisma sends it for `{ outcome }` ordered by id descending, a page and one more. */
async function explainList(outcome: string, before?: bigint): Promise<PlanNode> {
  const rows = await getDb().$queryRawUnsafe<ExplainRow[]>(
    explainAnalyze(`SELECT * FROM "WebhookDelivery"
      WHERE outcome = $1::"WebhookOutcome" AND id < $2
      ORDER BY id DESC LIMIT 51`),
    outcome,
    before ?? 9_223_372_036_854_775_807n,
  );
  return planOf(rows);
}

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(async () => restore());

describe("the webhook inbox listed by outcome", () => {
  it("reads about a page of rows with 3,000 failed deliveries behind 270,000 newer applied ones", async () => {
    await addDeliveries("applied", 30_000);
    await addDeliveries("failed", 3_000);
    await addDeliveries("applied", 270_000);
    await getDb().$executeRaw`VACUUM ANALYZE "WebhookDelivery"`;

    const { rows, nextBefore } = await listDeliveries({ outcome: "failed" });
    expect(rows).toHaveLength(50);
    expect(rows.every((r) => r.outcome === "failed")).toBe(true);
    expect(nextBefore).not.toBeNull();

    expect(rowsRead(await explainList("failed"))).toBeLessThan(60);
    expect(rowsRead(await explainList("failed", BigInt(nextBefore!)))).toBeLessThan(60);
  }, 120_000);
});
