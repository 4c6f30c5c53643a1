// The pay-out policy (lib/payouts/policy.ts): every reason code of each rule, with the expected answer
// written out per role and status (never read back from the permission matrix), then the page and the
// commands giving the same answer for the same request.
import { beforeAll, describe, expect, it, test } from "vitest";
import type { Role } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db";
import { Decimal } from "@/lib/money/decimal";
import { cancelPayout, decide } from "@/lib/payouts/approvals";
import {
  canCancel,
  canDecide,
  canOverrideDuplicate,
  refusalMessage,
  requiredApprovals,
  type PayoutRules,
  type PolicyRefusal,
  type Verdict,
} from "@/lib/payouts/policy";
import { getPayoutDetail } from "@/lib/payouts/queries";
import type { PayoutRequestStatus } from "@/lib/payouts/state";
import { payoutWordsIn } from "../../support/i18n";
import { createStaff } from "../../support/mirror";
import { storedPayoutRequest } from "../../support/payouts";

const ME = "00000000-0000-4000-8000-00000000000a";
const SOMEONE = "00000000-0000-4000-8000-00000000000b";
const me = (role: Role) => ({ id: ME, role });

/** A verdict as the page and the command word it for an English reader (the reason and its sentence). */
function worded(verdict: Verdict<PolicyRefusal>) {
  return verdict.ok
    ? verdict
    : { ok: false, reason: verdict.reason, message: refusalMessage(payoutWordsIn("en").t, verdict) };
}

describe("canDecide", () => {
  const awaiting = { status: "awaiting_approval" as const, makerId: SOMEONE, approvals: [] };

  test.each([
    ["admin", { ok: true }],
    ["approver", { ok: true }],
    ["finance", { ok: false, reason: "forbidden" }],
    ["support", { ok: false, reason: "forbidden" }],
  ] as const)("%s on someone else's request awaiting approval", (role, expected) => {
    expect(canDecide(awaiting, me(role))).toEqual(expected);
  });

  test.each(["admin", "approver"] as const)("own_request: %s never decides on their own request", (role) => {
    expect(canDecide({ ...awaiting, makerId: ME }, me(role))).toEqual({ ok: false, reason: "own_request" });
  });

  it("already_decided: an approver decides once", () => {
    const decided = { ...awaiting, approvals: [{ approverId: SOMEONE }, { approverId: ME }] };
    expect(canDecide(decided, me("approver"))).toEqual({ ok: false, reason: "already_decided" });
  });

  test.each([
    ["draft", "This pay-out is draft; it no longer takes decisions."],
    ["approved", "This pay-out is approved; it no longer takes decisions."],
    ["submitting", "This pay-out is submitting; it no longer takes decisions."],
    ["submitted", "This pay-out is submitted; it no longer takes decisions."],
    ["rejected", "This pay-out is rejected; it no longer takes decisions."],
    ["cancelled", "This pay-out is cancelled; it no longer takes decisions."],
    ["failed_to_submit", "This pay-out is failed to submit; it no longer takes decisions."],
  ] as const)("not_awaiting: a request %s takes no decision", (status, message) => {
    const verdict = canDecide({ ...awaiting, status }, me("approver"));
    expect(verdict).toEqual({ ok: false, reason: "not_awaiting", status });
    expect(!verdict.ok && refusalMessage(payoutWordsIn("en").t, verdict)).toBe(message);
  });

  it("the reasons come in this order: role, maker, earlier decision, status", () => {
    const all = { status: "submitted" as const, makerId: ME, approvals: [{ approverId: ME }] };
    expect(canDecide(all, me("finance"))).toMatchObject({ reason: "forbidden" });
    expect(canDecide(all, me("admin"))).toMatchObject({ reason: "own_request" });
    expect(canDecide({ ...all, makerId: SOMEONE }, me("admin"))).toMatchObject({ reason: "already_decided" });
  });
});

