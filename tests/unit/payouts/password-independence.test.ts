// Two people are two for maker/checker only when neither can sign in as the other: the pure rule
// (lib/payouts/policy.ts passwordsIndependent) as a table of who set each password, asked by canApprove
// between the maker and the approver and between the approver and each approval already counted, never
// by canDecide (rejecting moves no money, and an approver cannot cancel). An admin holds users.manage,
// payouts.create and payouts.approve: creating an approver (or resetting a colleague's password) and
// approving their own pay-out, or giving the second approval, under that account must not pass. One
// third person having set both passwords is no refusal: the first admin, from the command line, creates
// every other user in the console.
import { describe, expect, test } from "vitest";
import type { Role } from "@/lib/auth/permissions";
import {
  canApprove,
  canDecide,
  passwordsIndependent,
  refusalMessage,
  type ApproveRefusal,
  type PasswordRefusal,
  type RecordedApproval,
} from "@/lib/payouts/policy";
import { payoutWordsIn } from "../../support/i18n";

const MAKER = "00000000-0000-4000-8000-0000000000a1";
const APPROVER = "00000000-0000-4000-8000-0000000000a2";
const ADMIN = "00000000-0000-4000-8000-0000000000a3";
const OTHER_ADMIN = "00000000-0000-4000-8000-0000000000a4";
const EARLIER = "00000000-0000-4000-8000-0000000000a5";

// who set the maker's password, who set the approver's (null: the command line, the user themselves,
// or no password at all: single sign-on), and the answer
const CASES: ReadonlyArray<
  [name: string, makerSetBy: string | null, approverSetBy: string | null, reason: PasswordRefusal | null]
> = [
  ["the maker set the approver's password", null, MAKER, "password_set_by_maker"],
  ["the approver set the maker's password", APPROVER, null, "maker_password_set_by_approver"],
  ["each set the other's password", APPROVER, MAKER, "password_set_by_maker"],
  // the usual set-up: the first admin (command line) creates every other user in the console
  ["one admin set both passwords", ADMIN, ADMIN, null],
  ["both set by the command line", null, null, null],
  ["both single sign-on (no password)", null, null, null],
  ["the maker's set by the command line, the approver's by an admin", null, ADMIN, null],
  ["the approver's set by the command line, the maker's by an admin", ADMIN, null, null],
  ["each set by a different admin", ADMIN, OTHER_ADMIN, null],
  // the maker set it, then the approver changed their own password: nobody else knows it now
  ["the approver changed their own password after the maker set it", null, null, null],
];

describe("passwordsIndependent: who set each password", () => {
  test.each(CASES)("%s", (_name, makerSetBy, approverSetBy, reason) => {
    expect(
      passwordsIndependent(
        { id: MAKER, passwordSetById: makerSetBy },
        { id: APPROVER, passwordSetById: approverSetBy },
      ),
    ).toStrictEqual(reason === null ? { ok: true } : { ok: false, reason });
  });
});

const approval = (approverId: string, passwordSetById: string | null): RecordedApproval => ({
  approverId,
  decision: "approve",
  approver: { disabledAt: null, role: "approver", passwordSetById },
});
const awaiting = (makerSetBy: string | null, approvals: RecordedApproval[] = []) => ({
  status: "awaiting_approval" as const,
  makerId: MAKER,
  maker: { passwordSetById: makerSetBy, disabledAt: null },
  approvals,
});
const approver = (role: Role, passwordSetById: string | null) => ({ id: APPROVER, role, passwordSetById });

describe("canApprove asks it, for approvers and admins alike; canDecide (rejecting) never does", () => {
  test.each(CASES.flatMap((c) => (["approver", "admin"] as const).map((role) => [role, ...c] as const)))(
    "%s: %s",
    (role, _name, makerSetBy, approverSetBy, reason) => {
      expect(canApprove(awaiting(makerSetBy), approver(role, approverSetBy))).toStrictEqual(
        reason === null ? { ok: true } : { ok: false, reason },
      );
      expect(canDecide(awaiting(makerSetBy), approver(role, approverSetBy))).toStrictEqual({ ok: true });
    },
  );

  test("the earlier reasons come first: role, own request, earlier decision, status", () => {
    const setByMaker = approver("approver", MAKER);
    expect(canApprove(awaiting(null), { ...setByMaker, role: "finance" })).toMatchObject({
      reason: "forbidden",
    });
    expect(canApprove(awaiting(null), { ...setByMaker, id: MAKER })).toMatchObject({ reason: "own_request" });
    expect(canApprove(awaiting(null, [approval(APPROVER, null)]), setByMaker)).toMatchObject({
      reason: "already_decided",
    });
    expect(canApprove({ ...awaiting(null), status: "approved" }, setByMaker)).toMatchObject({
      reason: "not_awaiting",
    });
  });

  test("a password refusal comes before the maker's disabled account", () => {
    const request = { ...awaiting(null), maker: { passwordSetById: null, disabledAt: new Date() } };
    expect(canApprove(request, approver("admin", MAKER))).toStrictEqual({
      ok: false,
      reason: "password_set_by_maker",
    });
    expect(canApprove(request, approver("admin", null))).toStrictEqual({
      ok: false,
      reason: "maker_disabled",
    });
  });
});

