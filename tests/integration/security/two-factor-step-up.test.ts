// Issue 15: a stolen password of an approver must not be enough to send a pay-out. Every action that
// moves money or changes who may do what refuses without a second factor proved within the step-up
// window, called directly as a server action (not through the page): action × {fresh, stale, none}
// plus a required user who never enrolled. A refusal changes nothing. On a database of its own, with
// the policy the product ships with (admin and approver must use two-factor).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { StaffActor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { forgetCachedSettings } from "@/lib/settings/settings";
import { isolateDatabase } from "../../support/database";
import { createStaff, insertOperations } from "../../support/mirror";
import { payoutForm } from "../../support/payouts";
import {
  codeFor,
  enrolUser,
  requireTwoFactorFor,
  sessionFor,
  type FakeSession,
  type SecondFactorAge,
} from "../../support/two-factor";

const session = vi.hoisted(() => ({ current: null as null | object }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current, ssoConfigured: () => false }));
vi.mock("next/headers", async () => (await import("../../support/next-request")).nextHeadersModule());
vi.mock("next/navigation", async () => (await import("../../support/next-request")).nextNavigationModule());
vi.mock("@/lib/queue/enqueue", () => ({
  enqueueJob: async () => null,
  enqueueTask: async () => randomUUID(),
}));

const { createPayoutRequest } = await import("@/lib/payouts/requests");
const payoutActions = await import("@/lib/actions/payouts");
const { revealPayoutRecipientNumberAction } = await import("@/lib/actions/payout-recipients");
const { revealRecipientNumberAction } = await import("@/lib/actions/operations");
const { revealWebhookBodyAction } = await import("@/lib/actions/webhooks");
const { saveSettingAction } = await import("@/lib/actions/settings");
const userActions = await import("@/lib/actions/users");
const twoFactorActions = await import("@/lib/actions/two-factor");
const { authorize } = await import("@/lib/auth/authorize");
const { withPermission } = await import("@/lib/auth/route");
const { requirePagePermission, requireSignedIn } = await import("@/lib/auth/session");

let restore: () => Promise<void>;
const staff = {} as Record<"admin" | "approver" | "finance", StaffActor & { secret: string }>;

beforeAll(async () => {
  restore = await isolateDatabase();
  forgetCachedSettings();
  await requireTwoFactorFor(["admin", "approver"]);
  for (const role of ["admin", "approver", "finance"] as const) {
    const u = await createStaff(role);
    staff[role] = { id: u.id, email: u.email, role, secret: await enrolUser(u.id) };
  }
});
afterAll(async () => {
  forgetCachedSettings();
  await restore();
});
beforeEach(() => {
  session.current = null;
});

const signInWith = (s: FakeSession | null) => (session.current = s);
const db = () => getDb();

async function auditCount(action: string, targetId?: string): Promise<number> {
  return db().auditLog.count({ where: { action, ...(targetId ? { targetId } : {}) } });
}

/** Each action with what it changes, checked after a refusal (unchanged) and an allowed call (changed). */
type Case = {
  name: string;
  role: "admin" | "approver";
  /** Makes what the action works on; returns the action call and the check of its effect. */
  arrange: () => Promise<{ run: () => Promise<unknown>; done: () => Promise<boolean> }>;
};

