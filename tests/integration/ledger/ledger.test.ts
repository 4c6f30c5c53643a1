import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { dailyClosings, ledgerBalanceBefore } from "@/lib/ledger/balance";
import { allPostings, postingsPage } from "@/lib/ledger/postings";
import { postingsFor } from "@/lib/ledger/rules";
import { inLedgerSnapshot } from "@/lib/ledger/snapshot";
import { statementSummary } from "@/lib/ledger/statement";
import { Decimal } from "@/lib/money/decimal";
import { AMOUNT_DIGITS, decimalFromWire } from "@/lib/platform/wire";
import { isolateDatabase } from "../../support/database";
import { insertOperations, type MirrorRow } from "../../support/mirror";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
}, 60_000);
afterAll(async () => restore());

const T0 = Date.parse("2030-01-01T00:00:00Z");
const DAY = 86_400_000;
const amountArb = fc
  .bigInt({ min: 0n, max: 2_000_000_000n })
  .map((n) => new Decimal(n.toString()).dividedBy(10_000).toFixed(4));

const opArb = fc.record({
  typeOperation: fc.constantFrom("payIn" as const, "payOut" as const),
  status: fc.constantFrom(
    "created" as const,
    "in_progress" as const,
    "pending_retry" as const,
    "success" as const,
    "failed" as const,
  ),
  addedOffset: fc.integer({ min: 0, max: 40 * DAY }),
  finalDelay: fc.integer({ min: 1, max: 5 * DAY }),
  base: amountArb,
  commission: amountArb,
  // The status history carries the moment of the change (else the operation's dateUpdated counts).
  withHistory: fc.boolean(),
});
type Op = typeof opArb extends fc.Arbitrary<infer T> ? T : never;

async function load(ops: Op[]): Promise<void> {
  const db = getDb();
  await db.operation.deleteMany();
  await db.outsideMovement.deleteMany();
  const rows: MirrorRow[] = ops.map((op) => ({
    typeOperation: op.typeOperation,
    status: op.status,
    dateAdded: new Date(T0 + op.addedOffset),
    dateUpdated: new Date(T0 + op.addedOffset + op.finalDelay),
    amountInCurrencyBalance: op.base,
    amountComissionInCurrencyBalance: op.commission,
  }));
  const ids = await insertOperations(rows);
  const history = ops.flatMap((op, i) =>
    op.withHistory && (op.status === "success" || op.status === "failed")
      ? [
          {
            operationId: ids[i]!,
            toStatus: op.status,
            source: "reconciliation" as const,
            platformDateUpdated: new Date(T0 + op.addedOffset + Math.floor(op.finalDelay / 2)),
          },
        ]
      : [],
  );
  if (history.length > 0) await db.operationStatusChange.createMany({ data: history });
}

function expectedPostings(ops: Op[]) {
  return ops.flatMap((op) =>
    postingsFor({
      typeOperation: op.typeOperation,
      status: op.status,
      dateAdded: new Date(T0 + op.addedOffset),
      finalAt: new Date(
        T0 + op.addedOffset + (op.withHistory ? Math.floor(op.finalDelay / 2) : op.finalDelay),
      ),
      amountInCurrencyBalance: op.base,
      amountComissionInCurrencyBalance: op.commission,
    }).map((p) => `${p.kind}@${p.at.toISOString()}:${p.amount.toFixed(4)}/${p.holdDelta.toFixed(4)}`),
  );
}

describe("ledger postings", () => {
  it("the database derives exactly the postings of lib/ledger/rules.ts", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 12 }), async (ops) => {
        await load(ops);
        const stored = await getDb().ledgerPosting.findMany();
        const actual = stored.map(
          (p) => `${p.kind}@${p.at.toISOString()}:${p.amount.toFixed(4)}/${p.holdDelta.toFixed(4)}`,
        );
        expect(actual.sort()).toEqual(expectedPostings(ops).sort());
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it("a pay-out moving to failed later releases its hold at the moment of the change, even without amounts", async () => {
    const db = getDb();
    await db.operation.deleteMany();
    const [id] = await insertOperations([
      {
        typeOperation: "payOut",
        status: "in_progress",
        dateAdded: new Date(T0),
        amountInCurrencyBalance: "10",
        amountComissionInCurrencyBalance: "0.2",
      },
    ]);
    const failedAt = new Date(T0 + 3 * DAY);
    await db.$transaction(async (tx) => {
      await tx.operation.update({
        where: { id: id! },
        data: {
          status: "failed",
          dateUpdated: failedAt,
          amountInCurrencyBalance: "0",
          amountComissionInCurrencyBalance: "0",
        },
      });
      await tx.operationStatusChange.create({
        data: { operationId: id!, toStatus: "failed", source: "webhook", platformDateUpdated: failedAt },
      });
    });
    const postings = await db.ledgerPosting.findMany({ orderBy: { at: "asc" } });
    expect(postings.map((p) => [p.kind, p.at.toISOString(), p.amount.toFixed(4)])).toEqual([
      ["payOutHold", new Date(T0).toISOString(), "-10.2000"],
      ["payOutRelease", failedAt.toISOString(), "10.2000"],
    ]);
  });
});