describe("canApprove: the approver and each approval already counted are two people", () => {
  // who set the earlier approver's password, who set this approver's, whether the earlier approval
  // still counts (countsAsApproval), and the answer
  const EARLIER_CASES: ReadonlyArray<
    [name: string, earlier: RecordedApproval, approverSetBy: string | null, reason: ApproveRefusal | null]
  > = [
    [
      "an admin approved, then approves as the approver whose password they set",
      approval(EARLIER, null),
      EARLIER,
      "password_linked_to_earlier_approver",
    ],
    [
      "an admin approved as the approver whose password they set, then approves as themselves",
      approval(EARLIER, APPROVER),
      null,
      "password_linked_to_earlier_approver",
    ],
    ["one admin set both approvers' passwords", approval(EARLIER, ADMIN), ADMIN, null],
    ["unrelated passwords", approval(EARLIER, ADMIN), OTHER_ADMIN, null],
    [
      "the earlier approver is disabled: their approval no longer counts",
      {
        ...approval(EARLIER, null),
        approver: { disabledAt: new Date(), role: "approver", passwordSetById: null },
      },
      EARLIER,
      null,
    ],
    [
      "the earlier approver lost payouts.approve: their approval no longer counts",
      {
        ...approval(EARLIER, APPROVER),
        approver: { disabledAt: null, role: "support", passwordSetById: APPROVER },
      },
      null,
      null,
    ],
  ];

  test.each(EARLIER_CASES)("%s", (_name, earlier, approverSetBy, reason) => {
    const request = awaiting(null, [earlier]);
    expect(canApprove(request, approver("admin", approverSetBy))).toStrictEqual(
      reason === null ? { ok: true } : { ok: false, reason },
    );
    // rejecting is never held back by it
    expect(canDecide(request, approver("admin", approverSetBy))).toStrictEqual({ ok: true });
  });

  test("the maker's rule is answered first when both apply", () => {
    expect(canApprove(awaiting(null, [approval(EARLIER, null)]), approver("approver", MAKER))).toStrictEqual({
      ok: false,
      reason: "password_set_by_maker",
    });
  });

  test("any of the earlier approvals: the linked one need not be the first", () => {
    const request = awaiting(null, [approval(EARLIER, ADMIN), approval(OTHER_ADMIN, APPROVER)]);
    expect(canApprove(request, approver("admin", null))).toStrictEqual({
      ok: false,
      reason: "password_linked_to_earlier_approver",
    });
  });
});

describe("the refusals in words", () => {
  test.each([
    [
      "password_set_by_maker",
      "Your password was set by the maker of this pay-out: change it yourself (your menu → Change password) before approving. You can still reject it.",
      "Ваш пароль задал инициатор этой выплаты: смените его сами (ваше меню → «Смена пароля»), прежде чем согласовывать. Отклонить выплату можно и сейчас.",
    ],
    [
      "maker_password_set_by_approver",
      "You set the password of this pay-out's maker: another approver must approve it, or the maker must first change their password (their menu → Change password). You can still reject it.",
      "Пароль инициатора этой выплаты задали вы: согласовать её должен другой согласующий, либо инициатор должен сначала сменить свой пароль (его меню → «Смена пароля»). Отклонить выплату можно и сейчас.",
    ],
    [
      "password_linked_to_earlier_approver",
      "You set the password of someone who already approved this pay-out, or they set yours: another approver must give this approval, or whichever of you had their password set by the other must first change it (menu → Change password). You can still reject it.",
      "Вы задали пароль сотруднику, который уже согласовал эту выплату, или он задал ваш: это согласование должен дать другой согласующий, либо тот из вас, чей пароль задал другой, должен сначала его сменить (меню → «Смена пароля»). Отклонить выплату можно и сейчас.",
    ],
  ] as const)("%s", (reason, en, ru) => {
    expect(refusalMessage(payoutWordsIn("en").t, { reason })).toBe(en);
    expect(refusalMessage(payoutWordsIn("ru").t, { reason })).toBe(ru);
  });
});