describe("canCancel", () => {
  const open = (status: PayoutRequestStatus, makerId = SOMEONE) => ({ status, makerId });
  const notAllowed = {
    ok: false,
    reason: "not_allowed",
    message: "Only the maker or an admin can cancel this pay-out.",
  };

  test.each([
    ["admin", { ok: true }],
    ["finance", notAllowed],
    ["approver", notAllowed],
    ["support", notAllowed],
  ] as const)("%s on someone else's request awaiting approval", (role, expected) => {
    expect(worded(canCancel(open("awaiting_approval"), me(role)))).toEqual(expected);
  });

  test.each([
    ["admin", { ok: true }],
    ["finance", { ok: true }],
    ["approver", { ok: false, reason: "forbidden", message: "Your role does not allow this." }],
    ["support", { ok: false, reason: "forbidden", message: "Your role does not allow this." }],
  ] as const)("%s as the maker (a role changed since) on their own request", (role, expected) => {
    expect(worded(canCancel(open("awaiting_approval", ME), me(role)))).toEqual(expected);
  });

  test.each([
    ["draft", { ok: true }],
    ["awaiting_approval", { ok: true }],
    ["approved", { ok: true }],
    [
      "submitting",
      {
        ok: false,
        reason: "too_late",
        message: "This pay-out is submitting; only requests not yet sent can be cancelled.",
      },
    ],
    [
      "submitted",
      {
        ok: false,
        reason: "too_late",
        message: "This pay-out is submitted; only requests not yet sent can be cancelled.",
      },
    ],
    [
      "rejected",
      {
        ok: false,
        reason: "too_late",
        message: "This pay-out is rejected; only requests not yet sent can be cancelled.",
      },
    ],
    [
      "cancelled",
      {
        ok: false,
        reason: "too_late",
        message: "This pay-out is cancelled; only requests not yet sent can be cancelled.",
      },
    ],
    [
      "failed_to_submit",
      {
        ok: false,
        reason: "too_late",
        message: "This pay-out is failed to submit; only requests not yet sent can be cancelled.",
      },
    ],
  ] as const)("the maker on their own request %s", (status, expected) => {
    expect(worded(canCancel(open(status, ME), me("finance")))).toEqual(expected);
  });

  it("an admin is held to the status like anyone", () => {
    expect(canCancel(open("submitted"), me("admin"))).toMatchObject({ ok: false, reason: "too_late" });
  });
});

describe("canOverrideDuplicate", () => {
  test.each([
    ["admin", { ok: true }],
    [
      "finance",
      { ok: false, reason: "override_forbidden", message: "Only an admin can override the duplicate block." },
    ],
    [
      "approver",
      { ok: false, reason: "override_forbidden", message: "Only an admin can override the duplicate block." },
    ],
    [
      "support",
      { ok: false, reason: "override_forbidden", message: "Only an admin can override the duplicate block." },
    ],
  ] as const)("%s", (role, expected) => {
    expect(worded(canOverrideDuplicate({ role }))).toEqual(expected);
  });
});

describe("requiredApprovals", () => {
  const rules = (overrides: Partial<PayoutRules> = {}): PayoutRules => ({
    autoApproveBelow: "1000",
    twoApprovalsAbove: "10000",
    autoApproveRecipientDailySum: null,
    nearDuplicateTolerancePercent: null,
    ...overrides,
  });

  it("below_auto_approve_limit: approved at once", () => {
    expect(requiredApprovals("999.99", new Decimal("0"), rules())).toEqual({
      ok: true,
      reason: "below_auto_approve_limit",
      requiredApprovals: 0,
      message: null,
      recipientWindow: { hours: 24, sumBefore: "0", limit: "1000", twoApprovalsLimit: "10000" },
    });
  });

  it("amount_not_below_auto_approve_limit: one approver", () => {
    expect(requiredApprovals("1000", new Decimal("0"), rules())).toEqual({
      ok: false,
      reason: "amount_not_below_auto_approve_limit",
      requiredApprovals: 1,
      message: "The amount is not below the auto-approval limit (1000).",
      recipientWindow: { hours: 24, sumBefore: "0", limit: "1000", twoApprovalsLimit: "10000" },
    });
  });

  it("amount_above_two_approvals_limit: two approvers", () => {
    expect(requiredApprovals("10000.0001", new Decimal("0"), rules())).toEqual({
      ok: false,
      reason: "amount_above_two_approvals_limit",
      requiredApprovals: 2,
      message: "The amount is not below the auto-approval limit (1000).",
      recipientWindow: { hours: 24, sumBefore: "0", limit: "1000", twoApprovalsLimit: "10000" },
    });
  });

  it("auto_approve_off: no auto-approval limit, every request takes an approver", () => {
    expect(
      requiredApprovals("0.01", new Decimal("0"), rules({ autoApproveBelow: null, twoApprovalsAbove: null })),
    ).toEqual({
      ok: false,
      reason: "auto_approve_off",
      requiredApprovals: 1,
      message: null,
      recipientWindow: { hours: 24, sumBefore: "0", limit: null, twoApprovalsLimit: null },
    });
  });

  it("recipient_window_reached: below the limit alone, not with the recipient's other pay-outs", () => {
    expect(requiredApprovals("999.96", new Decimal("999.95"), rules())).toEqual({
      ok: false,
      reason: "recipient_window_reached",
      requiredApprovals: 1,
      message:
        "This recipient's other pay-outs, open or sent in the last 24 h (999.95), and this one (999.96) come to 1999.91, not " +
        "below the auto-approval limit per recipient (1000): an approver must check it.",
      recipientWindow: { hours: 24, sumBefore: "999.95", limit: "1000", twoApprovalsLimit: "10000" },
    });
  });

  it("a per-recipient limit of its own replaces the auto-approval limit for the window", () => {
    const daily = rules({ autoApproveRecipientDailySum: "5000" });
    expect(requiredApprovals("999", new Decimal("3000"), daily)).toMatchObject({
      ok: true,
      reason: "below_auto_approve_limit",
      recipientWindow: { sumBefore: "3000", limit: "5000" },
    });
    expect(requiredApprovals("999", new Decimal("4001"), daily)).toMatchObject({
      ok: false,
      reason: "recipient_window_reached",
      requiredApprovals: 1,
      recipientWindow: { sumBefore: "4001", limit: "5000" },
    });
  });
});

