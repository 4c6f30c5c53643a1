// Two-factor at its edges, function by function: whose challenges a new one removes, the challenge
// cookie, the code step for a disabled or (no longer) locked user, races between two right codes,
// which rows a reset or a disable touches, the lock's key and its exact moment, and what the account
// page is told. The flows as a user meets them are in two-factor-sign-in and two-factor-enrolment.
import { createHash } from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { createStaff } from "../../support/mirror";
import { browser } from "../../support/next-request";
import { codeFor, enrolUser, sessionFor } from "../../support/two-factor";

vi.mock("next/headers", async () => (await import("../../support/next-request")).nextHeadersModule());

const { failedAttempts } = await import("@/lib/auth/credentials");
const { signingInActor } = await import("@/lib/auth/two-factor/audit");
const enrolment = await import("@/lib/auth/two-factor/enrolment");
const challenge = await import("@/lib/auth/two-factor/sign-in");
const { acceptTotp, verifySecondFactor } = await import("@/lib/auth/two-factor/verify");
const recovery = await import("@/lib/auth/two-factor/recovery-codes");
const { twoFactorOverview } = await import("@/lib/auth/two-factor/overview");
const { markSecondFactor } = await import("@/lib/auth/two-factor/step-up");
const { encryptSecret } = await import("@/lib/auth/two-factor/secret-crypto");
const { newTotpSecret } = await import("@/lib/auth/two-factor/totp");

const noWait = async () => {};
const MISSING_USER = "00000000-0000-4000-8000-000000000000";

beforeEach(() => {
  failedAttempts.reset();
  browser.clear();
});

/** An enrolled user (secret stored as enrolment stores it, enrolled a minute ago). */
async function enrolled(role: "admin" | "finance" | "approver" | "support" = "approver") {
  const user = await createStaff(role);
  const secret = await enrolUser(user.id, new Date(Date.now() - 60_000));
  return { ...user, secret, actor: await signingInActor(user) };
}

/** The user's own recovery codes, stored as enrolment stores them. */
async function withRecoveryCodes(userId: string): Promise<string[]> {
  const codes = recovery.generateRecoveryCodes();
  const hashes = await recovery.hashRecoveryCodes(codes);
  await getDb().$transaction((tx) => recovery.replaceRecoveryCodes(tx, userId, hashes));
  return codes;
}

const userRow = (id: string) =>
  getDb().user.findUniqueOrThrow({
    where: { id },
    select: { failedSignIns: true, lockedUntil: true, totpSecret: true, totpEnrolledAt: true },
  });
const challengesOf = (userId: string) =>
  getDb().signInChallenge.findMany({ where: { userId }, select: { attempts: true } });
const auditOf = (userId: string, action: string) =>
  getDb().auditLog.findMany({ where: { targetId: userId, action }, select: { after: true } });
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("opening a challenge", () => {
  it("removes the user's older challenges and anyone's expired ones, never another user's live one", async () => {
    const [a, b, c] = await Promise.all([enrolled(), enrolled(), enrolled()]);
    const now = new Date();
    await challenge.openChallenge(a.id, new Date(now.getTime() - 60_000));
    await challenge.openChallenge(b.id, now);
    await challenge.openChallenge(c.id, new Date(now.getTime() - 6 * 60_000)); // expired a minute ago
    await challenge.openChallenge(a.id, now);
    expect(await challengesOf(a.id)).toHaveLength(1);
    expect(await challengesOf(b.id)).toHaveLength(1);
    expect(await challengesOf(c.id)).toHaveLength(0);
  });
});

