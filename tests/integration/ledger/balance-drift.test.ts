// A difference between the platform's balance and the ledger that lasts longer than the allowed time
// opens one drift item (kind balanceDifference), listed on the home page and the reconciliation page,
// and resolved once the difference is accounted for. The sandbox's control credits move the balance
// outside operations.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cliActor } from "@/lib/audit/log";
import { getBalanceCached } from "@/lib/balance/cached";
import { getDb } from "@/lib/db";
import { proofAttention, proofStatus, settleComparisons } from "@/lib/ledger/proof";
import { listDrift } from "@/lib/reconcile/queries";
import { runReconciliation } from "@/lib/reconcile/run";
import { annotateMovement } from "@/lib/statements/annotate";
import type { Sandbox } from "../../../sandbox/index";
import { isolateDatabase } from "../../support/database";
import { createStaff } from "../../support/mirror";
import { pageText } from "../../support/page-text";
import { clientFor, control, startSandbox } from "../../support/sandbox";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.32" }),
}));

let restore: () => Promise<void>;
let sandbox: Sandbox;
beforeAll(async () => {
  restore = await isolateDatabase();
  sandbox = await startSandbox({ seedDemoHistory: false });
}, 60_000);
afterAll(async () => {
  await sandbox.stop();
  await restore();
});

const GRACE = 10;
const MINUTE = 60_000;
const later = (t: Date, minutes: number) => new Date(t.getTime() + minutes * MINUTE);

async function readBalance(at: Date) {
  const { platform } = clientFor(sandbox, "other");
  // Past the 5-second cache: every read asks the platform and records a comparison.
  return getBalanceCached(platform, {}, () => at);
}

const credit = (amount: string) =>
  control(sandbox, "POST", "/merchants/other/balance", { amount, note: "outside operations" });
const balanceItems = () =>
  getDb().driftItem.findMany({ where: { kind: "balanceDifference" }, orderBy: { createdAt: "asc" } });

describe("a lasting balance difference as a drift item", () => {
  it("opens one item per lasting difference, lists it, and resolves it when accounted for", async () => {
    await control(sandbox, "POST", "/reset");
    await control(sandbox, "POST", "/seed", { merchant: "other", count: 20, days: 5, seed: 7 });
    const { platform } = clientFor(sandbox, "other");
    await runReconciliation({ kind: "full", platform });
    const t0 = new Date(Date.now() + 1_000);
    await readBalance(t0);
    expect(await settleComparisons(GRACE, later(t0, 11))).toBe(0);

    // A short difference: operations the mirror has not seen yet, mirrored within the allowed time.
    await control(sandbox, "POST", "/seed", { merchant: "other", count: 8, days: 5, seed: 11 });
    const t1 = later(t0, 12);
    await readBalance(t1);
    expect((await proofStatus()).state).toBe("differs");
    await runReconciliation({ kind: "full", platform });
    await readBalance(later(t1, 1));
    expect((await proofStatus()).state).toBe("matches");
    expect(await settleComparisons(GRACE, later(t1, 12))).toBe(0);
    expect(await balanceItems()).toEqual([]);

    // A lasting one: money credited outside operations.
    await credit("5.25");
    const t2 = later(t1, 13);
    await readBalance(t2);
    const currency = (await proofStatus()) as { currency: string };
    expect(await settleComparisons(GRACE, later(t2, 1))).toBe(0);
    expect(await balanceItems()).toEqual([]);
    expect(await settleComparisons(GRACE, later(t2, 11))).toBe(1);
    let items = await balanceItems();
    expect(
      items.map((i) => [i.state, i.amount?.toFixed(4), i.currency, i.differsSince?.toISOString()]),
    ).toEqual([["open", "5.2500", currency.currency, t2.toISOString()]]);
    expect(items[0]!.runId).toBeNull();
    expect(items[0]!.operationId).toBeNull();

    // Settling again and further reads do not open another; more money moved while it is open adds to it.
    expect(await settleComparisons(GRACE, later(t2, 11))).toBe(0);
    const t3 = later(t2, 12);
    await readBalance(t3);
    expect(await settleComparisons(GRACE, later(t3, 11))).toBe(0);
    await credit("1.75");
    const t4 = later(t3, 12);
    await readBalance(t4);
    await readBalance(later(t4, 1));
    expect(await settleComparisons(GRACE, later(t4, 12))).toBe(1);
    items = await balanceItems();
    expect(items.map((i) => [i.state, i.amount?.toFixed(4), i.differsSince?.toISOString()])).toEqual([
      ["open", "7.0000", t2.toISOString()],
    ]);

    // The home page and the reconciliation page list it.
    const attention = await proofAttention();
    expect(attention.differences).toEqual([
      { id: items[0]!.id, amount: "7.0000", currency: currency.currency, since: t2.toISOString() },
    ]);
    expect(attention.unannotatedMovements).toBe(2);
    const open = await listDrift({ state: "open", page: 1 });
    // (the second reconciliation found the operations the mirror had missed: drift items of their own)
    expect(open.rows.filter((r) => r.balance).map((r) => [r.kind, r.balance])).toEqual([
      ["balanceDifference", { amount: "7.0000", currency: currency.currency, since: t2.toISOString() }],
    ]);

    // The platform comes back to what the operations explain: resolved, nobody had to.
    await credit("-7");
    const t5 = later(t4, 13);
    await readBalance(t5);
    expect(await settleComparisons(GRACE, later(t5, 11))).toBe(1);
    items = await balanceItems();
    expect(items.map((i) => [i.state, i.amount?.toFixed(4), i.resolvedById])).toEqual([
      ["resolved", "0.0000", null],
    ]);
    expect(items[0]!.resolvedAt?.toISOString()).toBe(later(t5, 11).toISOString());
    expect((await proofAttention()).differences).toEqual([]);

    // A new difference opens a new item; finance saying what the movement was resolves it.
    await credit("3");
    const t6 = later(t5, 12);
    await readBalance(t6);
    expect(await settleComparisons(GRACE, later(t6, 11))).toBe(1);
    items = await balanceItems();
    expect(items.map((i) => [i.state, i.amount?.toFixed(4)])).toEqual([
      ["resolved", "0.0000"],
      ["open", "3.0000"],
    ]);
    const movement = await getDb().outsideMovement.findFirstOrThrow({ where: { driftItemId: items[1]!.id } });
    expect(
      await annotateMovement(cliActor, { id: movement.id, kind: "topUp", reference: "TX-1", note: null }),
    ).toEqual({ ok: true, id: movement.id });
    items = await balanceItems();
    expect(items.map((i) => i.state)).toEqual(["resolved", "resolved"]);
    expect((await proofAttention()).differences).toEqual([]);
  }, 120_000);

  it("the reconciliation page shows the items in Russian and in English", async () => {
    const { default: Page } = await import("@/app/(console)/reconciliation/page");
    const user = await createStaff("finance");
    session.current = { userId: user.id, sessionVersion: 0 };
    const text = async (locale: "ru" | "en") => {
      await getDb().user.update({ where: { id: user.id }, data: { locale, timeZone: "UTC" } });
      return pageText(await Page({ searchParams: Promise.resolve({ state: "resolved" }) })).join(" | ");
    };
    const ru = await text("ru");
    expect(ru).toContain("баланс расходится с учётом");
    expect(ru).toMatch(/3,0000 USDT с \S/);
    expect(ru).toContain("закрыто автоматически");
    const en = await text("en");
    expect(en).toContain("balance differs from the ledger");
    expect(en).toMatch(/3\.0000 USDT since \S/);
    expect(en).toContain("resolved automatically");
  });
});
