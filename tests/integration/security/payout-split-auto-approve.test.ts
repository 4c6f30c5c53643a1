// Security review, finding 7: splitting a pay-out under the auto-approve limit. Auto-approval now counts
// the recipient's open pay-outs and those sent in the last 24 h, creation is serialised per recipient, and the duplicate
// guard flags near-duplicates (same recipient, amount within a tolerance) like exact ones.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { cancelPayout, decide } from "@/lib/payouts/approvals";
import { freshCard } from "../../support/cards";
import type { PayoutRules } from "@/lib/payouts/policy";
import { createPayoutRequest } from "@/lib/payouts/requests";
import { payoutFormSchema, type PayoutForm } from "@/lib/payouts/schemas";
import { forgetCachedSettings, getSettings, saveSetting } from "@/lib/settings/settings";
import { isolateDatabase } from "../../support/database";
import { createStaff, insertOperations } from "../../support/mirror";
import type { StaffActor } from "@/lib/audit/log";

const db = () => getDb();
let restore: () => Promise<void>;
const staff = {} as Record<"maker" | "approver" | "admin", StaffActor>;

// The rules under test, given explicitly (the settings table is read only where a test says so).
const splitRules: PayoutRules = {
  autoApproveBelow: "1000",
  twoApprovalsAbove: null,
  autoApproveRecipientDailySum: null,
  nearDuplicateTolerancePercent: null,
};

beforeAll(async () => {
  // settings are one table per database: this file changes them, so it works on a database of its own
  restore = await isolateDatabase();
  forgetCachedSettings();
  for (const [key, role] of [
    ["maker", "finance"],
    ["approver", "approver"],
    ["admin", "admin"],
  ] as const) {
    const u = await createStaff(role);
    staff[key] = { id: u.id, email: u.email, role };
  }
});
afterAll(async () => {
  forgetCachedSettings();
  await restore();
});

function form(
  recipientNumber: string,
  amount: string,
  extra: Partial<Record<string, string>> = {},
): PayoutForm {
  return payoutFormSchema.parse({
    paymentMethod: "toCard",
    bankName: "Сбербанк",
    recipientNumber,
    recipientName: "Ivan Petrov",
    amount,
    clientID: `client-${randomUUID()}`,
    clientIP: "85.143.12.7",
    clientDateCreated: "2023-04-17",
    ...extra,
  });
}

async function create(f: PayoutForm, rules: Partial<PayoutRules> = splitRules, who = staff.maker) {
  const created = await createPayoutRequest(f, who, { thresholds: rules });
  if (!created.ok) throw new Error(`not created: ${created.code} ${created.message}`);
  return created;
}

async function createEntry(id: string) {
  return db().auditLog.findFirstOrThrow({ where: { targetId: id, action: "payout.create" } });
}

