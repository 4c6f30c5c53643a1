// Maker/checker needs two people: an admin (users.manage, payouts.create and payouts.approve) who sets
// someone's password can sign in as them. Through the actions as the console calls them (session
// mocked): an admin creates an approver, makes a pay-out, and the approver is refused; an admin resets
// a finance user's password, the finance user makes a pay-out, and the admin is refused; one admin sets
// both passwords and the two are refused. The page says the same sentence instead of the buttons, and a
// password changed by its owner (or set from the command line) lets the decision through.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { cliActor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { getPayoutDetail } from "@/lib/payouts/queries";
import { createUser } from "@/lib/users/service";
import { createStaff } from "../../support/mirror";
import { storedPayoutRequest } from "../../support/payouts";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));
// The last approval hands the submission to the worker's queue: recorded here, never run.
vi.mock("@/lib/queue/enqueue", () => ({ enqueueTask: async () => "job" }));

const { approvePayoutAction, rejectPayoutAction } = await import("@/lib/actions/payouts");
const { createUserAction, resetUserPasswordAction } = await import("@/lib/actions/users");
const { changeOwnPasswordAction } = await import("@/lib/actions/account");

const db = getDb();
const SET_BY_MAKER =
  "Your password was set by the maker of this pay-out: change it yourself (your menu → Change password) before deciding.";
const SET_BY_YOU =
  "You set the password of this pay-out's maker: another approver must decide, or the maker must first change their password (their menu → Change password).";
const SAME_PERSON =
  "Your and the maker's passwords were both set by the same admin: one of you must change their password (your menu → Change password) first.";

async function signInAs(userId: string) {
  const { sessionVersion } = await db.user.findUniqueOrThrow({
    where: { id: userId },
    select: { sessionVersion: true },
  });
  session.current = { userId, sessionVersion };
}

/** A user created by the signed-in admin from the users page, with the password they chose. */
async function createdByAdmin(role: "approver" | "finance", password: string) {
  const r = await createUserAction({ email: `${role}-${randomUUID()}@test.local`, role, password });
  if (!r.ok || !("user" in r)) throw new Error(JSON.stringify(r));
  return r.user;
}

const awaiting = (makerId: string) => storedPayoutRequest(makerId, { status: "awaiting_approval" });
const decision = (id: string) => ({ id, comment: "checked against the invoice" });

/** What the pay-out page offers the viewer: its buttons, and the sentence shown instead of them. */
async function page(id: string, viewer: { id: string; role: "admin" | "approver" }) {
  const detail = await getPayoutDetail(id, viewer);
  return { can: detail?.can, reason: detail?.approveBlockedReason };
}

let admin: { id: string };

beforeAll(async () => {
  admin = await createStaff("admin");
});

describe("the approver's password was set by the maker", () => {
  it("an admin's approver is refused on the admin's pay-out until they change their own password", async () => {
    await signInAs(admin.id);
    const chosen = "admin-chosen-password";
    const approver = await createdByAdmin("approver", chosen);
    expect(
      await db.user.findUniqueOrThrow({ where: { id: approver.id }, select: { passwordSetById: true } }),
    ).toEqual({ passwordSetById: admin.id });
    const request = await awaiting(admin.id);

    await signInAs(approver.id);
    expect(await approvePayoutAction(decision(request.id))).toEqual({
      ok: false,
      code: "password_set_by_maker",
      message: SET_BY_MAKER,
    });
    expect(await rejectPayoutAction(decision(request.id))).toMatchObject({ code: "password_set_by_maker" });
    expect(await page(request.id, { id: approver.id, role: "approver" })).toEqual({
      can: { approve: false, reject: false, cancel: false, submit: false },
      reason: SET_BY_MAKER,
    });
    expect(await db.payoutApproval.count({ where: { payoutRequestId: request.id } })).toBe(0);

    // the approver changes the password the admin chose: nobody else knows it now
    expect(
      await changeOwnPasswordAction({
        current: chosen,
        next: "only-the-approver-knows",
        confirm: "only-the-approver-knows",
      }),
    ).toEqual({ ok: true, signInAgain: true });
    await signInAs(approver.id);
    expect(await page(request.id, { id: approver.id, role: "approver" })).toMatchObject({
      can: { approve: true, reject: true },
      reason: null,
    });
    expect(await approvePayoutAction(decision(request.id))).toMatchObject({ ok: true, status: "approved" });
  });
});

describe("the maker's password was set by the approver", () => {
  it("an admin who reset a finance user's password is refused on that user's pay-out", async () => {
    const finance = await createStaff("finance");
    await signInAs(admin.id);
    expect(await resetUserPasswordAction({ userId: finance.id, password: "reset-by-the-admin" })).toEqual({
      ok: true,
      generated: null,
    });
    const request = await awaiting(finance.id);

    expect(await approvePayoutAction(decision(request.id))).toEqual({
      ok: false,
      code: "maker_password_set_by_approver",
      message: SET_BY_YOU,
    });
    expect(await rejectPayoutAction(decision(request.id))).toMatchObject({
      code: "maker_password_set_by_approver",
    });
    expect(await page(request.id, { id: admin.id, role: "admin" })).toMatchObject({
      can: { approve: false, reject: false },
      reason: SET_BY_YOU,
    });
    // another approver, whose password the admin did not set, decides
    const other = await createStaff("approver");
    await signInAs(other.id);
    expect(await approvePayoutAction(decision(request.id))).toMatchObject({ ok: true, status: "approved" });
  });
});

describe("both passwords were set by one third person", () => {
  it("an approver and a finance user created by the same admin cannot pass each other's pay-outs", async () => {
    await signInAs(admin.id);
    const approver = await createdByAdmin("approver", "approver-password-1");
    const finance = await createdByAdmin("finance", "finance-password-1");
    const request = await awaiting(finance.id);

    await signInAs(approver.id);
    expect(await approvePayoutAction(decision(request.id))).toEqual({
      ok: false,
      code: "passwords_set_by_same_person",
      message: SAME_PERSON,
    });
    expect(await page(request.id, { id: approver.id, role: "approver" })).toMatchObject({
      reason: SAME_PERSON,
    });

    // the maker changes theirs: the two are two people again
    await signInAs(finance.id);
    expect(
      await changeOwnPasswordAction({
        current: "finance-password-1",
        next: "finance-password-2",
        confirm: "finance-password-2",
      }),
    ).toMatchObject({ ok: true });
    await signInAs(approver.id);
    expect(await approvePayoutAction(decision(request.id))).toMatchObject({ ok: true, status: "approved" });
  });
});

describe("passwords set from the command line keep nobody apart", () => {
  it("users the command line created approve each other's pay-outs as before", async () => {
    const finance = await createUser(cliActor, {
      email: `cli-finance-${randomUUID()}@test.local`,
      role: "finance",
      password: "cli-finance-password",
    });
    const approver = await createUser(cliActor, {
      email: `cli-approver-${randomUUID()}@test.local`,
      role: "approver",
      password: "cli-approver-password",
    });
    expect(
      await db.user.findMany({
        where: { id: { in: [finance.id, approver.id] } },
        select: { passwordSetById: true },
      }),
    ).toEqual([{ passwordSetById: null }, { passwordSetById: null }]);
    const request = await awaiting(finance.id);
    await signInAs(approver.id);
    expect(await approvePayoutAction(decision(request.id))).toMatchObject({ ok: true, status: "approved" });
  });
});