const cases: Case[] = [
  {
    name: "approve a pay-out",
    role: "approver",
    arrange: async () => {
      const maker = await createStaff("finance");
      const created = await createPayoutRequest(payoutForm(), {
        id: maker.id,
        email: maker.email,
        role: "finance",
      });
      if (!created.ok) throw new Error(created.message);
      return {
        run: () => payoutActions.approvePayoutAction({ id: created.id, comment: "fine" }),
        done: async () =>
          (await db().payoutRequest.findUniqueOrThrow({ where: { id: created.id } })).status === "approved",
      };
    },
  },
  {
    name: "change a setting",
    role: "admin",
    arrange: async () => {
      // A value other than the stored one, so a refusal can never look like a change.
      const stored = await db().setting.findUnique({ where: { key: "stuckOperationMinutes" } });
      const minutes = (typeof stored?.value === "number" ? stored.value : 100) + 1;
      return {
        run: () => saveSettingAction({ key: "stuckOperationMinutes", value: String(minutes) }),
        done: async () =>
          (await db().setting.findUnique({ where: { key: "stuckOperationMinutes" } }))?.value === minutes,
      };
    },
  },
  {
    name: "create a user",
    role: "admin",
    arrange: async () => {
      const email = `new-${randomUUID()}@example.test`;
      return {
        run: () =>
          userActions.createUserAction({ email, role: "support", password: "a long enough password" }),
        done: async () => (await db().user.count({ where: { email } })) === 1,
      };
    },
  },
  {
    name: "change a user's role",
    role: "admin",
    arrange: async () => {
      const target = await createStaff("support");
      return {
        run: () => userActions.setUserRoleAction({ userId: target.id, role: "finance" }),
        done: async () =>
          (await db().user.findUniqueOrThrow({ where: { id: target.id } })).role === "finance",
      };
    },
  },
  {
    name: "disable a user",
    role: "admin",
    arrange: async () => {
      const target = await createStaff("support");
      return {
        run: () => userActions.disableUserAction({ userId: target.id }),
        done: async () =>
          (await db().user.findUniqueOrThrow({ where: { id: target.id } })).disabledAt !== null,
      };
    },
  },
  {
    name: "reset a user's password",
    role: "admin",
    arrange: async () => {
      const target = await createStaff("support");
      return {
        run: () => userActions.resetUserPasswordAction({ userId: target.id }),
        done: async () =>
          (await db().user.findUniqueOrThrow({ where: { id: target.id } })).sessionVersion > 0,
      };
    },
  },
  {
    name: "reset a user's second factor",
    role: "admin",
    arrange: async () => {
      const target = await createStaff("approver");
      await enrolUser(target.id);
      return {
        run: () => twoFactorActions.resetUserTwoFactorAction({ userId: target.id }),
        done: async () =>
          (await db().user.findUniqueOrThrow({ where: { id: target.id } })).totpEnrolledAt === null,
      };
    },
  },
  {
    name: "reveal a pay-out's recipient number",
    role: "approver",
    arrange: async () => {
      const maker = await createStaff("finance");
      const created = await createPayoutRequest(payoutForm(), {
        id: maker.id,
        email: maker.email,
        role: "finance",
      });
      if (!created.ok) throw new Error(created.message);
      return {
        run: () => revealPayoutRecipientNumberAction({ id: created.id }),
        done: async () => (await auditCount("recipient.reveal", created.id)) === 1,
      };
    },
  },
  {
    name: "reveal an operation's recipient number",
    role: "admin",
    arrange: async () => {
      const [id] = await insertOperations([
        { dateAdded: new Date(), typeOperation: "payOut", detailsNumber: "2200150123456789" },
      ]);
      return {
        run: () => revealRecipientNumberAction({ id }),
        done: async () => (await auditCount("recipient.reveal", id)) === 1,
      };
    },
  },
  {
    name: "reveal the numbers of a webhook body",
    role: "admin",
    arrange: async () => {
      const body = JSON.stringify({ paymentDetailsData: { number: "2200150123456789" } });
      const delivery = await db().webhookDelivery.create({
        data: { headers: {}, body, bodyBytes: body.length, outcome: "malformed" },
      });
      const id = delivery.id.toString();
      return {
        run: () => revealWebhookBodyAction({ id }),
        done: async () => (await db().auditLog.count({ where: { targetId: id } })) > 0,
      };
    },
  },
];

const ages: Array<[SecondFactorAge, "allowed" | "step_up_required"]> = [
  ["fresh", "allowed"],
  ["stale", "step_up_required"],
  ["none", "step_up_required"],
];