describe("auto-approval counts the recipient's open pay-outs and those sent in the last 24 h", () => {
  it("the split attack: five pay-outs of 999.95-999.99 to one card, auto-approve below 1000: only the first goes without an approver, and the audit says why", async () => {
    const card = freshCard();
    const results = [];
    for (const amount of ["999.95", "999.96", "999.97", "999.98", "999.99"])
      results.push(await create(form(card, amount)));

    expect(results.map((r) => r.status)).toEqual([
      "approved",
      "awaiting_approval",
      "awaiting_approval",
      "awaiting_approval",
      "awaiting_approval",
    ]);
    expect(results.map((r) => r.requiredApprovals)).toEqual([0, 1, 1, 1, 1]);
    for (const r of results.slice(1)) {
      expect(await db().auditLog.count({ where: { targetId: r.id, action: "payout.auto_approve" } })).toBe(0);
    }

    const second = await createEntry(results[1]!.id);
    expect(second.after).toMatchObject({
      status: "awaiting_approval",
      requiredApprovals: 1,
      recipientWindow: { hours: 24, sumBefore: "999.95", limit: "1000" },
    });
    const reason = (second.after as { approvalReason?: unknown }).approvalReason;
    expect(reason).toMatch(/recipient/);
    expect(reason).toMatch(/24 h/);
    expect(reason).toMatch(/999\.95/);
    const fifth = await createEntry(results[4]!.id);
    expect(fifth.after).toMatchObject({ recipientWindow: { sumBefore: "3999.86", limit: "1000" } });
    const first = await createEntry(results[0]!.id);
    expect(first.after).toMatchObject({ status: "approved", recipientWindow: { sumBefore: "0" } });
  });

  it("the same card through another pay-out method (a mono-bank pair) is the same recipient", async () => {
    const card = freshCard();
    expect((await create(form(card, "999.95"))).status).toBe("approved");
    const other = await create(form(card, "999.90", { paymentMethod: "sber_sber" }));
    expect(other).toMatchObject({ status: "awaiting_approval", requiredApprovals: 1 });
  });

  it("control: the same amounts to different recipients are each auto-approved", async () => {
    const results = [];
    for (const amount of ["999.95", "999.96", "999.97", "999.98", "999.99"])
      results.push(await create(form(freshCard(), amount)));
    expect(results.every((r) => r.status === "approved" && r.requiredApprovals === 0)).toBe(true);
  });

  it("boundary: reaching exactly the limit needs an approver, one hundredth below does not", async () => {
    const below = freshCard();
    expect((await create(form(below, "500"))).status).toBe("approved");
    expect((await create(form(below, "499.99"))).status).toBe("approved"); // 999.99 < 1000

    const at = freshCard();
    expect((await create(form(at, "600"))).status).toBe("approved");
    const reaching = await create(form(at, "400")); // 600 + 400 = 1000, which is not below 1000
    expect(reaching).toMatchObject({ status: "awaiting_approval", requiredApprovals: 1 });

    const fine = freshCard();
    expect((await create(form(fine, "600"))).status).toBe("approved");
    expect((await create(form(fine, "399.9999"))).status).toBe("approved"); // 999.9999
    expect((await create(form(fine, "0.0001"))).status).toBe("awaiting_approval"); // 1000.0000
  });

  it("a separate daily sum per recipient (autoApproveRecipientDailySum) allows several small pay-outs up to it", async () => {
    const rules = { ...splitRules, autoApproveRecipientDailySum: "3000" };
    const card = freshCard();
    const statuses = [];
    for (const amount of ["999.01", "999.02", "999.03", "999.04"])
      statuses.push((await create(form(card, amount), rules)).status);
    // 999.01 + 999.02 + 999.03 = 2997.06 < 3000; the fourth would bring it to 3996.10
    expect(statuses).toEqual(["approved", "approved", "approved", "awaiting_approval"]);
    // and the per pay-out limit still holds on its own
    expect((await create(form(freshCard(), "1000"), rules)).status).toBe("awaiting_approval");
  });

  it("what counts: open and sent pay-outs of the last 24 h; not rejected, cancelled, failed or older ones", async () => {
    const card = freshCard();
    const noAuto = { ...splitRules, autoApproveBelow: null };
    const rejected = await create(form(card, "900.01"), noAuto);
    expect(await decide(rejected.id, "reject", "no", staff.approver)).toMatchObject({ status: "rejected" });
    const cancelled = await create(form(card, "900.02"), noAuto);
    expect(await cancelPayout(cancelled.id, staff.maker)).toMatchObject({ ok: true });
    const failed = await create(form(card, "900.03"), noAuto);
    await db().payoutRequest.update({ where: { id: failed.id }, data: { status: "failed_to_submit" } });
    const failedOnPlatform = await create(form(card, "900.05"), noAuto);
    const [operationId] = await insertOperations([
      { dateAdded: new Date(), typeOperation: "payOut", status: "failed", amount: "900.05" },
    ]);
    await db().payoutRequest.update({
      where: { id: failedOnPlatform.id },
      data: { status: "submitted", operationId },
    });
    const old = await create(form(card, "900.04"), noAuto);
    await db()
      .$executeRaw`UPDATE "PayoutRequest" SET "createdAt" = now() - interval '25 hours', status = 'submitted' WHERE id = ${old.id}::uuid`;

    expect((await create(form(card, "500"))).status).toBe("approved"); // counts from here on
    expect((await create(form(card, "499.99"))).status).toBe("approved"); // 999.99
    const awaiting = await create(form(card, "0.01")); // 1000.00: an approver
    expect(awaiting.status).toBe("awaiting_approval");
    // an awaiting request counts too, so a later small one still waits
    expect((await create(form(card, "0.02"))).status).toBe("awaiting_approval");
  });

  it("concurrent creation of splits to one card: at most one is auto-approved", async () => {
    for (let round = 0; round < 3; round++) {
      const card = freshCard();
      const created = await Promise.all(
        ["600.01", "600.02", "600.03", "600.04"].map((amount) =>
          createPayoutRequest(form(card, amount), staff.maker, { thresholds: splitRules }),
        ),
      );
      expect(created.every((c) => c.ok)).toBe(true);
      const statuses = await db().payoutRequest.findMany({
        where: { recipientNumber: card },
        select: { status: true },
      });
      expect(statuses.filter((s) => s.status === "approved")).toHaveLength(1);
      expect(statuses.filter((s) => s.status === "awaiting_approval")).toHaveLength(3);
    }
  });

  it("the limits come from the settings when none are passed", async () => {
    const admin = { id: staff.admin.id, email: staff.admin.email, ip: null };
    expect(await saveSetting(admin, "autoApproveBelow", "1000")).toMatchObject({ ok: true });
    expect(await saveSetting(admin, "nearDuplicateTolerancePercent", null)).toMatchObject({ ok: true });
    try {
      const card = freshCard();
      const first = await createPayoutRequest(form(card, "999.95"), staff.maker);
      const second = await createPayoutRequest(form(card, "999.96"), staff.maker);
      expect(first).toMatchObject({ ok: true, status: "approved" });
      expect(second).toMatchObject({ ok: true, status: "awaiting_approval" });
    } finally {
      await saveSetting(admin, "autoApproveBelow", null);
      await db().setting.deleteMany({ where: { key: "nearDuplicateTolerancePercent" } });
      forgetCachedSettings();
    }
  });
});

