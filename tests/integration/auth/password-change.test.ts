// Changing one's own password (Account → Change password, changeOwnPasswordAction, account.password):
// with the current password, which counts towards the sign-in lock when wrong; the new one under the
// rules of an admin's and not the same as the current one; every session of the user ends, this one
// included, and the sign-in page says why; audited without a password or hash; a user who signs in
// only with single sign-on is told where theirs is changed. Session mocked.
import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { cliActor } from "@/lib/audit/log";
import { checkCredentials, LOCK_AFTER_FAILURES } from "@/lib/auth/credentials";
import { verifyPassword } from "@/lib/auth/password";
import { startSession } from "@/lib/auth/session-store";
import { openChallenge } from "@/lib/auth/two-factor/sign-in";
import { getDb } from "@/lib/db";
import { createUser, resetPassword } from "@/lib/users/service";
import { createStaff } from "../../support/mirror";
import { pageText } from "../../support/page-text";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current, ssoConfigured: () => false }));
const browserLanguage = vi.hoisted(() => ({ current: "en" }));
vi.mock("next/headers", () => ({
  headers: async () =>
    new Headers({ "x-paydesk-client-ip": "198.51.100.7", "accept-language": browserLanguage.current }),
  cookies: async () => ({ get: () => undefined }),
}));

const { changeOwnPasswordAction } = await import("@/lib/actions/account");
const { currentUser } = await import("@/lib/auth/session");
const { default: AccountPasswordPage } = await import("@/app/(console)/account/password/page");
const { default: LoginPage } = await import("@/app/(auth)/login/page");

const db = getDb();
const CURRENT = "the-current-password";
const NEXT = "a-new-password-of-mine";

beforeEach(() => {
  browserLanguage.current = "en";
});

/** A user with a password, created by an admin (so passwordSetById is the admin's id), signed in. */
async function signedInUser(role: "admin" | "finance" | "approver" | "support" = "finance") {
  const admin = await createStaff("admin");
  const email = `own-password-${randomUUID()}@test.local`;
  const user = await createUser(
    { id: admin.id, email: admin.email, role: "admin", ip: null },
    { email, role, password: CURRENT },
  );
  session.current = { userId: user.id, sessionVersion: 0 };
  return { ...user, admin };
}

const change = (input: Record<string, unknown>) => changeOwnPasswordAction(input);
const stored = (id: string) =>
  db.user.findUniqueOrThrow({
    where: { id },
    select: {
      passwordHash: true,
      passwordSetById: true,
      sessionVersion: true,
      failedSignIns: true,
      lockedUntil: true,
    },
  });

