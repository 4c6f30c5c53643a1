// The balance page's daily closings read the opening balance and the per-day sums from one snapshot of the
// ledger (lib/ledger/snapshot.ts), as statements do: a reconciliation page or a webhook that commits
// between the two reads cannot yield a closing the ledger never had (one with the later posting and
// without the earlier one).
import { afterAll, beforeAll, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { dailyClosings, ledgerBalanceBefore } from "@/lib/ledger/balance";
import { isolateDatabase } from "../../support/database";
import { insertOperations } from "../../support/mirror";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(async () => restore());

const payIn = (at: string, amount: string) => ({
  dateAdded: new Date(at),
  dateUpdated: new Date(at),
  status: "success" as const,
  amountInCurrencyBalance: amount,
  amountComissionInCurrencyBalance: "0",
});

type Raw = (this: unknown, ...args: unknown[]) => Promise<unknown>;

it("the closings are those of one moment, whatever commits between their reads", async () => {
  await insertOperations([payIn("2030-07-01T12:00:00Z", "10")]);
  const range = { from: new Date("2030-07-05T00:00:00Z"), to: new Date("2030-07-08T00:00:00Z"), tz: "UTC" };
  // Just before the second ledger read (whichever client runs it: the pool's or a snapshot's), another
  // connection commits a late pay-in of 1 July (before the range) and one of 6 July (inside it).
  const db = getDb() as unknown as { $queryRaw: Raw };
  const original = db.$queryRaw;
  let reads = 0;
  db.$queryRaw = async function (this: unknown, ...args: unknown[]) {
    if (++reads === 2)
      await insertOperations([payIn("2030-07-01T13:00:00Z", "100"), payIn("2030-07-06T09:00:00Z", "1000")]);
    return original.apply(this, args);
  };
  let closings;
  try {
    closings = await dailyClosings(range);
  } finally {
    db.$queryRaw = original;
  }
  expect(reads).toBeGreaterThanOrEqual(2);
  expect((await ledgerBalanceBefore(range.to)).available.toFixed(4)).toBe("1110.0000");
  // Before both commits or after both: never the 6 July pay-in without the 1 July one (1010).
  expect([
    ["10.0000", "10.0000", "10.0000"],
    ["110.0000", "1110.0000", "1110.0000"],
  ]).toContainEqual(closings.map((c) => c.available));
}, 60_000);