describe("near-duplicates in the duplicate guard", () => {
  it("a pay-out to the same recipient within the tolerance (default 1 %) is blocked like a duplicate; an admin overrides it with a reason, and it still needs an approver", async () => {
    expect((await getSettings()).nearDuplicateTolerancePercent).toBe("1");
    const card = freshCard();
    const withDefaults = { autoApproveBelow: "1000", twoApprovalsAbove: null };
    expect((await create(form(card, "999.95"), withDefaults)).status).toBe("approved");

    const second = await createPayoutRequest(form(card, "999.96"), staff.maker, { thresholds: withDefaults });
    expect(second).toMatchObject({ ok: false, code: "duplicate", canOverride: false });
    if (second.ok || second.code !== "duplicate") throw new Error("expected a duplicate");
    expect(second.message).toMatch(/999\.95/);
    expect(second.message).toMatch(/1 %/);
    expect(second.duplicates).toEqual([expect.objectContaining({ kind: "near", amount: "999.95" })]);
    expect(await db().payoutRequest.count({ where: { recipientNumber: card } })).toBe(1);

    const adminTry = await createPayoutRequest(form(card, "999.96"), staff.admin, {
      thresholds: withDefaults,
    });
    expect(adminTry).toMatchObject({ ok: false, code: "duplicate", canOverride: true });
    const overridden = await create(
      form(card, "999.96", { overrideReason: "Two invoices, checked with the client" }),
      withDefaults,
      staff.admin,
    );
    expect(overridden).toMatchObject({ status: "awaiting_approval", requiredApprovals: 1 });
    const entry = await db().auditLog.findFirstOrThrow({
      where: { targetId: overridden.id, action: "payout.duplicate_override" },
    });
    expect(JSON.stringify(entry.after)).toContain('"kind":"near"');
  });

  it("outside the tolerance or the 24 h window it is not a near-duplicate", async () => {
    const rules = { ...splitRules, autoApproveBelow: null, nearDuplicateTolerancePercent: "1" };
    const card = freshCard();
    const base = await create(form(card, "5000"), rules);
    // the tolerance is a share of the new pay-out's amount: 1 % of 5050 is 50.50, of 4950.5 is 49.505
    for (const near of ["5050", "4950.5"]) {
      expect(await createPayoutRequest(form(card, near), staff.maker, { thresholds: rules })).toMatchObject({
        ok: false,
        code: "duplicate",
      });
    }
    expect((await create(form(card, "5051"), rules)).status).toBe("awaiting_approval");
    expect((await create(form(card, "4949"), rules)).status).toBe("awaiting_approval");

    const other = freshCard();
    const earlier = await create(form(other, "7000"), rules);
    await db()
      .$executeRaw`UPDATE "PayoutRequest" SET "createdAt" = now() - interval '25 hours', status = 'submitted' WHERE id = ${earlier.id}::uuid`;
    expect((await create(form(other, "7000.5"), rules)).status).toBe("awaiting_approval");
    expect(base.status).toBe("awaiting_approval");
  });

  it("a rejected pay-out is no near-duplicate; an awaiting one is", async () => {
    const rules = { ...splitRules, autoApproveBelow: null, nearDuplicateTolerancePercent: "1" };
    const card = freshCard();
    const first = await create(form(card, "2000"), rules);
    await decide(first.id, "reject", "wrong amount", staff.approver);
    expect((await create(form(card, "2000.5"), rules)).status).toBe("awaiting_approval");
    // while the new one, still awaiting approval, is one
    expect(await createPayoutRequest(form(card, "2000.7"), staff.maker, { thresholds: rules })).toMatchObject(
      { ok: false, code: "duplicate" },
    );
  });

  it("the tolerance setting is validated", async () => {
    const admin = { id: staff.admin.id, email: staff.admin.email, ip: null };
    for (const bad of ["0", "-1", "1e1", "101", "1.123", "abc", ""]) {
      expect(await saveSetting(admin, "nearDuplicateTolerancePercent", bad)).toMatchObject({
        ok: false,
        code: "invalid",
      });
    }
    for (const bad of ["0", "1e3", "10.12345"]) {
      expect(await saveSetting(admin, "autoApproveRecipientDailySum", bad)).toMatchObject({
        ok: false,
        code: "invalid",
      });
    }
    expect(await saveSetting(admin, "nearDuplicateTolerancePercent", "2.5")).toMatchObject({
      ok: true,
      value: "2.5",
    });
    expect(await saveSetting(admin, "autoApproveRecipientDailySum", "5000")).toMatchObject({ ok: true });
    await db().setting.deleteMany({
      where: { key: { in: ["nearDuplicateTolerancePercent", "autoApproveRecipientDailySum"] } },
    });
    forgetCachedSettings();
  });
});