describe("the right current password", () => {
  it("sets the new password, clears who set it, ends every session (this one too) and is audited", async () => {
    const user = await signedInUser();
    const sessions = [await startSession(user.id), await startSession(user.id)];
    await openChallenge(user.id);
    expect(await db.session.count({ where: { sessionToken: { in: sessions } } })).toBe(2);
    const before = await stored(user.id);
    expect(before.passwordSetById).toBe(user.admin.id);

    expect(await change({ current: CURRENT, next: NEXT, confirm: NEXT })).toEqual({
      ok: true,
      signInAgain: true,
    });

    const after = await stored(user.id);
    expect(await verifyPassword(after.passwordHash!, NEXT)).toBe(true);
    expect(await verifyPassword(after.passwordHash!, CURRENT)).toBe(false);
    expect(after).toMatchObject({ passwordSetById: null, sessionVersion: before.sessionVersion + 1 });
    // other sessions and any sign-in waiting for its code end...
    expect(await db.session.count({ where: { userId: user.id } })).toBe(0);
    expect(await db.signInChallenge.count({ where: { userId: user.id } })).toBe(0);
    // ...and so does this one: its cookie carries the old session version
    expect(await currentUser()).toBeNull();
    expect(
      await change({ current: NEXT, next: "yet-another-password", confirm: "yet-another-password" }),
    ).toMatchObject({ ok: false, code: "unauthenticated" });
    // signing in again works with the new password only
    expect(await checkCredentials(user.email, CURRENT)).toEqual({ ok: false, reason: "invalid" });
    expect(await checkCredentials(user.email, NEXT)).toMatchObject({ ok: true, user: { id: user.id } });

    const entries = await db.auditLog.findMany({
      where: { targetId: user.id, action: "user.password.change" },
    });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorUserId: user.id,
      actorEmail: user.email,
      ip: "198.51.100.7",
      targetType: "user",
      before: null,
      after: null,
    });
    const written = JSON.stringify(entries[0], (_key, value: unknown) =>
      typeof value === "bigint" ? value.toString() : value,
    );
    for (const secret of [CURRENT, NEXT, after.passwordHash!, before.passwordHash!])
      expect(written).not.toContain(secret);
  });

  it("the sign-in page the user is sent to says why they sign in again, in their language", async () => {
    session.current = null;
    const text = (page: unknown) => pageText(page).join(" ");
    expect(
      text(await LoginPage({ searchParams: Promise.resolve({ notice: "password-changed" }) })),
    ).toContain(
      "Your password was changed and all your sessions ended, this one included. Sign in with the new password.",
    );
    browserLanguage.current = "ru";
    expect(
      text(await LoginPage({ searchParams: Promise.resolve({ notice: "password-changed" }) })),
    ).toContain("Пароль изменён, все ваши сеансы завершены, включая этот. Войдите с новым паролем.");
    expect(text(await LoginPage({ searchParams: Promise.resolve({}) }))).not.toContain("Пароль изменён");
  });

  it("a support user changes theirs too", async () => {
    const user = await signedInUser("support");
    expect(await change({ current: CURRENT, next: NEXT, confirm: NEXT })).toMatchObject({ ok: true });
    expect(await checkCredentials(user.email, NEXT)).toMatchObject({ ok: true });
  });

  it("a password reset from the command line, then changed by its owner: null before and after", async () => {
    const user = await signedInUser("approver");
    await resetPassword(cliActor, user.email, CURRENT);
    expect((await stored(user.id)).passwordSetById).toBeNull();
    session.current = { userId: user.id, sessionVersion: (await stored(user.id)).sessionVersion };
    expect(await change({ current: CURRENT, next: NEXT, confirm: NEXT })).toMatchObject({ ok: true });
    expect((await stored(user.id)).passwordSetById).toBeNull();
  });
});

describe("a wrong current password", () => {
  it("is refused on its field, changes nothing and counts towards the sign-in lock", async () => {
    const user = await signedInUser();
    const before = await stored(user.id);
    const wrong =
      "The current password is wrong. After 5 wrong attempts in a row, signing in and changing the password pause for 15 minutes.";
    expect(await change({ current: "not-my-password", next: NEXT, confirm: NEXT })).toEqual({
      ok: false,
      code: "wrongCurrent",
      message: wrong,
      fieldErrors: { current: [wrong] },
    });
    const after = await stored(user.id);
    expect(after).toMatchObject({
      passwordHash: before.passwordHash,
      passwordSetById: user.admin.id,
      sessionVersion: before.sessionVersion,
      failedSignIns: 1,
    });
    expect(await currentUser()).toMatchObject({ id: user.id });
    expect(await db.auditLog.count({ where: { targetId: user.id, action: "user.password.change" } })).toBe(0);
  });

  it(`after ${LOCK_AFTER_FAILURES} in a row the account is locked: the right one is refused too, and so is signing in`, async () => {
    const user = await signedInUser();
    for (let i = 0; i < LOCK_AFTER_FAILURES; i++)
      expect(await change({ current: `wrong-${i}`, next: NEXT, confirm: NEXT })).toMatchObject({
        code: "wrongCurrent",
      });
    expect((await stored(user.id)).lockedUntil).not.toBeNull();
    expect(await change({ current: CURRENT, next: NEXT, confirm: NEXT })).toEqual({
      ok: false,
      code: "locked",
      message:
        "Too many wrong passwords: signing in and changing the password are paused for up to 15 minutes. Try again later.",
      fieldErrors: {},
    });
    expect(await checkCredentials(user.email, CURRENT)).toEqual({ ok: false, reason: "invalid" });
    const after = await stored(user.id);
    expect(await verifyPassword(after.passwordHash!, CURRENT)).toBe(true);
  });

  it("in Russian", async () => {
    await signedInUser();
    browserLanguage.current = "ru";
    expect(await change({ current: "not-my-password", next: NEXT, confirm: NEXT })).toMatchObject({
      code: "wrongCurrent",
      message:
        "Текущий пароль неверен. После 5 неверных попыток подряд вход и смена пароля приостанавливаются на 15 минут.",
    });
  });
});