describe("the challenge cookie", () => {
  it("httpOnly, SameSite=Lax, the whole site, not Secure over plain http, as long as the challenge", async () => {
    await challenge.setChallengeCookie("token-1");
    expect(challenge.CHALLENGE_COOKIE).toBe("paydesk-sign-in");
    expect(browser.jar.get("paydesk-sign-in")).toEqual({
      value: "token-1",
      options: { httpOnly: true, sameSite: "lax", path: "/", secure: false, maxAge: 300 },
    });
    await challenge.clearChallengeCookie();
    expect(browser.jar.has("paydesk-sign-in")).toBe(false);
  });

  it.each([
    ["x".repeat(200), "x".repeat(200)],
    ["x".repeat(201), null],
    ["", null],
  ])("a cookie of %#: read as it came, or not at all when longer than 200", async (value, read) => {
    browser.jar.set(challenge.CHALLENGE_COOKIE, { value });
    expect(await challenge.readChallengeCookie()).toBe(read);
  });

  it("no cookie: nothing", async () => {
    expect(await challenge.readChallengeCookie()).toBeNull();
  });
});

describe("the code step", () => {
  it("answers with the user Auth.js needs, enrolled", async () => {
    const u = await enrolled("admin");
    const token = await challenge.openChallenge(u.id);
    const { sessionVersion } = await getDb().user.findUniqueOrThrow({ where: { id: u.id } });
    expect(await challenge.completeChallenge(token, codeFor(u.secret), new Date(), noWait)).toEqual({
      ok: true,
      user: {
        id: u.id,
        email: u.email,
        name: u.name,
        role: "admin",
        sessionVersion,
        twoFactorEnrolled: true,
      },
    });
  });

  it("a user disabled while the challenge waited: the right code opens nothing, and the challenge is spent", async () => {
    const u = await enrolled();
    const token = await challenge.openChallenge(u.id);
    await getDb().user.update({ where: { id: u.id }, data: { disabledAt: new Date() } });
    expect(await challenge.completeChallenge(token, codeFor(u.secret), new Date(), noWait)).toEqual({
      ok: false,
      reason: "disabled",
    });
    expect(await challengesOf(u.id)).toHaveLength(0);
  });

  it.each([
    ["ended a millisecond ago", -1, true],
    ["ending at this very moment", 0, true],
    ["ending a millisecond from now", 1, false],
  ])(
    "a lock %s: the right code %s (while locked it is not checked, and refused as any other)",
    async (_, offsetMs, opens) => {
      const u = await enrolled();
      const now = new Date();
      const token = await challenge.openChallenge(u.id, now);
      await getDb().user.update({
        where: { id: u.id },
        data: { lockedUntil: new Date(now.getTime() + offsetMs) },
      });
      const result = await challenge.completeChallenge(token, codeFor(u.secret, now), now, noWait);
      expect(result.ok ? "opened" : result.reason).toBe(opens ? "opened" : "invalid");
    },
  );

  it("a wrong code counts against this challenge only, and against the account under its email", async () => {
    const [u, other] = await Promise.all([enrolled(), enrolled()]);
    const otherToken = await challenge.openChallenge(other.id);
    const token = await challenge.openChallenge(u.id);
    await getDb().user.update({ where: { id: u.id }, data: { failedSignIns: 2 } });
    await challenge.completeChallenge(token, "000000", new Date(), noWait);
    expect(await challengesOf(u.id)).toEqual([{ attempts: 1 }]);
    expect(await challengesOf(other.id)).toEqual([{ attempts: 0 }]);
    expect((await userRow(u.id)).failedSignIns).toBe(3);
    expect(failedAttempts.used(u.email.toLowerCase(), Date.now())).toBe(1);

    for (let i = 1; i < challenge.MAX_ATTEMPTS; i++) {
      await getDb().user.update({ where: { id: u.id }, data: { failedSignIns: 0, lockedUntil: null } });
      await challenge.completeChallenge(token, "000000", new Date(), noWait);
    }
    expect(await challengesOf(u.id)).toEqual([]);
    expect(await challengesOf(other.id)).toEqual([{ attempts: 0 }]);
    expect(
      await challenge.completeChallenge(otherToken, codeFor(other.secret), new Date(), noWait),
    ).toMatchObject({
      ok: true,
    });
  });

  it("a made-up token is counted under that token's hash, not under anyone's email", async () => {
    expect(await challenge.completeChallenge("made-up", "123456", new Date(), noWait)).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(failedAttempts.used(`challenge:${sha256("made-up")}`, Date.now())).toBe(1);
  });

  it("a code from the app leaves no recovery-code entry in the audit log", async () => {
    const u = await enrolled();
    const token = await challenge.openChallenge(u.id);
    await challenge.completeChallenge(token, codeFor(u.secret), new Date(), noWait);
    expect(await auditOf(u.id, "twoFactor.recoveryCode.use")).toEqual([]);
  });

  it("two right codes racing on one challenge (the app's and a recovery code): one opens, the other is refused", async () => {
    const u = await enrolled();
    const [code] = await withRecoveryCodes(u.id);
    const token = await challenge.openChallenge(u.id);
    const results = await Promise.all([
      challenge.completeChallenge(token, codeFor(u.secret), new Date(), noWait),
      challenge.completeChallenge(token, code!, new Date(), noWait),
    ]);
    expect(results.map((r) => r.ok).sort()).toEqual([false, true]);
    expect(results.find((r) => !r.ok)).toEqual({ ok: false, reason: "invalid" });
  });
});

