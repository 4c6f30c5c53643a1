// Issue 15, sign-in: for a user enrolled in two-factor the password is only the first step. It opens
// no session: a short-lived challenge (httpOnly cookie, hashed in the database) waits for a code, and
// the Auth.js credentials provider opens the session only with the challenge and a right code. Wrong
// codes count towards the account's lock like wrong passwords. Runs the real sign-in actions and
// Auth.js against a stand-in request scope (tests/support/next-request.ts).
import { createHash, randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { cliActor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { createUser } from "@/lib/users/service";
import { APP_ORIGIN, browser, followAction, postCredentials } from "../../support/next-request";
import { codeFor, enrolUser } from "../../support/two-factor";

const language = vi.hoisted(() => ({ accept: "en" }));
vi.mock("next/headers", async () => {
  const harness = (await import("../../support/next-request")).nextHeadersModule();
  return {
    ...harness,
    headers: async () => {
      const h = await harness.headers();
      h.set("accept-language", language.accept);
      return h;
    },
  };
});
vi.mock("next/navigation", async () => (await import("../../support/next-request")).nextNavigationModule());

const { signInAction } = await import("@/lib/auth/sign-in-action");
const { signInCodeAction } = await import("@/lib/auth/two-factor/sign-in-action");
const { completeChallenge, openChallenge, CHALLENGE_COOKIE, MAX_ATTEMPTS } =
  await import("@/lib/auth/two-factor/sign-in");
const { failedAttempts, LOCK_AFTER_FAILURES } = await import("@/lib/auth/credentials");
const { auth, handlers } = await import("@/lib/auth/config");
const { generateRecoveryCodes, hashRecoveryCodes, replaceRecoveryCodes } =
  await import("@/lib/auth/two-factor/recovery-codes");

const password = "correct horse battery";
const SESSION_COOKIE = "authjs.session-token";
const noWait = async () => {};

async function enrolled(role: "approver" | "admin" = "approver") {
  const email = `twofa-${randomUUID()}@example.test`;
  const user = await createUser(cliActor, { email, role, password });
  const secret = await enrolUser(user.id, new Date(Date.now() - 60_000));
  return { id: user.id, email, secret };
}

async function passwordStep(email: string, pass = password, callbackUrl?: string) {
  const form = new FormData();
  form.set("email", email);
  form.set("password", pass);
  if (callbackUrl) form.set("callbackUrl", callbackUrl);
  return followAction(() => signInAction(null, form));
}

async function codeStep(code: string, callbackUrl?: string) {
  const form = new FormData();
  form.set("code", code);
  if (callbackUrl) form.set("callbackUrl", callbackUrl);
  return followAction(() => signInCodeAction(null, form));
}

const user = (id: string) =>
  getDb().user.findUniqueOrThrow({
    where: { id },
    select: { failedSignIns: true, lockedUntil: true, lastSignInAt: true, totpLastStep: true },
  });

beforeEach(() => {
  browser.clear();
  failedAttempts.reset();
  language.accept = "en";
});

describe("the password step of an enrolled user", () => {
  it("opens no session: the browser goes to the code step with a challenge cookie (only its hash is stored)", async () => {
    const u = await enrolled();
    expect(await passwordStep(u.email, password, "/payouts?status=awaiting_approval")).toEqual({
      redirectedTo: `/login/two-factor?callbackUrl=${encodeURIComponent("/payouts?status=awaiting_approval")}`,
    });
    expect(browser.jar.has(SESSION_COOKIE)).toBe(false);
    const token = browser.jar.get(CHALLENGE_COOKIE)?.value;
    expect(token).toMatch(/^[\w-]{43}$/);
    const challenge = await getDb().signInChallenge.findFirstOrThrow({ where: { userId: u.id } });
    expect(challenge.tokenHash).toBe(createHash("sha256").update(token!).digest("hex"));
    expect(challenge.expiresAt.getTime() - challenge.createdAt.getTime()).toBe(5 * 60_000);
    expect(await getDb().session.count({ where: { userId: u.id } })).toBe(0);
    expect((await user(u.id)).lastSignInAt).toBeNull();
  });

  it("a wrong password is refused as before, with no challenge", async () => {
    const u = await enrolled();
    expect(await passwordStep(u.email, "not the password")).toEqual({
      result: {
        ok: false,
        code: "invalid",
        message:
          "Wrong email, password or code. After 5 failed attempts in a row, signing in to the account pauses for 15 minutes.",
      },
    });
    expect(browser.jar.has(CHALLENGE_COOKIE)).toBe(false);
    expect(await getDb().signInChallenge.count({ where: { userId: u.id } })).toBe(0);
  });

  it("Auth.js's own credentials route with email and password gives an enrolled user no session", async () => {
    const u = await enrolled();
    const { response, location } = await postCredentials(handlers, { email: u.email, password });
    expect(Object.fromEntries(location.searchParams)).toEqual({
      error: "CredentialsSignin",
      code: "second_factor",
    });
    expect(response.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
    expect(await getDb().session.count({ where: { userId: u.id } })).toBe(0);
  });

  it("a user who is not enrolled signs in with the password alone, as before", async () => {
    const email = `plain-${randomUUID()}@example.test`;
    await createUser(cliActor, { email, role: "finance", password });
    expect(await passwordStep(email)).toEqual({ redirectedTo: `${APP_ORIGIN}/` });
    expect(browser.jar.has(SESSION_COOKIE)).toBe(true);
  });
});

describe("the code step", () => {
  it("the right code opens a session whose second factor is fresh; the challenge is gone", async () => {
    const u = await enrolled();
    await passwordStep(u.email, password, "/payouts");
    const token = browser.jar.get(CHALLENGE_COOKIE)!.value;
    expect(await codeStep(codeFor(u.secret), "/payouts")).toEqual({ redirectedTo: `${APP_ORIGIN}/payouts` });
    expect(browser.jar.has(SESSION_COOKIE)).toBe(true);
    expect(browser.jar.has(CHALLENGE_COOKIE)).toBe(false);
    expect(await getDb().signInChallenge.count({ where: { userId: u.id } })).toBe(0);
    const session = (await auth()) as { userId?: string; sessionId?: string } | null;
    expect(session?.userId).toBe(u.id);
    const row = await getDb().session.findUniqueOrThrow({ where: { id: session!.sessionId } });
    expect(Date.now() - row.secondFactorAt!.getTime()).toBeLessThan(10_000);
    expect((await user(u.id)).lastSignInAt).not.toBeNull();
    // the used challenge token does nothing a second time
    expect(await completeChallenge(token, codeFor(u.secret), new Date(), noWait)).toEqual({
      ok: false,
      reason: "invalid",
    });
  });

  it("a code is accepted once: the same code on a new challenge is refused", async () => {
    const u = await enrolled();
    const code = codeFor(u.secret);
    await passwordStep(u.email);
    expect(await codeStep(code)).toEqual({ redirectedTo: `${APP_ORIGIN}/` });
    browser.clear();
    await passwordStep(u.email);
    expect(await codeStep(code)).toMatchObject({ result: { ok: false, code: "invalid" } });
    expect(browser.jar.has(SESSION_COOKIE)).toBe(false);
  });

  it("a wrong code: no session, the generic refusal, counted towards the lock, audited", async () => {
    const u = await enrolled();
    await passwordStep(u.email);
    expect(await codeStep("000000")).toEqual({
      result: {
        ok: false,
        code: "invalid",
        message:
          "Wrong email, password or code. After 5 failed attempts in a row, signing in to the account pauses for 15 minutes.",
      },
    });
    expect(browser.jar.has(SESSION_COOKIE)).toBe(false);
    // the password's attempt and the code's: both count until the code is right
    expect((await user(u.id)).failedSignIns).toBe(2);
    const entry = await getDb().auditLog.findFirstOrThrow({
      where: { action: "twoFactor.signIn.fail", actorUserId: u.id },
    });
    expect(entry).toMatchObject({ targetType: "user", targetId: u.id, after: { attempt: 1 } });
    // the right code still works on the same challenge
    expect(await codeStep(codeFor(u.secret))).toEqual({ redirectedTo: `${APP_ORIGIN}/` });
    expect((await user(u.id)).failedSignIns).toBe(0);
  });

  it("without the challenge cookie, or with a made-up one, the same refusal", async () => {
    const u = await enrolled();
    expect(await codeStep(codeFor(u.secret))).toMatchObject({ result: { ok: false, code: "invalid" } });
    browser.jar.set(CHALLENGE_COOKIE, { value: "made-up-token" });
    expect(await codeStep(codeFor(u.secret))).toMatchObject({ result: { ok: false, code: "invalid" } });
    expect(browser.jar.has(SESSION_COOKIE)).toBe(false);
  });

  it("a challenge lasts 5 minutes", async () => {
    const u = await enrolled();
    const t0 = new Date();
    const token = await openChallenge(u.id, t0);
    const later = new Date(t0.getTime() + 5 * 60_000);
    expect(await completeChallenge(token, codeFor(u.secret, later), later, noWait)).toEqual({
      ok: false,
      reason: "invalid",
    });
    const fresh = await openChallenge(u.id, t0);
    const inTime = new Date(t0.getTime() + 4 * 60_000);
    expect(await completeChallenge(fresh, codeFor(u.secret, inTime), inTime, noWait)).toMatchObject({
      ok: true,
    });
  });

  it(`after ${MAX_ATTEMPTS} wrong codes the challenge is gone: even the right code needs the password again`, async () => {
    const u = await enrolled();
    const token = await openChallenge(u.id);
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      // an unlock between attempts, so that this is about the challenge, not the account's lock
      await getDb().user.update({ where: { id: u.id }, data: { failedSignIns: 0, lockedUntil: null } });
      expect(await completeChallenge(token, "111111", new Date(), noWait)).toEqual({
        ok: false,
        reason: "invalid",
      });
    }
    expect(await getDb().signInChallenge.count({ where: { userId: u.id } })).toBe(0);
    expect(await completeChallenge(token, codeFor(u.secret), new Date(), noWait)).toEqual({
      ok: false,
      reason: "invalid",
    });
  });

  it(`wrong passwords and wrong codes together lock the account after ${LOCK_AFTER_FAILURES}; then even the right code is refused unchecked`, async () => {
    const u = await enrolled();
    await passwordStep(u.email, "wrong 1");
    await passwordStep(u.email, "wrong 2");
    await passwordStep(u.email);
    // the right password's attempt stays counted while the code is still to come
    expect((await user(u.id)).failedSignIns).toBe(3);
    const token = browser.jar.get(CHALLENGE_COOKIE)!.value;
    for (let i = 0; i < 2; i++) await completeChallenge(token, "222222", new Date(), noWait);
    expect((await user(u.id)).lockedUntil!.getTime()).toBeGreaterThan(Date.now());
    const again = await openChallenge(u.id);
    expect(await completeChallenge(again, "333333", new Date(), noWait)).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await completeChallenge(again, codeFor(u.secret), new Date(), noWait)).toEqual({
      ok: false,
      reason: "invalid",
    });
  });

  it("a known password cannot reset the count between guesses of the code", async () => {
    const u = await enrolled();
    await passwordStep(u.email);
    const token = browser.jar.get(CHALLENGE_COOKIE)!.value;
    for (let i = 0; i < 2; i++) await completeChallenge(token, "444444", new Date(), noWait);
    await passwordStep(u.email);
    expect((await user(u.id)).failedSignIns).toBe(4);
  });

  it("a recovery code signs in once (audited), and not a second time", async () => {
    const u = await enrolled();
    const codes = generateRecoveryCodes();
    const hashes = await hashRecoveryCodes(codes);
    await getDb().$transaction((tx) => replaceRecoveryCodes(tx, u.id, hashes));
    await passwordStep(u.email);
    expect(await codeStep(codes[3]!.toUpperCase())).toEqual({ redirectedTo: `${APP_ORIGIN}/` });
    const entry = await getDb().auditLog.findFirstOrThrow({
      where: { action: "twoFactor.recoveryCode.use", actorUserId: u.id },
    });
    expect(entry.after).toEqual({ during: "signIn", remaining: 9 });
    browser.clear();
    await passwordStep(u.email);
    expect(await codeStep(codes[3]!)).toMatchObject({ result: { ok: false, code: "invalid" } });
    expect(await codeStep(codes[4]!)).toEqual({ redirectedTo: `${APP_ORIGIN}/` });
  });

  it("in Russian for a Russian browser", async () => {
    const u = await enrolled();
    language.accept = "ru-RU,ru;q=0.9";
    await passwordStep(u.email);
    expect(await codeStep("000000")).toEqual({
      result: {
        ok: false,
        code: "invalid",
        message:
          "Неверный адрес электронной почты, пароль или код. После 5 неудачных попыток подряд вход в учётную запись приостанавливается на 15 минут.",
      },
    });
  });
});
