// Every status write of a pay-out request goes through moveRequest, built on the transitions table:
// walks every (from, to) pair against the database. Legal moves move (and write the other columns given
// with them), illegal ones throw IllegalTransitionError and change nothing, and a move from a status the
// request is no longer in is a lost race: false, nothing written.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { moveRequest } from "@/lib/payouts/move";
import { IllegalTransitionError, PAYOUT_STATUSES, type PayoutRequestStatus } from "@/lib/payouts/state";
import { createStaff } from "../../support/mirror";
import { storedPayoutRequest } from "../../support/payouts";

const db = getDb();
let id: string;

// The documented moves, written out (not read from the table under test).
const LEGAL = new Set([
  "draft->awaiting_approval",
  "draft->approved",
  "draft->cancelled",
  "awaiting_approval->approved",
  "awaiting_approval->rejected",
  "awaiting_approval->cancelled",
  "approved->submitting",
  "approved->cancelled",
  "submitting->submitted",
  "submitting->failed_to_submit",
]);

const pairs = PAYOUT_STATUSES.flatMap((from) => PAYOUT_STATUSES.map((to) => [from, to] as const));
const legalPairs = pairs.filter(([from, to]) => LEGAL.has(`${from}->${to}`));
const illegalPairs = pairs.filter(([from, to]) => !LEGAL.has(`${from}->${to}`));

beforeAll(async () => {
  const maker = await createStaff("finance");
  const row = await storedPayoutRequest(maker.id, {
    status: "draft",
    recipientNumber: "2200700012345675",
    amount: "10.5",
  });
  id = row.id;
});

/** Puts the request in a status (test set-up writes directly) and returns the row as stored. */
async function putIn(status: PayoutRequestStatus) {
  return db.payoutRequest.update({ where: { id }, data: { status, lastMessage: "before" } });
}

/** moveRequest in a transaction of its own, as its callers run it. */
const move = (
  requestId: string,
  from: PayoutRequestStatus,
  to: PayoutRequestStatus,
  data?: { lastMessage: string },
) => db.$transaction((tx) => moveRequest(tx, requestId, from, to, data));

const stored = () =>
  db.payoutRequest.findUniqueOrThrow({
    where: { id },
    select: { status: true, lastMessage: true, updatedAt: true },
  });

describe("the transitions table, walked through moveRequest", () => {
  it("has 64 pairs, 10 of them legal", () => {
    expect(pairs).toHaveLength(64);
    expect(legalPairs).toHaveLength(10);
  });

  it.each(legalPairs)("%s -> %s moves, with the columns given", async (from, to) => {
    await putIn(from);
    expect(await move(id, from, to, { lastMessage: "moved" })).toBe(true);
    expect(await stored()).toMatchObject({ status: to, lastMessage: "moved" });
  });

  it.each(illegalPairs)("%s -> %s throws IllegalTransitionError and writes nothing", async (from, to) => {
    const before = await putIn(from);
    const error = await move(id, from, to, { lastMessage: "moved" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(IllegalTransitionError);
    expect(error).toMatchObject({ from, to });
    expect(await stored()).toEqual({ status: from, lastMessage: "before", updatedAt: before.updatedAt });
  });

  it.each(legalPairs)(
    "%s -> %s from a status the request is no longer in: false, nothing written",
    async (from, to) => {
      const elsewhere = PAYOUT_STATUSES.find((s) => s !== from)!;
      const before = await putIn(elsewhere);
      expect(await move(id, from, to, { lastMessage: "moved" })).toBe(false);
      expect(await stored()).toEqual({
        status: elsewhere,
        lastMessage: "before",
        updatedAt: before.updatedAt,
      });
    },
  );

  it("of ten callers racing for the same move, exactly one moves it", async () => {
    await putIn("approved");
    const results = await Promise.all(Array.from({ length: 10 }, () => move(id, "approved", "submitting")));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await stored()).status).toBe("submitting");
  });

  it("an unknown request does not move", async () => {
    expect(await move(randomUUID(), "draft", "approved")).toBe(false);
  });
});
