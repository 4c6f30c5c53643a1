// Why an approver is needed, as the review step shows it (approvalReasonMessage), and the limits it reads
// (limitOf): every branch, in English and in Russian, with the numbers formatted for the reader.
import { describe, expect, test } from "vitest";
import { Decimal } from "@/lib/money/decimal";
import { approvalReasonMessage, limitOf, requiredApprovals, type ApprovalNeed } from "@/lib/payouts/policy";
import { payoutWordsIn } from "../../support/i18n";

const NB = "\u00a0";
const window = (sumBefore: string, limit: string | null) => ({
  hours: 24,
  sumBefore,
  limit,
  twoApprovalsLimit: null,
});
const need = (overrides: Partial<ApprovalNeed>): ApprovalNeed => ({
  ok: false,
  reason: "amount_not_below_auto_approve_limit",
  requiredApprovals: 1,
  message: null,
  recipientWindow: window("0", "1000"),
  ...overrides,
});
const english = (n: ApprovalNeed, amount: string, auto: string | null) =>
  approvalReasonMessage(payoutWordsIn("en").t, n, amount, auto, "en");
const russian = (n: ApprovalNeed, amount: string, auto: string | null) =>
  approvalReasonMessage(payoutWordsIn("ru").t, n, amount, auto, "ru");

describe("approvalReasonMessage", () => {
  test("recipient_window_reached: the window, this amount, their total and the limit, grouped", () => {
    const n = need({ reason: "recipient_window_reached", recipientWindow: window("1999.95", "2500") });
    expect(english(n, "1000.5", "1000")).toBe(
      "This recipient's other pay-outs, open or sent in the last 24 h (1,999.95), and this one (1,000.5) come to 3,000.45, " +
        "not below the auto-approval limit per recipient (2,500): an approver must check it.",
    );
  });

  test("recipient_window_reached in Russian: the reader's grouping and comma", () => {
    const n = need({ reason: "recipient_window_reached", recipientWindow: window("1999.95", "2500") });
    const text = russian(n, "1000.5", "1000");
    expect(text).toContain(`1${NB}999,95`);
    expect(text).toContain(`3${NB}000,45`);
    expect(text).toContain(`2${NB}500`);
    expect(text).not.toContain("1,999.95");
  });

  test("recipient_window_reached with no limit says so in words", () => {
    const n = need({ reason: "recipient_window_reached", recipientWindow: window("10", null) });
    expect(english(n, "5", null)).toBe(
      "This recipient's other pay-outs, open or sent in the last 24 h (10), and this one (5) come to 15, " +
        "not below the auto-approval limit per recipient (none): an approver must check it.",
    );
  });

  test("the window's hours come from the need", () => {
    const n = need({
      reason: "recipient_window_reached",
      recipientWindow: { ...window("1", "2"), hours: 12 },
    });
    expect(english(n, "1", "2")).toMatch(
      /^This recipient's other pay-outs, open or sent in the last 12 h \(1\)/,
    );
  });

  test.each([
    ["amount_not_below_auto_approve_limit", 1],
    ["amount_above_two_approvals_limit", 2],
  ] as const)("%s names the auto-approval limit, formatted for the reader", (reason, approvals) => {
    const n = need({ reason, requiredApprovals: approvals });
    expect(english(n, "25000", " 1000.5 ")).toBe(
      "The amount is not below the auto-approval limit (1,000.5).",
    );
    expect(russian(n, "25000", "1000")).toBe(`Сумма не меньше лимита автосогласования (1${NB}000).`);
  });

  test("approved at once: nothing to explain", () => {
    const n = need({ ok: true, reason: "below_auto_approve_limit", requiredApprovals: 0 });
    expect(english(n, "5", "1000")).toBeNull();
  });

  test("auto-approval off: nothing to explain even when a limit is passed", () => {
    expect(english(need({ reason: "auto_approve_off" }), "5", "1000")).toBeNull();
  });

  test.each([null, "", "  ", "abc"])("no usable auto-approval limit (%j): nothing to explain", (auto) => {
    expect(english(need({ reason: "amount_not_below_auto_approve_limit" }), "5", auto)).toBeNull();
  });

  test("the sentence the review shows for a need requiredApprovals computed", () => {
    const rules = {
      autoApproveBelow: "1000",
      twoApprovalsAbove: null,
      autoApproveRecipientDailySum: null,
      nearDuplicateTolerancePercent: null,
    };
    expect(english(requiredApprovals("999", new Decimal("500"), rules), "999", "1000")).toBe(
      "This recipient's other pay-outs, open or sent in the last 24 h (500), and this one (999) come to 1,499, " +
        "not below the auto-approval limit per recipient (1,000): an approver must check it.",
    );
  });
});

describe("limitOf", () => {
  test.each([
    [null, null],
    [undefined, null],
    ["", null],
    ["   ", null],
    ["1e3", null],
    ["ten", null],
    ["-5", "-5"],
    [" 1000.50 ", "1000.5"],
    ["0", "0"],
  ])("%j -> %j", (value, expected) => {
    expect(limitOf(value)?.toFixed() ?? null).toBe(expected);
  });
});

describe("two approvers because of the recipient's window", () => {
  const rules = {
    autoApproveBelow: "1000",
    twoApprovalsAbove: "10000",
    autoApproveRecipientDailySum: null,
    nearDuplicateTolerancePercent: null,
  };
  const split = () => requiredApprovals("6000", new Decimal("9000"), rules);

  test("in English: the window, this amount, their total and the two-approval limit", () => {
    expect(english(split(), "6000", "1000")).toBe(
      "This recipient's other pay-outs, open or sent in the last 24 h (9,000), and this one (6,000) come to 15,000, " +
        "above the two-approval limit (10,000): two approvers must check it.",
    );
  });

  test("in Russian, with the reader's grouping", () => {
    expect(russian(split(), "6000", "1000")).toBe(
      `Другие выплаты этому получателю, ещё не отправленные или отправленные за последние 24 ч (9${NB}000), вместе с этой (6${NB}000) составляют ` +
        `15${NB}000 — больше порога для двух согласований (10${NB}000): нужны два согласующих.`,
    );
  });

  test("also when auto-approval is off", () => {
    const need = requiredApprovals("6000", new Decimal("9000"), { ...rules, autoApproveBelow: null });
    expect(need).toMatchObject({
      reason: "recipient_window_above_two_approvals_limit",
      requiredApprovals: 2,
    });
    expect(english(need, "6000", null)).toMatch(/above the two-approval limit \(10,000\)/);
  });
});
