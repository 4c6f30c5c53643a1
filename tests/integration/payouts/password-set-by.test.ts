// Maker/checker needs two people: an admin (users.manage, payouts.create and payouts.approve) who sets
// someone's password can sign in as them. Through the actions as the console calls them (session
// mocked): an admin creates an approver, makes a pay-out, and the approver may not approve it; an admin
// resets a finance user's password, the finance user makes a pay-out, and the admin may not approve it;
// with two approvals required, an admin may not give one as themselves and the other as an approver
// whose password they set (either order). Rejecting is never held back (it moves no money, and an
// approver cannot cancel). The page says the same sentence beside the Reject button. The normal set-up,
// one admin from the command line creating everyone else in the console, approves as usual; so does a
// password changed by its owner or set from the command line. A single-sign-on-only approver (created
// without a password, or whose password the admin removed) has no password anyone set: the admin who
// created them is not kept apart from them (the identity provider, not that admin, proves who they are).
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
// Single sign-on is configured (AUTH_OIDC_*): users may have no password.
vi.mock("@/lib/auth/sso", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/auth/sso")>()),
  ssoConfigured: () => true,
}));
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));
// The last approval hands the submission to the worker's queue: recorded here, never run.
vi.mock("@/lib/queue/enqueue", () => ({ enqueueTask: async () => "job" }));

const { approvePayoutAction, rejectPayoutAction } = await import("@/lib/actions/payouts");
const { createUserAction, removeUserPasswordAction, resetUserPasswordAction } =
  await import("@/lib/actions/users");
const { changeOwnPasswordAction } = await import("@/lib/actions/account");

const db = getDb();
const SET_BY_MAKER =
  "Your password was set by the maker of this pay-out: change it yourself (your menu → Change password) before approving. You can still reject it.";
const SET_BY_YOU =
  "You set the password of this pay-out's maker: another approver must approve it, or the maker must first change their password (their menu → Change password). You can still reject it.";
const LINKED =
  "You set the password of someone who already approved this pay-out, or they set yours: another approver must give this approval, or whichever of you had their password set by the other must first change it (menu → Change password). You can still reject it.";

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

const awaiting = (makerId: string, requiredApprovals = 1) =>
  storedPayoutRequest(makerId, { status: "awaiting_approval", requiredApprovals });
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
    // the page offers Reject alone, with the sentence beside it
    expect(await page(request.id, { id: approver.id, role: "approver" })).toEqual({
      can: { approve: false, reject: true, cancel: false, submit: false },
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
    expect(await page(request.id, { id: admin.id, role: "admin" })).toMatchObject({
      can: { approve: false, reject: true },
      reason: SET_BY_YOU,
    });
    // another approver, whose password the admin did not set, decides
    const other = await createStaff("approver");
    await signInAs(other.id);
    expect(await approvePayoutAction(decision(request.id))).toMatchObject({ ok: true, status: "approved" });
  });
});

describe("rejecting is never held back by who set the passwords", () => {
  it("the approver whose password the maker set, and the admin who set the maker's, both reject", async () => {
    await signInAs(admin.id);
    const approver = await createdByAdmin("approver", "admin-chose-this-one");
    const byAdmin = await awaiting(admin.id);
    await signInAs(approver.id);
    expect(await rejectPayoutAction(decision(byAdmin.id))).toEqual({
      ok: true,
      status: "rejected",
      approvals: 0,
      requiredApprovals: 1,
    });

    const finance = await createStaff("finance");
    await signInAs(admin.id);
    await resetUserPasswordAction({ userId: finance.id, password: "reset-by-the-admin-2" });
    const byFinance = await awaiting(finance.id);
    expect(await rejectPayoutAction(decision(byFinance.id))).toMatchObject({ ok: true, status: "rejected" });
    expect(
      await db.payoutRequest.findMany({
        where: { id: { in: [byAdmin.id, byFinance.id] } },
        select: { status: true },
      }),
    ).toEqual([{ status: "rejected" }, { status: "rejected" }]);
  });
});