describe("enrolment, step-up, regenerate, disable and reset", () => {
  it("isEnrolled: only a confirmed enrolment counts", async () => {
    const u = await enrolled();
    const starting = await createStaff("finance");
    await enrolment.startEnrolment(await signingInActor(starting));
    expect(await enrolment.isEnrolled(u.id)).toBe(true);
    expect(await enrolment.isEnrolled(starting.id)).toBe(false);
    expect(await enrolment.isEnrolled(MISSING_USER)).toBe(false);
  });

  it("starting again once enrolled is refused and keeps the secret", async () => {
    const u = await enrolled();
    const before = await userRow(u.id);
    expect(await enrolment.startEnrolment(u.actor)).toEqual({ ok: false, code: "already_enrolled" });
    expect(await userRow(u.id)).toEqual(before);
  });

  it("an actor whose user row is gone: nothing is stored and nothing confirmed", async () => {
    const actor = { ...(await signingInActor(await createStaff("finance"))), id: MISSING_USER };
    expect(await enrolment.startEnrolment(actor)).toEqual({ ok: false, code: "already_enrolled" });
    expect(await enrolment.confirmEnrolment(actor, null, "123456")).toEqual({
      ok: false,
      code: "no_enrolment",
    });
  });

  it("an enrolled user's wrong code, from the app or as a recovery code: exactly a refusal", async () => {
    const u = await enrolled();
    const row = await getDb().user.findUniqueOrThrow({
      where: { id: u.id },
      select: { id: true, totpSecret: true, totpEnrolledAt: true, totpLastStep: true },
    });
    expect(await verifySecondFactor(row, "000000", new Date())).toEqual({ ok: false });
    expect(await verifySecondFactor(row, "abcde-fghjk", new Date())).toEqual({ ok: false });
  });

  it("confirming when already enrolled is refused before any code is checked", async () => {
    const u = await enrolled();
    expect(await enrolment.confirmEnrolment(u.actor, null, codeFor(u.secret))).toEqual({
      ok: false,
      code: "already_enrolled",
    });
    expect((await getDb().user.findUniqueOrThrow({ where: { id: u.id } })).totpLastStep).toBeNull();
  });

  it("step-up for a user who is not enrolled: not_enrolled, audited as a failure", async () => {
    const user = await createStaff("finance");
    const actor = await signingInActor(user);
    expect(await enrolment.stepUp(actor, null, "123456")).toEqual({ ok: false, code: "not_enrolled" });
    expect(await auditOf(user.id, "twoFactor.stepUp.fail")).toEqual([{ after: { reason: "not_enrolled" } }]);
    expect((await userRow(user.id)).failedSignIns).toBe(0);
  });

  it.each([
    ["ended a millisecond ago", -1, { ok: true }],
    ["ending at this very moment", 0, { ok: true }],
    ["ending a millisecond from now", 1, { ok: false, code: "locked" }],
  ])("step-up with a lock %s", async (_, offsetMs, answer) => {
    const u = await enrolled();
    const now = new Date();
    await getDb().user.update({
      where: { id: u.id },
      data: { lockedUntil: new Date(now.getTime() + offsetMs) },
    });
    expect(await enrolment.stepUp(u.actor, null, codeFor(u.secret, now), now)).toEqual(answer);
  });

  it("a wrong step-up code counts against the account under its email; a right one clears the count", async () => {
    const u = await enrolled();
    expect(await enrolment.stepUp(u.actor, null, "000000")).toEqual({ ok: false, code: "wrong_code" });
    expect((await userRow(u.id)).failedSignIns).toBe(1);
    expect(failedAttempts.used(u.email.toLowerCase(), Date.now())).toBe(1);
    expect(await enrolment.stepUp(u.actor, null, codeFor(u.secret, new Date()))).toEqual({ ok: true });
    expect((await userRow(u.id)).failedSignIns).toBe(0);
  });

  it("a recovery code spent on new codes or on turning two-factor off is audited with what it was for", async () => {
    const u = await enrolled();
    const [first, second] = await withRecoveryCodes(u.id);
    expect(await enrolment.regenerateRecoveryCodes(u.actor, first!)).toMatchObject({ ok: true });
    expect(await recovery.remainingRecoveryCodes(u.id)).toBe(10);
    expect(await enrolment.disableTwoFactor(u.actor, second!)).toEqual({ ok: false, code: "wrong_code" });

    const v = await enrolled();
    const [code] = await withRecoveryCodes(v.id);
    expect(await enrolment.disableTwoFactor(v.actor, code!)).toEqual({ ok: true });
    const uses = [
      ...(await auditOf(u.id, "twoFactor.recoveryCode.use")),
      ...(await auditOf(v.id, "twoFactor.recoveryCode.use")),
    ];
    expect(uses).toEqual([
      { after: { during: "regenerate", remaining: 9 } },
      { after: { during: "disable", remaining: 9 } },
    ]);
  });

  it("turning it off removes the user's own recovery codes only", async () => {
    const [u, other] = await Promise.all([enrolled(), enrolled()]);
    await Promise.all([withRecoveryCodes(u.id), withRecoveryCodes(other.id)]);
    expect(await enrolment.disableTwoFactor(u.actor, codeFor(u.secret))).toEqual({ ok: true });
    expect(await getDb().recoveryCode.count({ where: { userId: u.id } })).toBe(0);
    expect(await getDb().recoveryCode.count({ where: { userId: other.id } })).toBe(10);
  });

  it("an admin's reset removes that user's recovery codes and challenges only", async () => {
    const [u, other, admin] = await Promise.all([enrolled(), enrolled(), enrolled("admin")]);
    await Promise.all([withRecoveryCodes(u.id), withRecoveryCodes(other.id)]);
    await Promise.all([challenge.openChallenge(u.id), challenge.openChallenge(other.id)]);
    await enrolment.resetTwoFactor(admin.actor, u.id);
    expect(await getDb().recoveryCode.count({ where: { userId: u.id } })).toBe(0);
    expect(await challengesOf(u.id)).toHaveLength(0);
    expect(await getDb().recoveryCode.count({ where: { userId: other.id } })).toBe(10);
    expect(await challengesOf(other.id)).toHaveLength(1);
  });
});

