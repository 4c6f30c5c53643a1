// Resolving a balance difference while the balance proof books a movement: the proof and a person's
// decision take one lock, the decision applies to the amount the person saw, and a movement is never
// added to an item once it is resolved: new money is always under an item still open.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Actor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { getDatabaseUrl } from "@/lib/env";
import type { Prisma } from "@/lib/generated/prisma/client";
import {
  bookUnexplainedDifference,
  lockBalanceProof,
  openBalanceDifferences,
} from "@/lib/ledger/balance-drift";
import { Decimal } from "@/lib/money/decimal";
import { decideDrift } from "@/lib/reconcile/drift-actions";
import { isolateDatabase } from "../../support/database";
import { createStaff } from "../../support/mirror";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.31" }),
}));

let restore: () => Promise<void>;
let actor: Actor;
beforeAll(async () => {
  restore = await isolateDatabase();
  const finance = await createStaff("finance");
  actor = { id: finance.id, email: finance.email, role: "finance", ip: null };
  session.current = { userId: finance.id, sessionVersion: 0 };
});
afterAll(async () => restore());

const db = () => getDb();
const movement = (amount: string, currency: string) => ({
  windowFrom: null,
  windowTo: new Date(),
  amount: new Decimal(amount),
  currency,
});

/** What the balance proof does for one unexplained part: under its lock, in one transaction. */
const book = (
  amount: string,
  currency: string,
  tx?: (tx: Prisma.TransactionClient) => Prisma.TransactionClient,
) =>
  db().$transaction(async (t) => {
    await lockBalanceProof(t);
    await bookUnexplainedDifference(tx ? tx(t) : t, movement(amount, currency), new Date());
  });

/**
 * The transaction seen by bookUnexplainedDifference, paused once it has read the open item: what another
 * session does meanwhile lands between the proof's read and its write.
 */
function pausedAfterRead() {
  let read!: () => void;
  let release!: () => void;
  const hasRead = new Promise<void>((r) => (read = r));
  const gate = new Promise<void>((r) => (release = r));
  const bound = <T extends object>(target: T, key: string | symbol) => {
    const value = (target as Record<string | symbol, unknown>)[key];
    return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
  };
  const wrap = (tx: Prisma.TransactionClient) => {
    const driftItem = new Proxy(tx.driftItem, {
      get: (target, key) =>
        key === "findFirst"
          ? async (args: Parameters<typeof target.findFirst>[0]) => {
              const found = await target.findFirst(args);
              read();
              await gate;
              return found;
            }
          : bound(target, key),
    });
    return new Proxy(tx, {
      get: (target, key) => (key === "driftItem" ? driftItem : bound(target, key)),
    });
  };
  return { wrap, hasRead, release };
}

const items = (currency: string) =>
  db().driftItem.findMany({
    where: { kind: "balanceDifference", currency },
    orderBy: { createdAt: "asc" },
    select: { id: true, state: true, amount: true },
  });
const shown = async (currency: string) => (await items(currency)).map((i) => [i.state, i.amount?.toFixed(4)]);