describe.each(cases)("$name", ({ role, arrange }) => {
  it.each(ages)("second factor %s -> %s", async (age, expected) => {
    const { run, done } = await arrange();
    signInWith(await sessionFor(staff[role].id, age));
    const result = (await run()) as { ok: boolean; code?: string; method?: string };
    if (expected === "allowed") {
      expect(result).toMatchObject({ ok: true });
      expect(await done()).toBe(true);
    } else {
      expect(result).toMatchObject({ ok: false, code: "step_up_required", method: "totp" });
      expect(await done()).toBe(false);
    }
  });

  it("a required user who never enrolled: two_factor_required, nothing changes", async () => {
    const { run, done } = await arrange();
    const newcomer = await createStaff(role);
    signInWith(await sessionFor(newcomer.id, "none"));
    expect(await run()).toMatchObject({ ok: false, code: "two_factor_required" });
    expect(await done()).toBe(false);
  });
});

describe("step-up, then the same action again", () => {
  it("a stale session asks; a right code makes it fresh (audited), and the retry goes through", async () => {
    const { arrange } = cases[0]!;
    const { run, done } = await arrange();
    const approver = staff.approver;
    signInWith(await sessionFor(approver.id, "stale"));
    expect(await run()).toMatchObject({ code: "step_up_required" });

    expect(await twoFactorActions.verifyStepUpAction({ code: "000000" })).toMatchObject({
      ok: false,
      code: "wrong_code",
    });
    expect(await run()).toMatchObject({ code: "step_up_required" });
    const code = codeFor(approver.secret);
    expect(await twoFactorActions.verifyStepUpAction({ code })).toEqual({ ok: true });
    // the same code a second time is refused (each code once)
    expect(await twoFactorActions.verifyStepUpAction({ code })).toMatchObject({
      ok: false,
      code: "wrong_code",
    });
    expect(await run()).toMatchObject({ ok: true });
    expect(await done()).toBe(true);

    const entries = await db().auditLog.findMany({
      where: { actorUserId: approver.id, action: { startsWith: "twoFactor.stepUp" } },
      orderBy: { id: "asc" },
      select: { action: true, after: true },
    });
    expect(entries.slice(-3)).toEqual([
      { action: "twoFactor.stepUp.fail", after: { reason: "wrong_code" } },
      { action: "twoFactor.stepUp.pass", after: { method: "totp" } },
      { action: "twoFactor.stepUp.fail", after: { reason: "wrong_code" } },
    ]);
  });

  it("a stale step-up on one session does not become fresh through another session's code", async () => {
    const admin = staff.admin;
    const other = await sessionFor(admin.id, "stale");
    const mine = await sessionFor(admin.id, "stale");
    signInWith(other);
    expect(await twoFactorActions.verifyStepUpAction({ code: codeFor(admin.secret) })).toEqual({ ok: true });
    signInWith(mine);
    expect(await saveSettingAction({ key: "stuckOperationMinutes", value: "77" })).toMatchObject({
      code: "step_up_required",
    });
  });

  it("single sign-on with the provider's MFA: fresh passes; stale asks to sign in again (method sso)", async () => {
    const approver = await createStaff("approver");
    const sid = await import("@/lib/auth/session-store").then((m) =>
      m.startSession(approver.id, new Date(), { identityProviderMfa: true, secondFactorAt: new Date() }),
    );
    const row = await db().session.findUniqueOrThrow({ where: { sessionToken: sid } });
    signInWith({ userId: approver.id, sessionVersion: 0, sessionId: row.id });
    const { run } = await cases[0]!.arrange();
    expect(await run()).toMatchObject({ ok: true });
    await db().session.update({
      where: { id: row.id },
      data: { secondFactorAt: new Date(Date.now() - 30 * 60_000) },
    });
    const next = await cases[0]!.arrange();
    expect(await next.run()).toMatchObject({ ok: false, code: "step_up_required", method: "sso" });
  });

  it("a role the policy does not require, without two-factor, is not asked (finance reveals a number)", async () => {
    const finance = await createStaff("finance");
    signInWith(await sessionFor(finance.id, "none"));
    const [id] = await insertOperations([
      { dateAdded: new Date(), typeOperation: "payOut", detailsNumber: "2200150123456789" },
    ]);
    expect(await revealRecipientNumberAction({ id })).toEqual({ ok: true, number: "2200150123456789" });
  });

  it("an enrolled finance user is asked like anyone who has a second factor", async () => {
    signInWith(await sessionFor(staff.finance.id, "stale"));
    const [id] = await insertOperations([
      { dateAdded: new Date(), typeOperation: "payOut", detailsNumber: "2200150123456789" },
    ]);
    expect(await revealRecipientNumberAction({ id })).toMatchObject({ code: "step_up_required" });
  });

  it("rejecting a pay-out needs no step-up (it moves no money)", async () => {
    const maker = await createStaff("finance");
    const created = await createPayoutRequest(payoutForm(), {
      id: maker.id,
      email: maker.email,
      role: "finance",
    });
    if (!created.ok) throw new Error(created.message);
    signInWith(await sessionFor(staff.approver.id, "stale"));
    expect(await payoutActions.rejectPayoutAction({ id: created.id, comment: "no" })).toMatchObject({
      ok: true,
    });
  });
});