describe("checking a code", () => {
  it("a user half way through enrolment (secret stored, not confirmed) has no codes to check", async () => {
    const user = await createStaff("finance");
    const secret = newTotpSecret();
    await getDb().user.update({
      where: { id: user.id },
      data: { totpSecret: encryptSecret(secret, user.id) },
    });
    const row = {
      id: user.id,
      totpSecret: encryptSecret(secret, user.id),
      totpEnrolledAt: null,
      totpLastStep: null,
    };
    expect(await verifySecondFactor(row, codeFor(secret), new Date())).toEqual({ ok: false });
    expect(await verifySecondFactor(row, "abcde-fghjk", new Date())).toEqual({ ok: false });
  });

  it("an enrolment without a stored secret checks no code from the app", async () => {
    const u = await enrolled();
    const row = { id: u.id, totpSecret: null, totpEnrolledAt: new Date(), totpLastStep: null };
    expect(await verifySecondFactor(row, codeFor(u.secret), new Date())).toEqual({ ok: false });
  });

  it("acceptTotp for a user that does not exist: refused", async () => {
    const secret = newTotpSecret();
    expect(await acceptTotp(MISSING_USER, secret, codeFor(secret), new Date())).toBe(false);
  });

  it("a recovery code that cannot be one spends nothing", async () => {
    const u = await enrolled();
    await withRecoveryCodes(u.id);
    expect(await recovery.spendRecoveryCode(u.id, "not a code", new Date())).toBe(false);
    expect(await recovery.remainingRecoveryCodes(u.id)).toBe(10);
  });

  it("new recovery codes replace the user's own only", async () => {
    const [u, other] = await Promise.all([enrolled(), enrolled()]);
    await withRecoveryCodes(other.id);
    await withRecoveryCodes(u.id);
    await withRecoveryCodes(u.id);
    expect(await recovery.remainingRecoveryCodes(u.id)).toBe(10);
    expect(await recovery.remainingRecoveryCodes(other.id)).toBe(10);
  });
});

