// The balance proof compares the platform's figure, read at Paydesk's clock (requestedAt, takenAt), with
// postings dated by the platform's clock (dateUpdated). The two clocks differ a little: a ledger state at
// any posting boundary within PROOF_CLOCK_TOLERANCE_MS of the read explains the figure, so a completion
// the platform dated a few hundred milliseconds on the other side of the read books no movement outside
// operations (nor, at the next read, the opposite one). A difference no such state explains is still
// booked.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getBalanceCached } from "@/lib/balance/cached";
import { getDb } from "@/lib/db";
import { PROOF_CLOCK_TOLERANCE_MS, settleComparisons } from "@/lib/ledger/proof";
import { Decimal } from "@/lib/money/decimal";
import { isolateDatabase } from "../../support/database";
import { insertOperations } from "../../support/mirror";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(async () => restore());
beforeEach(async () => {
  await getDb().operation.deleteMany();
  await getDb().outsideMovement.deleteMany();
  await getDb().driftItem.deleteMany();
  await getDb().balanceComparison.deleteMany();
  await getDb().balanceSnapshot.deleteMany();
});

const GRACE = 10;
const MINUTE = 60_000;

/** A platform whose GET /balance says `amount` USDT. */
const platform = (amount: string) => ({
  getBalance: async () => {
    const balance = {
      amountInCurrencyBalance: new Decimal(amount),
      currencyBalance: "USDT",
      amountInCurrencyPayment: new Decimal("1"),
      currencyPayment: "RUB",
      exchangeRate: new Decimal("95.5"),
    };
    return { balance, balances: [balance], traceID: `t-${amount}` };
  },
});
const readAt = (amount: string, at: Date) => getBalanceCached(platform(amount), {}, () => at);

/** A successful pay-in crediting `amount` USDT, completed at `at` by the platform's clock. */
const payIn = (amount: string, at: Date) =>
  insertOperations([
    {
      dateAdded: new Date(at.getTime() - MINUTE),
      dateUpdated: at,
      status: "success",
      amountInCurrencyBalance: amount,
      amountComissionInCurrencyBalance: "0",
    },
  ]);

const later = (t: Date, ms: number) => new Date(t.getTime() + ms);
const movements = () => getDb().outsideMovement.findMany({ orderBy: { windowTo: "asc" } });
const differences = async () =>
  (await getDb().balanceComparison.findMany({ orderBy: { takenAt: "asc" } })).map((c) =>
    c.difference.toFixed(4),
  );

describe("the balance proof and the two clocks", () => {
  it("is a few seconds, named", () => {
    expect(PROOF_CLOCK_TOLERANCE_MS).toBeGreaterThanOrEqual(1_000);
    expect(PROOF_CLOCK_TOLERANCE_MS).toBeLessThanOrEqual(10_000);
  });

  it.each([
    ["300 ms after the read (the platform's clock ahead)", 300],
    ["300 ms before the read (the platform's clock behind)", -300],
    ["2 s after the read", 2_000],
  ])("a mirrored completion dated %s books nothing, at either read", async (_case, offsetMs) => {
    const read1 = new Date("2030-02-01T10:00:00.000Z");
    await payIn("50", later(read1, offsetMs));
    // In the platform's figure when dated after the read (it happened before, by our clock); not yet when
    // dated before (it happened after).
    await readAt(offsetMs > 0 ? "50" : "0", read1);
    expect(await settleComparisons(GRACE, later(read1, 15 * MINUTE))).toBe(0);
    const read2 = later(read1, 20 * MINUTE);
    await readAt("50", read2);
    expect(await settleComparisons(GRACE, later(read2, 15 * MINUTE))).toBe(0);
    expect(await movements()).toEqual([]);
    expect(await differences()).toEqual(["0.0000", "0.0000"]);
  });

  it("a difference no ledger state near the read explains is still booked", async () => {
    const read1 = new Date("2030-02-03T10:00:00.000Z");
    await payIn("50", later(read1, 300));
    // 7 more than the ledger ever had around the read: a top-up outside operations.
    await readAt("57", read1);
    expect(await settleComparisons(GRACE, later(read1, 15 * MINUTE))).toBe(1);
    expect((await movements()).map((m) => [m.amount.toFixed(4), m.windowTo.toISOString()])).toEqual([
      ["7.0000", read1.toISOString()],
    ]);
    // From then on the ledger and the platform agree.
    const read2 = later(read1, 20 * MINUTE);
    await readAt("57", read2);
    expect(await settleComparisons(GRACE, later(read2, 15 * MINUTE))).toBe(0);
    expect(await movements()).toHaveLength(1);
  });

  it("a completion dated well past the margin is not taken as in the figure", async () => {
    const read1 = new Date("2030-02-04T10:00:00.000Z");
    await payIn("50", later(read1, PROOF_CLOCK_TOLERANCE_MS + 60_000));
    await readAt("50", read1);
    expect(await differences()).toEqual(["50.0000"]);
  });
});