describe("a required user who has not enrolled can reach nothing but enrolment", () => {
  let newcomer: FakeSession;
  beforeAll(async () => {
    const admin = await createStaff("admin");
    newcomer = await sessionFor(admin.id, "none");
  });

  it("actions without step-up refuse too", async () => {
    signInWith(newcomer);
    const { testConnectionAction } = await import("@/lib/actions/settings");
    expect(await testConnectionAction()).toMatchObject({ ok: false, code: "two_factor_required" });
    const { reprocessWebhookAction } = await import("@/lib/actions/webhooks");
    expect(await reprocessWebhookAction({ id: "1" })).toMatchObject({
      ok: false,
      code: "two_factor_required",
    });
  });

  it("route handlers answer 403 with the code", async () => {
    signInWith(newcomer);
    const handler = vi.fn(async () => Response.json({ ok: true }));
    const response = await withPermission(
      "operations.read",
      handler,
    )(new Request("http://paydesk.test/api/x"));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ ok: false, code: "two_factor_required" });
    expect(handler).not.toHaveBeenCalled();
  });

  it("pages and the console layout send them to /two-factor/setup; the setup page lets them in", async () => {
    signInWith(newcomer);
    const digest = async (run: () => Promise<unknown>) =>
      run().then(
        () => "no redirect",
        (e: unknown) =>
          String((e as { digest?: string; url?: string }).digest ?? (e as { url?: string }).url),
      );
    expect(await digest(() => requirePagePermission("operations.read"))).toContain("/two-factor/setup");
    expect(await digest(() => requireSignedIn())).toContain("/two-factor/setup");
    expect(await requireSignedIn({ allowBeforeEnrolment: true })).toMatchObject({ id: newcomer.userId });
  });

  it("setting it up, and choosing a language, work", async () => {
    signInWith(newcomer);
    expect(await authorize("profile.update")).toMatchObject({ ok: true });
    const started = await twoFactorActions.startEnrolmentAction();
    expect(started).toMatchObject({ ok: true });
    const secret = (started as { secret: string }).secret;
    const confirmed = await twoFactorActions.confirmEnrolmentAction({ code: codeFor(secret) });
    expect(confirmed).toMatchObject({ ok: true });
    // enrolled, and the enrolment's code counts as a fresh second factor for this session
    const { run, done } = await cases[1]!.arrange();
    expect(await run()).toMatchObject({ ok: true });
    expect(await done()).toBe(true);
  });
});

describe("an admin resets someone's second factor", () => {
  it("secret, recovery codes and sessions go, the session version moves on; audited", async () => {
    const target = await createStaff("approver");
    await enrolUser(target.id);
    await db().recoveryCode.create({ data: { userId: target.id, codeHash: "x" } });
    const theirs = await sessionFor(target.id, "fresh");
    signInWith(await sessionFor(staff.admin.id, "fresh"));
    expect(await twoFactorActions.resetUserTwoFactorAction({ userId: target.id })).toEqual({ ok: true });
    const after = await db().user.findUniqueOrThrow({
      where: { id: target.id },
      select: { totpSecret: true, totpEnrolledAt: true, sessionVersion: true },
    });
    expect(after).toEqual({ totpSecret: null, totpEnrolledAt: null, sessionVersion: 1 });
    expect(await db().recoveryCode.count({ where: { userId: target.id } })).toBe(0);
    expect(await db().session.count({ where: { id: theirs.sessionId } })).toBe(0);
    const entry = await db().auditLog.findFirstOrThrow({
      where: { action: "twoFactor.reset", targetId: target.id },
    });
    expect(entry).toMatchObject({ actorUserId: staff.admin.id, targetType: "user" });
  });

  it("not one's own (that goes through one's own page, with a code)", async () => {
    signInWith(await sessionFor(staff.admin.id, "fresh"));
    expect(await twoFactorActions.resetUserTwoFactorAction({ userId: staff.admin.id })).toMatchObject({
      ok: false,
      code: "not_allowed",
    });
  });

  it("a finance user may not (users.manage)", async () => {
    signInWith(await sessionFor(staff.finance.id, "fresh"));
    expect(await twoFactorActions.resetUserTwoFactorAction({ userId: staff.approver.id })).toMatchObject({
      ok: false,
      code: "forbidden",
    });
  });
});