describe("statements", () => {
  it("opening + movements = closing for any split, and adjacent periods chain", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { maxLength: 15 }),
        fc.uniqueArray(fc.integer({ min: -DAY, max: 48 * DAY }), { minLength: 3, maxLength: 3 }),
        async (ops, cuts) => {
          await load(ops);
          const [a, b, c] = cuts.sort((x, y) => x - y).map((t) => new Date(T0 + t));
          const first = await statementSummary({ from: a!, to: b!, tz: "Europe/Moscow" });
          const second = await statementSummary({ from: b!, to: c!, tz: "Europe/Moscow" });
          expect(first.check.ok).toBe(true);
          expect(second.check.ok).toBe(true);
          expect(first.closing).toEqual(second.opening);
          // The lines of both periods, with their running balances, end at the closing balance.
          const lines = await inLedgerSnapshot(async (tx) => {
            const all = [];
            for await (const chunk of allPostings({ from: a!, to: c!, tz: "UTC" }, tx, 4)) all.push(...chunk);
            return all;
          });
          expect(lines.at(-1)?.balance ?? first.opening.available).toBe(second.closing.available);
          const sum = lines.reduce((s, l) => s.plus(l.amount), new Decimal(0));
          expect(sum.toFixed(4)).toBe(
            new Decimal(first.totals.movements).plus(second.totals.movements).toFixed(4),
          );
        },
      ),
      { numRuns: 20 },
    );
  }, 180_000);

  it("pages of postings carry the running balance across the cursor", async () => {
    const ops: Op[] = Array.from({ length: 9 }, (_, i) => ({
      typeOperation: i % 3 === 0 ? "payOut" : "payIn",
      status: "success",
      addedOffset: i * 3_600_000,
      finalDelay: 60_000,
      base: `${i + 1}.5`,
      commission: "0.1",
      withHistory: false,
    }));
    await load(ops);
    const period = { from: new Date(T0), to: new Date(T0 + DAY), tz: "UTC" };
    const whole = (await postingsPage(period, null, 1000)).rows;
    const paged = [];
    let cursor = null;
    do {
      const page = await postingsPage(period, cursor, 4);
      paged.push(...page.rows);
      cursor = page.next ? (await import("@/lib/ledger/postings")).decodeCursor(page.next) : null;
    } while (cursor);
    expect(paged).toEqual(whole);
    const summary = await statementSummary(period);
    expect(whole.at(-1)?.balance).toBe(summary.closing.available);
    const closings = await dailyClosings(period);
    expect(closings.at(-1)?.available).toBe(summary.closing.available);
    expect((await ledgerBalanceBefore(period.to)).available.toFixed(4)).toBe(summary.closing.available);
  });
});

describe("balance comparison", () => {
  it("a posting between sending GET /balance and storing its answer does not count as a difference", async () => {
    const { recordComparison } = await import("@/lib/ledger/proof");
    await load([]);
    const db = getDb();
    await db.balanceComparison.deleteMany();
    await insertOperations([
      {
        typeOperation: "payIn",
        status: "success",
        dateAdded: new Date(T0),
        dateUpdated: new Date(T0 + 500),
        amountInCurrencyBalance: "10",
        amountComissionInCurrencyBalance: "0",
      },
    ]);
    const snapshot = (takenAt: Date, amount: string) =>
      db.balanceSnapshot.create({
        data: {
          takenAt,
          amountInCurrencyBalance: amount,
          currencyBalance: "USDT",
          amountInCurrencyPayment: "0",
          currencyPayment: "RUB",
          exchangeRate: "0",
        },
      });
    // The platform answered before the pay-in's success (0), the answer was stored after it.
    const before = await snapshot(new Date(T0 + 900), "0");
    await db.$transaction((tx) => recordComparison(tx, before, new Date(T0 + 100)));
    // Platform figure that neither moment explains.
    const odd = await snapshot(new Date(T0 + 2_000), "7");
    await db.$transaction((tx) => recordComparison(tx, odd, new Date(T0 + 1_500)));
    const rows = await db.balanceComparison.findMany({ orderBy: { takenAt: "asc" } });
    expect(rows.map((r) => r.difference.toFixed(4))).toEqual(["0.0000", "-3.0000"]);
  });
});

describe("amounts at the wire's limit", () => {
  it("a pay-out of the largest amount and commission the wire reads is held in one posting that fits", async () => {
    const db = getDb();
    await db.operation.deleteMany();
    const largest = `${"9".repeat(AMOUNT_DIGITS.integer)}.9999`;
    expect(decimalFromWire(largest)?.toFixed()).toBe(largest);
    const [id] = await insertOperations([
      {
        typeOperation: "payOut",
        status: "in_progress",
        dateAdded: new Date(T0),
        amount: largest,
        amountComission: largest,
        amountInCurrencyBalance: largest,
        amountComissionInCurrencyBalance: largest,
      },
    ]);
    const [hold] = await db.ledgerPosting.findMany({ where: { operationId: id } });
    expect(hold!.holdDelta.toFixed(4)).toBe(new Decimal(largest).times(2).toFixed(4));
  });
});