describe("the new password", () => {
  it("the same as the current one is refused on the new password's field; nothing is counted", async () => {
    const user = await signedInUser();
    expect(await change({ current: CURRENT, next: CURRENT, confirm: CURRENT })).toEqual({
      ok: false,
      code: "invalid",
      message: "Check the highlighted fields.",
      fieldErrors: { next: ["The new password must differ from the current one."] },
    });
    expect(await stored(user.id)).toMatchObject({ failedSignIns: 0, passwordSetById: user.admin.id });
  });

  it.each([
    ["too short", { next: "short", confirm: "short" }, { next: ["must be at least 12 characters"] }],
    ["typed differently twice", { confirm: `${NEXT}x` }, { confirm: ["The two new passwords differ."] }],
    ["no current password", { current: "" }, { current: ["Enter your current password."] }],
  ])("%s: refused on its field", async (_name, overrides, fieldErrors) => {
    await signedInUser();
    expect(await change({ current: CURRENT, next: NEXT, confirm: NEXT, ...overrides })).toEqual({
      ok: false,
      code: "invalid",
      message: "Check the highlighted fields.",
      fieldErrors,
    });
  });

  it.each([
    ["an unknown field", { current: CURRENT, next: NEXT, confirm: NEXT, userId: randomUUID() }],
    ["a 1 MB password", { current: CURRENT, next: "x".repeat(1 << 20), confirm: "x".repeat(1 << 20) }],
    ["a number", { current: CURRENT, next: 123456789012345, confirm: 123456789012345 }],
    ["no input", undefined],
  ])("%s is refused and nothing changes", async (_name, input) => {
    const user = await signedInUser();
    const before = await stored(user.id);
    expect(await changeOwnPasswordAction(input)).toMatchObject({ ok: false, code: "invalid" });
    expect(await stored(user.id)).toEqual(before);
  });

  it("may hold NUL and bidi characters, like any password an admin sets: kept exactly as typed", async () => {
    const user = await signedInUser();
    const odd = "new\u0000pass\u202eword\u2066 ";
    expect(await change({ current: CURRENT, next: odd, confirm: odd })).toMatchObject({ ok: true });
    const after = await stored(user.id);
    expect(await verifyPassword(after.passwordHash!, odd)).toBe(true);
    expect(await verifyPassword(after.passwordHash!, odd.trim())).toBe(false);
    expect(await checkCredentials(user.email, odd)).toMatchObject({ ok: true });
  });
});

describe("a user without a password (single sign-on only)", () => {
  it("is refused in words, and the page says where their password is changed instead of the form", async () => {
    const sso = await createStaff("approver");
    session.current = { userId: sso.id, sessionVersion: 0 };
    const words =
      "You sign in with single sign-on and have no Paydesk password: change your password with your identity provider.";
    expect(await change({ current: "anything-at-all", next: NEXT, confirm: NEXT })).toEqual({
      ok: false,
      code: "noPassword",
      message: words,
      fieldErrors: {},
    });
    expect(await stored(sso.id)).toMatchObject({ passwordHash: null, failedSignIns: 0, sessionVersion: 0 });
    const text = pageText(await AccountPasswordPage()).join(" ");
    expect(text).toContain(words);
    expect(text).not.toContain("Choose a new password");
  });

  it("a user with a password gets the form and its rules", async () => {
    await signedInUser("support");
    const text = pageText(await AccountPasswordPage()).join(" ");
    expect(text).toContain("Choose a new password of at least 12 characters.");
  });
});
