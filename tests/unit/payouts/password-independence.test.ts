// Maker and approver are two people only when neither can sign in as the other: the pure rule
// (lib/payouts/policy.ts passwordsIndependent, asked by canDecide and so by canApprove) as a table of
// who set each password. An admin holds users.manage, payouts.create and payouts.approve: creating an
// approver (or resetting a colleague's password) and approving their own pay-out under that account, or
// resetting a finance user's password and making a pay-out as them, must not pass for maker/checker.
import { describe, expect, test } from "vitest";
import type { Role } from "@/lib/auth/permissions";
import {
  canApprove,
  canDecide,
  passwordsIndependent,
  refusalMessage,
  type PasswordRefusal,
} from "@/lib/payouts/policy";
import { payoutWordsIn } from "../../support/i18n";

const MAKER = "00000000-0000-4000-8000-0000000000a1";
const APPROVER = "00000000-0000-4000-8000-0000000000a2";
const ADMIN = "00000000-0000-4000-8000-0000000000a3";
const OTHER_ADMIN = "00000000-0000-4000-8000-0000000000a4";

// who set the maker's password, who set the approver's (null: the command line, the user themselves,
// or no password at all: single sign-on), and the answer
const CASES: ReadonlyArray<
  [name: string, makerSetBy: string | null, approverSetBy: string | null, reason: PasswordRefusal | null]
> = [
  ["the maker set the approver's password", null, MAKER, "password_set_by_maker"],
  ["the approver set the maker's password", APPROVER, null, "maker_password_set_by_approver"],
  ["one admin set both passwords", ADMIN, ADMIN, "passwords_set_by_same_person"],
  ["each set the other's password", APPROVER, MAKER, "password_set_by_maker"],
  ["both set by the command line", null, null, null],
  ["both single sign-on (no password)", null, null, null],
  ["the maker's set by the command line, the approver's by an admin", null, ADMIN, null],
  ["the approver's set by the command line, the maker's by an admin", ADMIN, null, null],
  ["each set by a different admin", ADMIN, OTHER_ADMIN, null],
  // the maker set it, then the approver changed their own password: nobody else knows it now
  ["the approver changed their own password after the maker set it", null, null, null],
  // one admin set both, then the maker changed theirs
  ["the maker changed their own password after the admin set both", null, ADMIN, null],
  // one admin set both, then the approver changed theirs
  ["the approver changed their own password after the admin set both", ADMIN, null, null],
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

const awaiting = (makerSetBy: string | null) => ({
  status: "awaiting_approval" as const,
  makerId: MAKER,
  maker: { passwordSetById: makerSetBy, disabledAt: null },
  approvals: [],
});
const approver = (role: Role, passwordSetById: string | null) => ({ id: APPROVER, role, passwordSetById });

describe("canDecide and canApprove ask it, for approvers and admins alike", () => {
  test.each(CASES.flatMap((c) => (["approver", "admin"] as const).map((role) => [role, ...c] as const)))(
    "%s: %s",
    (role, _name, makerSetBy, approverSetBy, reason) => {
      const expected = reason === null ? { ok: true } : { ok: false, reason };
      expect(canDecide(awaiting(makerSetBy), approver(role, approverSetBy))).toStrictEqual(expected);
      expect(canApprove(awaiting(makerSetBy), approver(role, approverSetBy))).toStrictEqual(expected);
    },
  );

  test("the earlier reasons come first: role, own request, earlier decision, status", () => {
    const setByMaker = approver("approver", MAKER);
    expect(canDecide(awaiting(null), { ...setByMaker, role: "finance" })).toMatchObject({
      reason: "forbidden",
    });
    expect(canDecide(awaiting(null), { ...setByMaker, id: MAKER })).toMatchObject({ reason: "own_request" });
    expect(canDecide({ ...awaiting(null), approvals: [{ approverId: APPROVER }] }, setByMaker)).toMatchObject(
      { reason: "already_decided" },
    );
    expect(canDecide({ ...awaiting(null), status: "approved" }, setByMaker)).toMatchObject({
      reason: "not_awaiting",
    });
  });

  test("a password refusal comes before the maker's disabled account when approving", () => {
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

describe("the refusals in words", () => {
  test.each([
    [
      "password_set_by_maker",
      "Your password was set by the maker of this pay-out: change it yourself (your menu → Change password) before deciding.",
      "Ваш пароль задал инициатор этой выплаты: смените его сами (ваше меню → «Смена пароля»), прежде чем принимать решение.",
    ],
    [
      "maker_password_set_by_approver",
      "You set the password of this pay-out's maker: another approver must decide, or the maker must first change their password (their menu → Change password).",
      "Пароль инициатора этой выплаты задали вы: решение должен принять другой согласующий, либо инициатор должен сначала сменить свой пароль (его меню → «Смена пароля»).",
    ],
    [
      "passwords_set_by_same_person",
      "Your and the maker's passwords were both set by the same admin: one of you must change their password (your menu → Change password) first.",
      "Ваш пароль и пароль инициатора задал один и тот же администратор: сначала один из вас должен сменить свой пароль (меню → «Смена пароля»).",
    ],
  ] as const)("%s", (reason, en, ru) => {
    expect(refusalMessage(payoutWordsIn("en").t, { reason })).toBe(en);
    expect(refusalMessage(payoutWordsIn("ru").t, { reason })).toBe(ru);
  });
});
