// The quarter-hour sums are split in stripes by operation, so that writers of different operations in the
// same quarter hour do not wait for each other's commit (webhook processing runs many loops at once).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { firstPostingAt } from "@/lib/ledger/balance";
import { isolateDatabase } from "../../support/database";
import { mirrorRow } from "../../support/mirror";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(async () => {
  await restore();
});

const stripeOf = async (id: string) => {
  const [row] = await getDb().$queryRaw<{ s: number }[]>`SELECT hashtext(${id}::text) & 15 AS s`;
  return row!.s;
};

/** Two operation ids whose postings fall in different stripes. */
async function idsInDifferentStripes(): Promise<[string, string]> {
  const first = randomUUID();
  for (;;) {
    const second = randomUUID();
    if ((await stripeOf(second)) !== (await stripeOf(first))) return [first, second];
  }
}

const at = new Date("2026-11-23T10:05:00.000Z");
const successfulPayIn = (id: string) =>
  mirrorRow({ id, dateAdded: at, dateUpdated: at, typeOperation: "payIn", status: "success" });

describe("LedgerBucket stripes", () => {
  it("a second operation's postings in the same quarter hour do not wait for the first one's commit", async () => {
    const db = getDb();
    const [a, b] = await idsInDifferentStripes();
    let releaseA!: () => void;
    const aMayCommit = new Promise<void>((resolve) => (releaseA = resolve));
    let aWrote!: () => void;
    const aHasWritten = new Promise<void>((resolve) => (aWrote = resolve));
    const first = db.$transaction(
      async (tx) => {
        await tx.operation.create({ data: successfulPayIn(a) });
        aWrote();
        await aMayCommit; // holds its bucket rows locked
      },
      { timeout: 20_000 },
    );
    await aHasWritten;
    const second = db
      .$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '3s'`);
        await tx.operation.create({ data: successfulPayIn(b) });
      })
      .then(
        () => "committed",
        (error: Error) => `failed: ${error.message}`,
      );
    const outcome = await second;
    releaseA();
    await first;
    expect(outcome).toBe("committed");
    const rows = await db.$queryRaw<{ kind: string; postings: number; stripes: bigint }[]>`
      SELECT kind::text, sum(postings)::int AS postings, count(*) AS stripes FROM "LedgerBucket"
      WHERE bucket = '2026-11-23T10:00:00Z' GROUP BY kind ORDER BY kind`;
    expect(rows).toEqual([
      { kind: "payInCommission", postings: 2, stripes: 2n },
      { kind: "payInCredit", postings: 2, stripes: 2n },
    ]);
  });

  it("the stripes of every quarter hour and kind add up to its postings through inserts, moves and deletes", async () => {
    const db = getDb();
    const base = new Date("2026-11-24T00:00:00.000Z").getTime();
    const rows = Array.from({ length: 120 }, (_, i) =>
      mirrorRow({
        dateAdded: new Date(base + (i % 7) * 400_000),
        dateUpdated: new Date(base + (i % 7) * 400_000 + 60_000),
        typeOperation: i % 3 === 0 ? "payOut" : "payIn",
        status: i % 3 === 0 ? "in_progress" : "success",
        amountInCurrencyBalance: `${(i % 13) + 1}.25`,
      }),
    );
    await db.operation.createMany({ data: rows });
    const payOuts = rows.filter((r) => r.typeOperation === "payOut").map((r) => r.id);
    // Pay-outs settle half an hour later (hold released, debit posted in another quarter hour), one fails,
    // and some operations are removed (their postings go with them).
    await db.operation.updateMany({
      where: { id: { in: payOuts.slice(1) } },
      data: { status: "success", dateUpdated: new Date(base + 1_800_000) },
    });
    await db.operation.update({ where: { id: payOuts[0]! }, data: { status: "failed" } });
    await db.operation.deleteMany({ where: { id: { in: rows.slice(100).map((r) => r.id) } } });

    const differences = await db.$queryRaw<unknown[]>`
      WITH from_postings AS (
        SELECT ledger_bucket_of(at) AS bucket, kind, sum(amount) AS amount, sum("holdDelta") AS hold,
          count(*)::int AS n FROM "LedgerPosting" GROUP BY 1, 2
      ), from_buckets AS (
        SELECT bucket, kind, sum(amount) AS amount, sum("holdDelta") AS hold, sum(postings)::int AS n
        FROM "LedgerBucket" GROUP BY 1, 2 HAVING sum(postings) <> 0 OR sum(amount) <> 0 OR sum("holdDelta") <> 0
      )
      SELECT * FROM from_postings p FULL JOIN from_buckets b USING (bucket, kind)
      WHERE (p.amount, p.hold, p.n) IS DISTINCT FROM (b.amount, b.hold, b.n)`;
    expect(differences).toEqual([]);
    const [spread] = await db.$queryRaw<{ stripes: bigint; lowest: number; highest: number }[]>`
      SELECT count(DISTINCT stripe) AS stripes, min(stripe) AS lowest, max(stripe) AS highest
      FROM "LedgerBucket" WHERE bucket >= '2026-11-24T00:00:00Z'`;
    expect(spread!.stripes).toBeGreaterThan(8n);
    expect(spread!.lowest).toBeGreaterThanOrEqual(0);
    expect(spread!.highest).toBeLessThanOrEqual(15);
  });

  it("the first posting is the earliest quarter hour whose stripes still hold postings", async () => {
    const db = getDb();
    const early = mirrorRow({
      dateAdded: new Date("2026-01-01T00:00:00.000Z"),
      typeOperation: "payIn",
      status: "success",
    });
    await db.operation.create({ data: early });
    expect((await firstPostingAt())?.toISOString()).toBe("2026-01-01T00:00:00.000Z");
    await db.operation.delete({ where: { id: early.id } });
    // The quarter hour's row stays with zero postings; it no longer counts.
    expect((await firstPostingAt())?.toISOString()).toBe("2026-11-23T10:00:00.000Z");
  });
});