describe("the normal set-up: one admin from the command line creates everyone else", () => {
  it("a finance user's pay-out is approved by an approver, both created by that admin", async () => {
    const first = await createUser(cliActor, {
      email: `first-admin-${randomUUID()}@test.local`,
      role: "admin",
      password: "first-admin-password",
    });
    await signInAs(first.id);
    const finance = await createdByAdmin("finance", "finance-first-password");
    const approver = await createdByAdmin("approver", "approver-first-password");
    expect(
      await db.user.findMany({
        where: { id: { in: [first.id, finance.id, approver.id] } },
        select: { id: true, passwordSetById: true },
      }),
    ).toEqual(
      expect.arrayContaining([
        { id: first.id, passwordSetById: null },
        { id: finance.id, passwordSetById: first.id },
        { id: approver.id, passwordSetById: first.id },
      ]),
    );
    const request = await awaiting(finance.id);

    await signInAs(approver.id);
    expect(await page(request.id, { id: approver.id, role: "approver" })).toEqual({
      can: { approve: true, reject: true, cancel: false, submit: false },
      reason: null,
    });
    expect(await approvePayoutAction(decision(request.id))).toMatchObject({ ok: true, status: "approved" });
  });
});

describe("two approvals are two people", () => {
  it("an admin approves, then is refused as the approver whose password they set", async () => {
    const finance = await createStaff("finance");
    await signInAs(admin.id);
    const approver = await createdByAdmin("approver", "admin-knows-this-one");
    const request = await awaiting(finance.id, 2);
    expect(await approvePayoutAction(decision(request.id))).toMatchObject({
      ok: true,
      status: "awaiting_approval",
      approvals: 1,
    });

    await signInAs(approver.id); // the admin, signed in with the password they chose
    expect(await approvePayoutAction(decision(request.id))).toEqual({
      ok: false,
      code: "password_linked_to_earlier_approver",
      message: LINKED,
    });
    expect(await page(request.id, { id: approver.id, role: "approver" })).toEqual({
      can: { approve: false, reject: true, cancel: false, submit: false },
      reason: LINKED,
    });
    expect(await db.payoutApproval.count({ where: { payoutRequestId: request.id } })).toBe(1);

    // an approver nobody here set the password of gives the second approval
    const other = await createStaff("approver");
    await signInAs(other.id);
    expect(await approvePayoutAction(decision(request.id))).toMatchObject({
      ok: true,
      status: "approved",
      approvals: 2,
    });
  });

  it("the other order: approved as the approver whose password the admin reset, then the admin is refused", async () => {
    const finance = await createStaff("finance");
    const approver = await createStaff("approver");
    await signInAs(admin.id);
    expect(
      await resetUserPasswordAction({ userId: approver.id, password: "reset-by-the-admin-3" }),
    ).toMatchObject({ ok: true });
    const request = await awaiting(finance.id, 2);
    await signInAs(approver.id);
    expect(await approvePayoutAction(decision(request.id))).toMatchObject({ ok: true, approvals: 1 });

    await signInAs(admin.id);
    expect(await approvePayoutAction(decision(request.id))).toEqual({
      ok: false,
      code: "password_linked_to_earlier_approver",
      message: LINKED,
    });
    expect(await page(request.id, { id: admin.id, role: "admin" })).toMatchObject({
      can: { approve: false, reject: true },
      reason: LINKED,
    });
    // rejecting stays open to the admin: the pay-out can be stopped
    expect(await rejectPayoutAction(decision(request.id))).toMatchObject({ ok: true, status: "rejected" });
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

describe("a single-sign-on-only approver has no password anyone set", () => {
  it("created single sign-on only by the admin, they approve that admin's pay-out", async () => {
    await signInAs(admin.id);
    const r = await createUserAction({
      email: `sso-approver-${randomUUID()}@test.local`,
      role: "approver",
      ssoOnly: true,
    });
    if (!r.ok || !("user" in r)) throw new Error(JSON.stringify(r));
    expect(
      await db.user.findUniqueOrThrow({ where: { id: r.user.id }, select: { passwordSetById: true } }),
    ).toEqual({ passwordSetById: null });
    const request = await awaiting(admin.id);

    await signInAs(r.user.id);
    expect(await page(request.id, { id: r.user.id, role: "approver" })).toEqual({
      can: { approve: true, reject: true, cancel: false, submit: false },
      reason: null,
    });
    expect(await approvePayoutAction(decision(request.id))).toMatchObject({ ok: true, status: "approved" });
  });

  it("an approver whose admin-set password the admin removed approves that admin's pay-out", async () => {
    await signInAs(admin.id);
    const approver = await createdByAdmin("approver", "admin-chose-then-removed");
    const request = await awaiting(admin.id);
    await signInAs(approver.id);
    expect(await approvePayoutAction(decision(request.id))).toMatchObject({
      ok: false,
      code: "password_set_by_maker",
    });

    await signInAs(admin.id);
    expect(await removeUserPasswordAction({ userId: approver.id })).toEqual({ ok: true });
    await signInAs(approver.id); // signed in again, with single sign-on
    expect(await approvePayoutAction(decision(request.id))).toMatchObject({ ok: true, status: "approved" });
  });
});