describe("a balance difference resolved while the proof books a movement", () => {
  it("a resolution waits for the proof; it refuses an amount that changed since the page showed it", async () => {
    await book("5.25", "USDT");
    const [item] = await items("USDT");
    const paused = pausedAfterRead();
    const proof = book("2", "USDT", paused.wrap);
    await paused.hasRead;
    // Finance resolves the 5.25 the page shows while the proof is between its read and its write.
    const decision = decideDrift(actor, item!.id, "resolve", "top-up of 5.25 confirmed", {
      amount: "5.2500",
    });
    // Until it is done, or long enough to see that it waits for the proof.
    await Promise.race([decision, new Promise((r) => setTimeout(r, 1_500))]);
    paused.release();
    await proof;
    const decided = await decision;
    // The 2 moved meanwhile is not hidden under a resolved item: the item is still open, with it.
    expect((await openBalanceDifferences()).map((d) => [d.currency, d.amount])).toEqual([["USDT", "7.2500"]]);
    expect(decided).toMatchObject({ ok: false, code: "not_allowed" });
    expect(await shown("USDT")).toEqual([["open", "7.2500"]]);

    // Resolved for the amount now shown, audited with it.
    expect(
      await decideDrift(actor, item!.id, "resolve", "top-ups of 5.25 and 2 confirmed", { amount: "7.25" }),
    ).toMatchObject({ ok: true, state: "resolved" });
    const entry = await db().auditLog.findFirstOrThrow({
      where: { action: "drift.resolve", targetId: item!.id },
    });
    expect([entry.before, entry.after]).toEqual([
      { state: "open", note: null, amount: "7.2500", currency: "USDT" },
      { state: "resolved", note: "top-ups of 5.25 and 2 confirmed", amount: "7.2500", currency: "USDT" },
    ]);
    // The next movement opens a new item.
    await book("1", "USDT");
    expect(await shown("USDT")).toEqual([
      ["resolved", "7.2500"],
      ["open", "1.0000"],
    ]);
  });

  it("an item resolved between the proof's read and its write is left as it was: the movement opens a new item", async () => {
    await book("1", "EUR");
    const [item] = await items("EUR");
    const paused = pausedAfterRead();
    const proof = book("2", "EUR", paused.wrap);
    await paused.hasRead;
    // resolved by a path that does not wait for the proof's lock
    await db().driftItem.update({
      where: { id: item!.id },
      data: { state: "resolved", resolvedAt: new Date() },
    });
    paused.release();
    await proof;
    expect(await shown("EUR")).toEqual([
      ["resolved", "1.0000"],
      ["open", "2.0000"],
    ]);
    const [, opened] = await items("EUR");
    expect(
      (
        await db().outsideMovement.findMany({ where: { currency: "EUR" }, orderBy: { createdAt: "asc" } })
      ).map((m) => [m.amount.toFixed(4), m.driftItemId]),
    ).toEqual([
      ["1.0000", item!.id],
      ["2.0000", opened!.id],
    ]);
  });

  it("a decision while the proof holds its lock past the wait is refused as busy, in words, with nothing changed", async () => {
    await book("4", "GBP");
    const [item] = await items("GBP");
    // The proof's lock held by another session (as a long settleComparisons holds it): a session lock
    // and the proof's transaction lock on the same key exclude each other.
    const holder = new pg.Client({ connectionString: getDatabaseUrl() });
    await holder.connect();
    try {
      await holder.query("SELECT pg_advisory_lock(7370011)");
      expect(await decideDrift(actor, item!.id, "resolve", "top-up of 4 confirmed", { amount: "4" })).toEqual(
        {
          ok: false,
          code: "busy",
          message: "The balance proof is running; try again in a minute.",
        },
      );
    } finally {
      await holder.end(); // ends the session, which releases the lock
    }
    expect(await shown("GBP")).toEqual([["open", "4.0000"]]);
    expect(await db().auditLog.count({ where: { targetId: item!.id } })).toBe(0);
    // Once the proof is done, the same decision goes through.
    expect(
      await decideDrift(actor, item!.id, "resolve", "top-up of 4 confirmed", { amount: "4" }),
    ).toMatchObject({ ok: true, state: "resolved" });
  });

  it("the page's form sends the amount it showed; a resolution without it, or with another, is refused", async () => {
    const { decideDriftAction } = await import("@/lib/actions/reconcile");
    await book("3", "RUB");
    const [item] = await items("RUB");
    const note = "withdrawal confirmed by the bank";
    expect(await decideDriftAction({ id: item!.id, decision: "resolve", note })).toMatchObject({
      ok: false,
      code: "not_allowed",
    });
    expect(await decideDriftAction({ id: item!.id, decision: "resolve", note, amount: "3.5" })).toMatchObject(
      {
        ok: false,
        code: "not_allowed",
      },
    );
    expect(await decideDriftAction({ id: item!.id, decision: "resolve", note, amount: "1e3" })).toMatchObject(
      {
        ok: false,
        code: "invalid",
      },
    );
    expect(await shown("RUB")).toEqual([["open", "3.0000"]]);
    expect(
      await decideDriftAction({ id: item!.id, decision: "acknowledge", note, amount: "3.0000" }),
    ).toMatchObject({ ok: true, state: "acknowledged" });
    expect(await decideDriftAction({ id: item!.id, decision: "resolve", note, amount: "3" })).toMatchObject({
      ok: true,
      state: "resolved",
    });
  });
});
