import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cliActor } from "@/lib/audit/log";
import { checkCredentials, LOCK_AFTER_FAILURES, LOCK_MINUTES } from "@/lib/auth/credentials";
import { getDb } from "@/lib/db";
import { createUser, disableUser, resetPassword, setRole, UserError } from "@/lib/users/service";

const password = "correct horse battery";
const newEmail = () => `user-${randomUUID()}@example.test`;

describe("credentials sign-in", () => {
  it("accepts the right password, stores an argon2id hash and never returns it", async () => {
    const email = newEmail();
    const created = await createUser(cliActor, { email, role: "finance", password });
    expect(created).not.toHaveProperty("passwordHash");
    const stored = await getDb().user.findUniqueOrThrow({ where: { email }, omit: { passwordHash: false } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
    const result = await checkCredentials(email.toUpperCase(), password);
    expect(result).toMatchObject({ ok: true, user: { email, role: "finance" } });
  });

  it("refuses a wrong password and an unknown email the same way", async () => {
    const email = newEmail();
    await createUser(cliActor, { email, role: "support", password });
    expect(await checkCredentials(email, "wrong password!")).toEqual({ ok: false, reason: "invalid" });
    expect(await checkCredentials(newEmail(), password)).toEqual({ ok: false, reason: "invalid" });
  });

  it(`locks the account for ${LOCK_MINUTES} minutes after ${LOCK_AFTER_FAILURES} failures, even for the right password`, async () => {
    const email = newEmail();
    await createUser(cliActor, { email, role: "support", password });
    const now = new Date();
    const reasons = [];
    for (let i = 0; i < LOCK_AFTER_FAILURES; i++)
      reasons.push((await checkCredentials(email, "wrong", now)) as { reason: string });
    expect(reasons.map((r) => r.reason)).toEqual(Array(LOCK_AFTER_FAILURES).fill("invalid"));
    // while locked no password is checked: the right one gets the same "invalid" (no hint to a guesser)
    expect(await checkCredentials(email, password, now)).toEqual({ ok: false, reason: "invalid" });
    const later = new Date(now.getTime() + (LOCK_MINUTES + 1) * 60_000);
    expect(await checkCredentials(email, password, later)).toMatchObject({ ok: true });
  }, 20_000);

  it("refuses a disabled user and moves the session version on, which ends their sessions", async () => {
    const email = newEmail();
    const user = await createUser(cliActor, { email, role: "approver", password });
    const before = await getDb().user.findUniqueOrThrow({ where: { id: user.id } });
    await disableUser(cliActor, email);
    const after = await getDb().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after.sessionVersion).toBe(before.sessionVersion + 1);
    expect(await checkCredentials(email, password)).toEqual({ ok: false, reason: "disabled" });
    expect(await checkCredentials(email, "wrong password!")).toEqual({ ok: false, reason: "invalid" });
  });

  it("resets a password, clears the lock and ends sessions", async () => {
    const email = newEmail();
    await createUser(cliActor, { email, role: "finance", password });
    for (let i = 0; i < LOCK_AFTER_FAILURES; i++) await checkCredentials(email, "wrong");
    await resetPassword(cliActor, email, "another long password");
    expect(await checkCredentials(email, "another long password")).toMatchObject({ ok: true });
    expect(await checkCredentials(email, password)).toEqual({ ok: false, reason: "invalid" });
  }, 20_000);
});

describe("user administration", () => {
  it("audits every change with before and after values", async () => {
    const email = newEmail();
    const user = await createUser(cliActor, { email, role: "support", password });
    await setRole(cliActor, email, "finance");
    await disableUser(cliActor, email);
    const entries = await getDb().auditLog.findMany({ where: { targetId: user.id }, orderBy: { id: "asc" } });
    expect(entries.map((e) => [e.action, e.actorEmail, e.before, e.after])).toEqual([
      ["user.create", "cli", null, { email, role: "support" }],
      ["user.setRole", "cli", { role: "support" }, { role: "finance" }],
      ["user.disable", "cli", { disabled: false }, { disabled: true }],
    ]);
  });

  it.each([
    [{ email: "not-an-email", role: "finance", password }, /email/],
    [{ email: newEmail(), role: "root", password }, /must be one of: admin, finance, approver, support/],
    [{ email: newEmail(), role: "finance", password: "short" }, /at least 12 characters/],
  ])("refuses bad input and creates nothing: %o", async (input, message) => {
    const count = await getDb().user.count();
    await expect(createUser(cliActor, input)).rejects.toThrow(message);
    expect(await getDb().user.count()).toBe(count);
  });

  it("refuses a second user with the same email", async () => {
    const email = newEmail();
    await createUser(cliActor, { email, role: "finance", password });
    await expect(
      createUser(cliActor, { email: email.toUpperCase(), role: "admin", password }),
    ).rejects.toThrow(UserError);
  });
});

describe("single sign-on mapping (OIDC users map to existing Paydesk users)", () => {
  it("admits an existing, active user by email, whatever its case", async () => {
    const { ssoUserFor } = await import("@/lib/auth/sso");
    const email = newEmail();
    const user = await createUser(cliActor, { email, role: "finance", password });
    expect(await ssoUserFor(email.toUpperCase())).toEqual({ id: user.id, sessionVersion: 0 });
  });

  it("refuses an unknown email, a missing email and a disabled user", async () => {
    const { ssoUserFor } = await import("@/lib/auth/sso");
    const email = newEmail();
    await createUser(cliActor, { email, role: "support", password });
    await disableUser(cliActor, email);
    expect(await ssoUserFor(email)).toBeNull();
    expect(await ssoUserFor(newEmail())).toBeNull();
    expect(await ssoUserFor(undefined)).toBeNull();
  });

  // Audit of 25 November: lower-casing the provider's email with Unicode rules mapped the Kelvin sign
  // onto "k", so `\u212A-…` at the provider signed in as the user `k-…`.
  it("matches no one by an email that is not printable ASCII, or that the provider says it has not verified", async () => {
    const { ssoUserFor } = await import("@/lib/auth/sso");
    const email = `k-${randomUUID()}@example.test`;
    const user = await createUser(cliActor, { email, role: "admin", password });
    expect(await ssoUserFor(email.replace(/^k/, "\u212A"))).toBeNull();
    expect(await ssoUserFor(email.replace(/^k/, "K\u200B"))).toBeNull();
    expect(await ssoUserFor(email, new Date(), false)).toBeNull();
    expect(await ssoUserFor(email, new Date(), "false")).toBeNull();
    expect(await ssoUserFor(email, new Date(), true)).toEqual({ id: user.id, sessionVersion: 0 });
    expect(await ssoUserFor(` ${email.toUpperCase()} `)).toEqual({ id: user.id, sessionVersion: 0 });
  });
});
