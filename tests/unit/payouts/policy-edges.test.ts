// Pure pay-out rules at their edges: the verdict's exact shape (no status key unless the reason names
// it), the recipient window's query written out, the state machine's helpers for every status.
import { describe, expect, it, test } from "vitest";
import { Decimal } from "@/lib/money/decimal";
import {
  RECIPIENT_WINDOW_HOURS,
  canApprove,
  canCancel,
  canDecide,
  canOverrideDuplicate,
  countedForRecipient,
  requiredApprovals,
  requiredApprovalsFor,
} from "@/lib/payouts/policy";
import { PAYOUT_STATUSES, canMove, isSending } from "@/lib/payouts/state";

const ME = "00000000-0000-4000-8000-00000000000a";
const SOMEONE = "00000000-0000-4000-8000-00000000000b";
const EARLIER = "00000000-0000-4000-8000-00000000000c";

describe("verdicts carry a status only when the reason names it", () => {
  const awaiting = { status: "awaiting_approval" as const, makerId: SOMEONE, approvals: [] };
  const approving = { ...awaiting, maker: { disabledAt: null, passwordSetById: null } };
  // an approval already counted, by an approver whose password ME set
  const earlier = {
    approverId: EARLIER,
    decision: "approve" as const,
    approver: { disabledAt: null, role: "approver" as const, passwordSetById: ME },
  };
  test.each([
    [canDecide(awaiting, { id: ME, role: "support" }), { ok: false, reason: "forbidden" }],
    [
      canDecide({ ...awaiting, makerId: ME }, { id: ME, role: "approver" }),
      { ok: false, reason: "own_request" },
    ],
    [
      canDecide({ ...awaiting, approvals: [{ approverId: ME }] }, { id: ME, role: "approver" }),
      { ok: false, reason: "already_decided" },
    ],
    [
      canDecide({ ...awaiting, status: "approved" }, { id: ME, role: "approver" }),
      { ok: false, reason: "not_awaiting", status: "approved" },
    ],
    [canDecide(awaiting, { id: ME, role: "approver" }), { ok: true }],
    [
      canApprove(approving, { id: ME, role: "approver", passwordSetById: SOMEONE }),
      { ok: false, reason: "password_set_by_maker" },
    ],
    [
      canApprove(
        { ...approving, maker: { disabledAt: null, passwordSetById: ME } },
        { id: ME, role: "approver", passwordSetById: null },
      ),
      { ok: false, reason: "maker_password_set_by_approver" },
    ],
    [
      canApprove({ ...approving, approvals: [earlier] }, { id: ME, role: "admin", passwordSetById: null }),
      { ok: false, reason: "password_linked_to_earlier_approver" },
    ],
    [
      canApprove(
        { ...approving, maker: { disabledAt: new Date(0), passwordSetById: null } },
        { id: ME, role: "approver", passwordSetById: null },
      ),
      { ok: false, reason: "maker_disabled" },
    ],
    [canApprove(approving, { id: ME, role: "approver", passwordSetById: EARLIER }), { ok: true }],
    [
      canCancel({ status: "approved", makerId: SOMEONE }, { id: ME, role: "finance" }),
      { ok: false, reason: "not_allowed" },
    ],
    [
      canCancel({ status: "approved", makerId: ME }, { id: ME, role: "support" }),
      { ok: false, reason: "forbidden" },
    ],
    [
      canCancel({ status: "submitting", makerId: ME }, { id: ME, role: "finance" }),
      { ok: false, reason: "too_late", status: "submitting" },
    ],
    [canCancel({ status: "draft", makerId: SOMEONE }, { id: ME, role: "admin" }), { ok: true }],
    [canOverrideDuplicate({ role: "finance" }), { ok: false, reason: "override_forbidden" }],
    [canOverrideDuplicate({ role: "admin" }), { ok: true }],
  ])("%j", (verdict, expected) => {
    expect(verdict).toStrictEqual(expected);
  });

  it("an approver who decided is refused even when someone else's approval comes first", () => {
    const decided = { ...awaiting, approvals: [{ approverId: SOMEONE }, { approverId: ME }] };
    expect(canDecide(decided, { id: ME, role: "admin" })).toStrictEqual({
      ok: false,
      reason: "already_decided",
    });
    const others = { ...awaiting, approvals: [{ approverId: "x" }, { approverId: "y" }] };
    expect(canDecide(others, { id: ME, role: "admin" })).toStrictEqual({ ok: true });
  });
});

describe("the recipient window's query", () => {
  // by when money went out, not when the request was written: a request created 25 h ago and sent now
  // (or still waiting) is part of the same split
  it("the recipient's open pay-outs, whatever their age, and those sent in the last 24 h, not failed", () => {
    const now = new Date("2026-11-20T12:00:00.000Z");
    expect(RECIPIENT_WINDOW_HOURS).toBe(24);
    expect(countedForRecipient("2200700012345675", now)).toEqual({
      recipientNumber: "2200700012345675",
      OR: [
        { status: { in: ["awaiting_approval", "approved", "submitting"] } },
        {
          status: "submitted",
          submittedAt: { gte: new Date("2026-11-19T12:00:00.000Z") },
          OR: [{ operationId: null }, { operation: { status: { not: "failed" } } }],
        },
      ],
    });
  });
});