describe("the page and the commands give the policy's answer", () => {
  const db = getDb();
  const staff = {} as Record<Role, { id: string; email: string; role: Role }>;

  beforeAll(async () => {
    for (const role of ["admin", "finance", "approver", "support"] as const) {
      const u = await createStaff(role);
      staff[role] = { id: u.id, email: u.email, role };
    }
  });

  async function request(makerId: string) {
    const row = await storedPayoutRequest(makerId, {
      status: "awaiting_approval",
      recipientNumber: "2200700012345675",
      amount: "12.34",
    });
    return row.id;
  }

  it("an admin maker: the page says why they cannot approve, the command refuses with the same words", async () => {
    const id = await request(staff.admin.id);
    const page = await getPayoutDetail(id, staff.admin);
    expect(page).toMatchObject({
      can: { approve: false, cancel: true },
      approveBlockedReason: "You created this pay-out; another person must approve or reject it.",
    });
    expect(await decide(id, "approve", "mine", staff.admin)).toEqual({
      ok: false,
      code: "own_request",
      message: "You created this pay-out; another person must approve or reject it.",
    });
  });

  it("someone without payouts.approve: no button and no reason on the page; the command refuses", async () => {
    const id = await request(staff.admin.id);
    expect(await getPayoutDetail(id, staff.finance)).toMatchObject({
      can: { approve: false, cancel: false },
      approveBlockedReason: null,
    });
    expect(await decide(id, "approve", "ok", staff.finance)).toEqual({
      ok: false,
      code: "forbidden",
      message: "Your role does not allow this.",
    });
    expect(await db.payoutApproval.count({ where: { payoutRequestId: id } })).toBe(0);
  });

  // Audit of pay-outs, F5: a request whose maker was disabled since (the account may be the misused one)
  // was still approved and sent.
  it("a disabled maker's request: the page offers reject only and says why; approving is refused in words (en, ru)", async () => {
    const maker = await createStaff("finance");
    const id = await request(maker.id);
    await db.user.update({ where: { id: maker.id }, data: { disabledAt: new Date() } });
    const en =
      "The account of this pay-out's maker is disabled: it cannot be approved. Reject it, or ask an admin to cancel it.";
    expect(refusalMessage(payoutWordsIn("ru").t, { reason: "maker_disabled" })).toBe(
      "Учётная запись инициатора этой выплаты отключена: согласовать её нельзя. Отклоните её или попросите администратора отменить заявку.",
    );
    expect(await getPayoutDetail(id, staff.approver)).toMatchObject({
      can: { approve: false, reject: true },
      approveBlockedReason: en,
    });
    expect(await decide(id, "approve", "ok", staff.approver)).toEqual({
      ok: false,
      code: "maker_disabled",
      message: en,
    });
    expect(await db.payoutApproval.count({ where: { payoutRequestId: id } })).toBe(0);
    expect(await decide(id, "reject", "maker disabled", staff.approver)).toMatchObject({
      ok: true,
      status: "rejected",
    });
  });

  it("cancel: the maker and an admin see the button and may; an approver sees none and is refused", async () => {
    const id = await request(staff.finance.id);
    expect((await getPayoutDetail(id, staff.finance))?.can.cancel).toBe(true);
    expect((await getPayoutDetail(id, staff.admin))?.can.cancel).toBe(true);
    expect((await getPayoutDetail(id, staff.approver))?.can.cancel).toBe(false);
    expect(await cancelPayout(id, staff.approver)).toEqual({
      ok: false,
      code: "not_allowed",
      message: "Only the maker or an admin can cancel this pay-out.",
    });
    expect(await cancelPayout(id, staff.admin)).toEqual({ ok: true, status: "cancelled" });
    expect((await getPayoutDetail(id, staff.finance))?.can.cancel).toBe(false);
    expect(await cancelPayout(id, staff.finance)).toEqual({
      ok: false,
      code: "too_late",
      message: "This pay-out is cancelled; only requests not yet sent can be cancelled.",
    });
  });
});
