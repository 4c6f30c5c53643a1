// A reconciliation page (applySnapshotsBatch) derives the ledger itself, once, after writing the page's
// operations and their history; the ledger's triggers stand aside for that transaction (migration
// 20261124005334_ledger_derivation_deferred_for_batches). The postings must be exactly those of
// lib/ledger/rules.ts, whatever mix of first sightings, moves to a final status and unchanged operations
// the pages hold; and the triggers still derive for every other writer.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { postingsFor } from "@/lib/ledger/rules";
import { applySnapshotsBatch } from "@/lib/operations/mirror/apply-batch";
import { applySnapshot } from "@/lib/operations/mirror/apply-snapshot";
import type { Operation } from "@/lib/platform/schemas";
import { isolateDatabase } from "../../support/database";
import { snapshot } from "../../support/operations";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
}, 60_000);
afterAll(() => restore());

const T0 = Date.parse("2030-03-01T00:00:00Z");
const MINUTE = 60_000;
const at = (minutes: number) => new Date(T0 + minutes * MINUTE).toISOString();
const open = ["created", "in_progress"] as const;
const final = ["success", "failed"] as const;

const opArb = fc.record({
  typeOperation: fc.constantFrom("payIn" as const, "payOut" as const),
  first: fc.constantFrom(...open, ...final),
  // What the second page says: the same status, or a final one for an operation still open.
  then: fc.constantFrom("same" as const, ...final),
  addedAt: fc.integer({ min: 0, max: 600 }),
  base: fc.integer({ min: 0, max: 9_999_999 }).map((n) => (n / 100).toFixed(2)),
  commission: fc.integer({ min: 0, max: 99_999 }).map((n) => (n / 10_000).toFixed(4)),
  // Not on the first page: new on the second, among operations the mirror has.
  onFirstPage: fc.boolean(),
});
type Op = typeof opArb extends fc.Arbitrary<infer T> ? T : never;

const finalStatus = (s: string): s is (typeof final)[number] => s === "success" || s === "failed";
const secondStatus = (op: Op) => (op.then === "same" || finalStatus(op.first) ? op.first : op.then);

function page(ops: Op[], ids: string[], second: boolean): Operation[] {
  return ops.map((op, i) =>
    snapshot({
      id: ids[i],
      typeOperation: op.typeOperation,
      status: second ? secondStatus(op) : op.first,
      amountInCurrencyBalance: op.base,
      amountComissionInCurrencyBalance: op.commission,
      dateAdded: at(op.addedAt),
      dateUpdated: at(op.addedAt + (second && secondStatus(op) !== op.first ? 30 : 5)),
    }),
  );
}

const key = (p: { kind: string; at: Date; amount: { toFixed(n: number): string } }) =>
  `${p.kind}@${p.at.toISOString()}:${p.amount.toFixed(4)}`;

/** What lib/ledger/rules.ts makes of the operations as the platform last showed them. */
function expected(snapshots: Operation[]): string[] {
  return snapshots.flatMap((op) =>
    postingsFor({
      typeOperation: op.typeOperation,
      status: op.status,
      dateAdded: op.dateAdded,
      finalAt: op.dateUpdated ?? op.dateAdded,
      amountInCurrencyBalance: op.amountInCurrencyBalance?.toFixed() ?? "0",
      amountComissionInCurrencyBalance: op.amountComissionInCurrencyBalance?.toFixed() ?? "0",
    }).map(key),
  );
}

async function stored(ids: string[]): Promise<string[]> {
  const postings = await getDb().ledgerPosting.findMany({ where: { operationId: { in: ids } } });
  return postings.map(key).sort();
}

describe("a reconciliation page's ledger", () => {
  it("is exactly the postings of lib/ledger/rules.ts after a first page and after a second page that moves some to final and adds new ones", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 10 }), async (ops) => {
        const ids = ops.map(() => randomUUID());
        const first = page(ops, ids, false).filter((_, i) => ops[i]!.onFirstPage);
        await applySnapshotsBatch(first, "reconciliation", "page-1", new Date(T0 + 700 * MINUTE));
        expect(await stored(ids)).toEqual(expected(first).sort());
        const second = page(ops, ids, true);
        await applySnapshotsBatch(second, "reconciliation", "page-2", new Date(T0 + 800 * MINUTE));
        expect(await stored(ids)).toEqual(expected(second).sort());
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it("leaves the deferral to its own transaction: a webhook's write after a page is derived by the triggers", async () => {
    const id = randomUUID();
    const created = snapshot({
      id,
      typeOperation: "payOut",
      status: "in_progress",
      amount: "100",
      dateAdded: at(0),
      dateUpdated: at(1),
    });
    await applySnapshotsBatch([created], "reconciliation", "page-1", new Date(T0 + 2 * MINUTE));
    const settled = snapshot({
      id,
      typeOperation: "payOut",
      status: "success",
      amount: "100",
      dateAdded: at(0),
      dateUpdated: at(3),
    });
    await applySnapshot(settled, "readBack", { receivedAt: new Date(T0 + 4 * MINUTE) });
    expect(await stored([id])).toEqual(expected([settled]).sort());
    expect((await stored([id])).some((p) => p.startsWith("payOutSettle@"))).toBe(true);
  });
});