describe("approvals at the edges", () => {
  const rules = {
    autoApproveBelow: "1000",
    twoApprovalsAbove: "10000",
    autoApproveRecipientDailySum: null,
    nearDuplicateTolerancePercent: null,
  };

  it("a window total exactly at the limit needs an approver; just below does not", () => {
    expect(requiredApprovals("500", new Decimal("500"), rules)).toMatchObject({
      ok: false,
      reason: "recipient_window_reached",
    });
    expect(requiredApprovals("500", new Decimal("499.9999"), rules)).toMatchObject({
      ok: true,
      reason: "below_auto_approve_limit",
    });
  });

  it("exactly at the two-approvals limit: one approver", () => {
    expect(requiredApprovalsFor("10000", rules)).toBe(1);
    expect(requiredApprovals("10000", new Decimal("0"), rules)).toMatchObject({
      reason: "amount_not_below_auto_approve_limit",
      requiredApprovals: 1,
    });
  });

  it("above two approvals without an auto-approval limit: two approvers, no message", () => {
    expect(requiredApprovals("20000", new Decimal("3"), { ...rules, autoApproveBelow: null })).toStrictEqual({
      ok: false,
      reason: "amount_above_two_approvals_limit",
      requiredApprovals: 2,
      message: null,
      recipientWindow: { hours: 24, sumBefore: "3", limit: null, twoApprovalsLimit: "10000" },
    });
  });

  it("a per-recipient limit without an auto-approval limit approves nothing at once", () => {
    expect(
      requiredApprovals("1", new Decimal("0"), {
        ...rules,
        autoApproveBelow: null,
        autoApproveRecipientDailySum: "5000",
      }),
    ).toMatchObject({ ok: false, reason: "auto_approve_off", recipientWindow: { limit: "5000" } });
  });
});

describe("the state machine's helpers", () => {
  test.each(PAYOUT_STATUSES.map((s) => [s]))("isSending(%s)", (status) => {
    expect(isSending(status, null)).toBe(status === "submitting" || status === "approved");
    // a note on an approved request means the duplicate guard held it back: someone must send it
    expect(isSending(status, "held back")).toBe(status === "submitting");
  });

  it("canMove answers the table", () => {
    expect(canMove("awaiting_approval", "rejected")).toBe(true);
    expect(canMove("approved", "rejected")).toBe(false);
    expect(canMove("draft", "submitting")).toBe(false);
    expect(canMove("submitting", "failed_to_submit")).toBe(true);
  });
});

describe("splitting one pay-out does not avoid the second approver", () => {
  // twoApprovalsAbove 10000: 15000 to one card takes two approvers, and so do 9000 + 6000 to another card
  // (the recipient's window of 24 h, the same sum auto-approval counts).
  const rules = {
    autoApproveBelow: "1000",
    twoApprovalsAbove: "10000",
    autoApproveRecipientDailySum: null,
    nearDuplicateTolerancePercent: null,
  };

  it("15000 at once: two approvers by its amount", () => {
    expect(requiredApprovals("15000", new Decimal("0"), rules)).toMatchObject({
      reason: "amount_above_two_approvals_limit",
      requiredApprovals: 2,
    });
  });

  it("9000 then 6000 to one recipient: the second takes two approvers, and says why", () => {
    expect(requiredApprovals("9000", new Decimal("0"), rules)).toMatchObject({ requiredApprovals: 1 });
    expect(requiredApprovals("6000", new Decimal("9000"), rules)).toStrictEqual({
      ok: false,
      reason: "recipient_window_above_two_approvals_limit",
      requiredApprovals: 2,
      message:
        "This recipient's other pay-outs, open or sent in the last 24 h (9000), and this one (6000) come to 15000, above the " +
        "two-approval limit (10000): two approvers must check it.",
      recipientWindow: { hours: 24, sumBefore: "9000", limit: "1000", twoApprovalsLimit: "10000" },
    });
  });

  it("small pay-outs below the auto-approval limit count too once the window passes the two-approval limit", () => {
    expect(requiredApprovals("999", new Decimal("9500"), rules)).toMatchObject({
      ok: false,
      reason: "recipient_window_above_two_approvals_limit",
      requiredApprovals: 2,
    });
  });

  it("a window total exactly at the two-approval limit: one approver; a hundredth above: two", () => {
    expect(requiredApprovals("6000", new Decimal("4000"), rules)).toMatchObject({ requiredApprovals: 1 });
    expect(requiredApprovals("6000.01", new Decimal("4000"), rules)).toMatchObject({
      reason: "recipient_window_above_two_approvals_limit",
      requiredApprovals: 2,
    });
  });

  it("no two-approval limit: the window never asks for a second approver", () => {
    expect(
      requiredApprovals("999", new Decimal("900000"), { ...rules, twoApprovalsAbove: null }),
    ).toMatchObject({ reason: "recipient_window_reached", requiredApprovals: 1 });
    expect(
      requiredApprovals("6000", new Decimal("900000"), { ...rules, twoApprovalsAbove: null }),
    ).toMatchObject({ reason: "amount_not_below_auto_approve_limit", requiredApprovals: 1 });
  });
});
