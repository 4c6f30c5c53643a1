// Annotating a movement outside operations resolves its balance difference under the balance proof's
// lock, which settling may hold far longer than the annotating transaction may last (lib/db.ts). The
// annotation waits a bounded time (PROOF_WAIT_MS) and then answers `busy`, worded for the person, with
// nothing written: never Prisma's raw "expired transaction" error, nor a wait as long as the proof's.
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cliActor } from "@/lib/audit/log";
import { translatorFor } from "@/lib/auth/translator";
import { getDb } from "@/lib/db";
import { getDatabaseUrl } from "@/lib/env";
import { PROOF_WAIT_MS, bookUnexplainedDifference } from "@/lib/ledger/balance-drift";
import { Decimal } from "@/lib/money/decimal";
import { annotateMovement } from "@/lib/statements/annotate";
import { isolateDatabase } from "../../support/database";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(async () => restore());

/**
 * Another session holding the proof's lock, as a long settleComparisons does; released by the function
 * returned, or after `ms` at the latest (its session ends, and the lock with it).
 */
async function holdProof(ms: number): Promise<() => Promise<void>> {
  const holder = new pg.Client({ connectionString: getDatabaseUrl() });
  await holder.connect();
  await holder.query("SELECT pg_advisory_lock(7370011)");
  let ended: Promise<void> | null = null;
  const release = () => (ended ??= holder.end());
  const timer = setTimeout(() => void release(), ms);
  return async () => {
    clearTimeout(timer);
    await release();
  };
}

it("answers busy, in words, after a bounded wait and writes nothing; annotates once the proof is done", async () => {
  await getDb().$transaction((tx) =>
    bookUnexplainedDifference(
      tx,
      {
        windowFrom: null,
        windowTo: new Date("2030-03-01T00:00:00Z"),
        amount: new Decimal("5"),
        currency: "USDT",
      },
      new Date(),
    ),
  );
  const movement = await getDb().outsideMovement.findFirstOrThrow();
  const input = { id: movement.id, kind: "topUp" as const, reference: "TX-1", note: null };

  // Held longer than the annotation waits, shorter than the annotating transaction lasts (30 s).
  const release = await holdProof(20_000);
  const started = Date.now();
  const outcome = await annotateMovement(cliActor, input).catch((e: unknown) => ({ threw: String(e) }));
  const waited = Date.now() - started;
  await release();

  const t = await translatorFor("balance");
  expect(outcome).toEqual({ ok: false, code: "busy", message: t("movements.proofBusy") });
  expect(waited).toBeGreaterThanOrEqual(PROOF_WAIT_MS - 500);
  expect(waited).toBeLessThan(PROOF_WAIT_MS + 5_000);
  expect(await getDb().outsideMovement.findUniqueOrThrow({ where: { id: movement.id } })).toMatchObject({
    kind: null,
    reference: null,
    annotatedAt: null,
  });
  expect(await getDb().driftItem.findMany({ select: { state: true } })).toEqual([{ state: "open" }]);
  expect(await getDb().auditLog.count({ where: { action: "balance.annotateMovement" } })).toBe(0);

  // The proof done: the same annotation goes through and explains the item.
  expect(await annotateMovement(cliActor, input)).toEqual({ ok: true, id: movement.id });
  expect(await getDb().outsideMovement.findUniqueOrThrow({ where: { id: movement.id } })).toMatchObject({
    kind: "topUp",
    reference: "TX-1",
  });
  expect(await getDb().driftItem.findMany({ select: { state: true } })).toEqual([{ state: "resolved" }]);
}, 60_000);

it("a movement under no balance difference is annotated without the proof's lock", async () => {
  const movement = await getDb().outsideMovement.create({
    data: { windowTo: new Date("2030-03-02T00:00:00Z"), amount: "1", currency: "USDT" },
  });
  const release = await holdProof(20_000);
  const started = Date.now();
  const outcome = await annotateMovement(cliActor, {
    id: movement.id,
    kind: "adjustment",
    reference: null,
    note: null,
  });
  const waited = Date.now() - started;
  await release();
  expect(outcome).toEqual({ ok: true, id: movement.id });
  expect(waited).toBeLessThan(2_000);
}, 60_000);