describe("the session's proof", () => {
  it("is written on the user's own session only, and not at all without one", async () => {
    const [u, other] = await Promise.all([enrolled(), enrolled()]);
    const mine = await sessionFor(u.id, "none");
    const theirs = await sessionFor(other.id, "none");
    const at = new Date("2026-11-23T10:00:00Z");
    await expect(markSecondFactor(null, u.id, at)).resolves.toBeUndefined();
    await markSecondFactor(theirs.sessionId, u.id, at);
    await markSecondFactor(mine.sessionId, u.id, at);
    const rows = await getDb().session.findMany({
      where: { id: { in: [mine.sessionId, theirs.sessionId] } },
      select: { id: true, secondFactorAt: true },
    });
    expect(new Map(rows.map((r) => [r.id, r.secondFactorAt]))).toEqual(
      new Map([
        [mine.sessionId, at],
        [theirs.sessionId, null],
      ]),
    );
  });
});

describe("the account page's overview", () => {
  const signedInAs = (
    user: {
      id: string;
      email: string;
      name: string | null;
      role: "admin" | "finance" | "approver" | "support";
    },
    verifiedAt: Date | null,
    identityProviderMfa = false,
  ) => ({
    user,
    secondFactor: { sessionId: null, enrolled: true, identityProviderMfa, verifiedAt },
  });

  it("enrolled, codes left, fresh within the window (no role is required in the tests' settings)", async () => {
    const u = await enrolled("approver");
    const [code] = await withRecoveryCodes(u.id);
    await recovery.spendRecoveryCode(u.id, code!, new Date());
    const { totpEnrolledAt } = await userRow(u.id);
    const now = new Date();
    expect(await twoFactorOverview(signedInAs(u, new Date(now.getTime() - 60_000), true), now)).toEqual({
      enrolledAt: totpEnrolledAt,
      remainingRecoveryCodes: 9,
      required: false,
      identityProviderMfa: true,
      verifiedAt: new Date(now.getTime() - 60_000),
      stepUpFresh: true,
      stepUpFreshMinutes: 5,
    });
  });

  it("not enrolled, never verified or verified too long ago", async () => {
    const user = await createStaff("finance");
    const now = new Date();
    expect(await twoFactorOverview(signedInAs(user, null), now)).toMatchObject({
      enrolledAt: null,
      remainingRecoveryCodes: 0,
      required: false,
      identityProviderMfa: false,
      verifiedAt: null,
      stepUpFresh: false,
    });
    const stale = new Date(now.getTime() - 5 * 60_000);
    expect((await twoFactorOverview(signedInAs(user, stale), now)).stepUpFresh).toBe(false);
  });

  it("a user row that is gone reads as not enrolled", async () => {
    const gone = { id: MISSING_USER, email: "gone@example.test", name: null, role: "support" as const };
    expect((await twoFactorOverview(signedInAs(gone, null))).enrolledAt).toBeNull();
  });
});