describe("the policy setting", () => {
  it("takes known roles only (in the order of the role list) and a window of 1 to 60 minutes; a bad value changes nothing", async () => {
    signInWith(await sessionFor(staff.admin.id, "fresh"));
    expect(
      await saveSettingAction({ key: "twoFactorRequiredRoles", value: ["approver", "auditor"] }),
    ).toMatchObject({ ok: false, code: "invalid" });
    expect(await saveSettingAction({ key: "stepUpFreshMinutes", value: "0" })).toMatchObject({ ok: false });
    expect(await saveSettingAction({ key: "stepUpFreshMinutes", value: "61" })).toMatchObject({ ok: false });
    const stored = await db().setting.findUniqueOrThrow({ where: { key: "twoFactorRequiredRoles" } });
    expect(stored.value).toEqual(["admin", "approver"]);
    expect(
      await saveSettingAction({ key: "twoFactorRequiredRoles", value: ["approver", "admin", "admin"] }),
    ).toEqual({ ok: true, key: "twoFactorRequiredRoles", value: ["admin", "approver"] });
    expect(await saveSettingAction({ key: "stepUpFreshMinutes", value: "10" })).toEqual({
      ok: true,
      key: "stepUpFreshMinutes",
      value: 10,
    });
    // a second factor 6 minutes old is fresh under a 10-minute window
    signInWith(await sessionFor(staff.admin.id, "stale"));
    expect(await saveSettingAction({ key: "stepUpFreshMinutes", value: "5" })).toMatchObject({ ok: true });
    const entries = await db().auditLog.findMany({
      where: {
        action: "settings.update",
        targetId: { in: ["twoFactorRequiredRoles", "stepUpFreshMinutes"] },
      },
      orderBy: { id: "asc" },
      select: { targetId: true, after: true },
    });
    expect(entries.slice(-3)).toEqual([
      { targetId: "twoFactorRequiredRoles", after: { twoFactorRequiredRoles: ["admin", "approver"] } },
      { targetId: "stepUpFreshMinutes", after: { stepUpFreshMinutes: 10 } },
      { targetId: "stepUpFreshMinutes", after: { stepUpFreshMinutes: 5 } },
    ]);
  });
});

describe("in Russian", () => {
  it("step-up and enrolment refusals, for users who chose Russian", async () => {
    const approver = await createStaff("approver");
    await enrolUser(approver.id);
    await db().user.update({ where: { id: approver.id }, data: { locale: "ru" } });
    signInWith(await sessionFor(approver.id, "stale"));
    const { run } = await cases[0]!.arrange();
    expect(await run()).toEqual({
      ok: false,
      code: "step_up_required",
      method: "totp",
      message: "Введите код из приложения-аутентификатора, чтобы подтвердить действие.",
    });
    const newcomer = await createStaff("admin");
    await db().user.update({ where: { id: newcomer.id }, data: { locale: "ru" } });
    signInWith(await sessionFor(newcomer.id, "none"));
    expect(await saveSettingAction({ key: "stuckOperationMinutes", value: "50" })).toEqual({
      ok: false,
      code: "two_factor_required",
      message: "Сначала настройте двухфакторную аутентификацию: этого требует ваша роль.",
    });
  });
});
