// Single-sign-on-only users: an SSO user created with a password their admin chose could be signed in
// as by that admin, and could never clear the pay-out rule on who set their password (they cannot
// change a password they never saw). Created with no password at all (passwordHash and passwordSetById
// null, audited with ssoOnly), or an existing user's password removed (sessions end, audited), from the
// users page (server actions, session mocked) and the service the command line calls; both refused
// while single sign-on is not configured (a user without a password could never sign in), and the
// removal refused for oneself and for roles without users.manage.
import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ZodError } from "zod";
import { cliActor } from "@/lib/audit/log";
import { startSession } from "@/lib/auth/session-store";
import { getDb } from "@/lib/db";
import { word } from "../../support/i18n";
import { createStaff } from "../../support/mirror";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
// Whether single sign-on is configured (AUTH_OIDC_*), as lib/auth/sso.ts answers the service and the page.
const sso = vi.hoisted(() => ({ configured: true }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("@/lib/auth/sso", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/auth/sso")>()),
  ssoConfigured: () => sso.configured,
}));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.41" }),
}));

const { createUserAction, removeUserPasswordAction, resetUserPasswordAction } =
  await import("@/lib/actions/users");
const { currentUser } = await import("@/lib/auth/session");
const { createUser, listUsers, removePassword, UserError } = await import("@/lib/users/service");

const db = getDb();
let admin: { id: string; email: string };

beforeAll(async () => {
  admin = await createStaff("admin");
});

afterEach(() => {
  sso.configured = true;
  session.current = { userId: admin.id, sessionVersion: 0 };
});

const email = () => `sso-${randomUUID()}@test.local`;
const stored = (id: string) =>
  db.user.findUniqueOrThrow({
    where: { id },
    select: { passwordHash: true, passwordSetById: true, sessionVersion: true },
  });
const auditsBy = () => db.auditLog.count({ where: { actorUserId: admin.id } });

async function withPassword(role: "finance" | "approver" = "finance") {
  session.current = { userId: admin.id, sessionVersion: 0 };
  const r = await createUserAction({ email: email(), role, password: "admin-chose-this-one" });
  if (!r.ok || !("user" in r)) throw new Error(JSON.stringify(r));
  return r.user;
}

describe("creating a user single sign-on only", () => {
  it("from the users page: no password, no setter, nothing generated; audited with ssoOnly", async () => {
    session.current = { userId: admin.id, sessionVersion: 0 };
    const address = email();
    const r = await createUserAction({ email: address, name: "Sso Person", role: "approver", ssoOnly: true });
    if (!r.ok || !("user" in r)) throw new Error(JSON.stringify(r));
    expect(r).toMatchObject({ generated: null, user: { email: address, role: "approver" } });
    expect(await stored(r.user.id)).toMatchObject({ passwordHash: null, passwordSetById: null });
    expect(
      await db.auditLog.findFirstOrThrow({ where: { action: "user.create", targetId: r.user.id } }),
    ).toMatchObject({
      actorUserId: admin.id,
      ip: "198.51.100.41",
      after: { email: address, role: "approver", name: "Sso Person", ssoOnly: true },
    });
    // the page lists them as having no password
    expect((await listUsers()).find((u) => u.id === r.user.id)).toMatchObject({
      hasPassword: false,
      passwordSetByAdmin: false,
    });
  });

  it("from the command line's service: no password, no setter", async () => {
    const user = await createUser(cliActor, { email: email(), role: "finance", ssoOnly: true });
    expect(await stored(user.id)).toMatchObject({ passwordHash: null, passwordSetById: null });
    expect(
      await db.auditLog.findFirstOrThrow({ where: { action: "user.create", targetId: user.id } }),
    ).toMatchObject({ actorUserId: null, actorEmail: "cli", after: { ssoOnly: true } });
  });

  it("is refused while single sign-on is not configured, in words; nothing created or audited", async () => {
    sso.configured = false;
    session.current = { userId: admin.id, sessionVersion: 0 };
    const address = email();
    const audits = await auditsBy();
    expect(await createUserAction({ email: address, role: "finance", ssoOnly: true })).toEqual({
      ok: false,
      code: "not_allowed",
      message: `Single sign-on is not configured: ${address} could not sign in without a password.`,
    });
    const refusal = await createUser(cliActor, { email: address, role: "finance", ssoOnly: true }).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(UserError);
    expect(refusal).toMatchObject({ code: "ssoNotConfigured" });
    expect(await db.user.count({ where: { email: address } })).toBe(0);
    expect(await auditsBy()).toBe(audits);
    expect(word({ message: "admin.users.errors.ssoNotConfigured", params: { email: address } }, "ru")).toBe(
      `Единый вход (SSO) не настроен: ${address} не сможет войти без пароля.`,
    );
  });

  it.each([
    ["a chosen password", { password: "a-long-enough-password" }],
    ["an empty password (generate)", { password: "" }],
  ])("with %s is refused on the password field; nothing created", async (_what, given) => {
    session.current = { userId: admin.id, sessionVersion: 0 };
    const address = email();
    const audits = await auditsBy();
    const r = await createUserAction({ email: address, role: "finance", ssoOnly: true, ...given });
    expect(r).toMatchObject({
      ok: false,
      code: "invalid",
      fieldErrors: { password: ["A single-sign-on-only user has no password: leave the password out."] },
    });
    expect(await db.user.count({ where: { email: address } })).toBe(0);
    expect(await auditsBy()).toBe(audits);
  });

  it("the service refuses a password with ssoOnly, and no password without it", async () => {
    const address = email();
    for (const input of [
      { email: address, role: "finance", ssoOnly: true, password: "a-long-enough-password" },
      { email: address, role: "finance" },
      { email: address, role: "finance", ssoOnly: false },
    ]) {
      const refusal = await createUser(cliActor, input).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(ZodError);
      expect((refusal as ZodError).issues[0]?.path).toEqual(["password"]);
    }
    expect(await db.user.count({ where: { email: address } })).toBe(0);
  });

  it.each([
    ["a string", "on"],
    ["a number", 1],
    ["null", null],
  ])("ssoOnly as %s is refused", async (_what, ssoOnly) => {
    session.current = { userId: admin.id, sessionVersion: 0 };
    const r = await createUserAction({ email: email(), role: "finance", ssoOnly });
    expect(r).toMatchObject({ ok: false, code: "invalid" });
  });
});

describe("making an existing user single sign-on only", () => {
  it("removes the password and its setter, ends their sessions, audited with the admin's IP", async () => {
    const user = await withPassword();
    expect(await stored(user.id)).toMatchObject({
      passwordHash: expect.any(String),
      passwordSetById: admin.id,
    });
    expect((await listUsers()).find((u) => u.id === user.id)).toMatchObject({
      hasPassword: true,
      passwordSetByAdmin: true,
    });
    const { sessionVersion } = await stored(user.id);
    await startSession(user.id);
    session.current = { userId: user.id, sessionVersion };
    expect(await currentUser()).not.toBeNull();

    session.current = { userId: admin.id, sessionVersion: 0 };
    expect(await removeUserPasswordAction({ userId: user.id })).toEqual({ ok: true });
    expect(await stored(user.id)).toEqual({
      passwordHash: null,
      passwordSetById: null,
      sessionVersion: sessionVersion + 1,
    });
    expect(await db.session.count({ where: { userId: user.id } })).toBe(0);
    session.current = { userId: user.id, sessionVersion };
    expect(await currentUser()).toBeNull();
    expect(
      await db.auditLog.findMany({
        where: { action: "user.password.remove", targetId: user.id },
        select: { actorUserId: true, ip: true, before: true, after: true },
      }),
    ).toEqual([
      { actorUserId: admin.id, ip: "198.51.100.41", before: { password: true }, after: { password: false } },
    ]);

    // nothing left to remove: refused, nothing written
    session.current = { userId: admin.id, sessionVersion: 0 };
    expect(await removeUserPasswordAction({ userId: user.id })).toEqual({
      ok: false,
      code: "not_allowed",
      message: `${user.email} has no password to remove.`,
    });
    expect(await stored(user.id)).toMatchObject({ sessionVersion: sessionVersion + 1 });
    expect(await db.auditLog.count({ where: { action: "user.password.remove", targetId: user.id } })).toBe(1);
  });

  it("a reset gives a single-sign-on-only user a password again, set by that admin", async () => {
    const user = await withPassword();
    expect(await removeUserPasswordAction({ userId: user.id })).toEqual({ ok: true });
    expect(await resetUserPasswordAction({ userId: user.id, password: "" })).toMatchObject({ ok: true });
    expect(await stored(user.id)).toMatchObject({
      passwordHash: expect.any(String),
      passwordSetById: admin.id,
    });
  });

  it("is refused for oneself, from the page and the service; nothing changes", async () => {
    await db.user.update({ where: { id: admin.id }, data: { passwordHash: "not-a-real-hash" } });
    const before = await stored(admin.id);
    session.current = { userId: admin.id, sessionVersion: before.sessionVersion };
    expect(await removeUserPasswordAction({ userId: admin.id })).toEqual({
      ok: false,
      code: "not_allowed",
      message: "You cannot remove your own password here.",
    });
    const refusal = await removePassword(cliActor, admin.email, { id: admin.id }).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ name: "LockoutRefused", problem: "removeOwnPassword" });
    expect(await stored(admin.id)).toEqual(before);
    expect(await db.auditLog.count({ where: { action: "user.password.remove", targetId: admin.id } })).toBe(
      0,
    );
    await db.user.update({ where: { id: admin.id }, data: { passwordHash: null, sessionVersion: 0 } });
  });

  it("is refused while single sign-on is not configured; the password stays", async () => {
    const user = await withPassword();
    const before = await stored(user.id);
    sso.configured = false;
    expect(await removeUserPasswordAction({ userId: user.id })).toEqual({
      ok: false,
      code: "not_allowed",
      message: `Single sign-on is not configured: ${user.email} could not sign in without a password.`,
    });
    expect(await stored(user.id)).toEqual(before);
    expect(await db.auditLog.count({ where: { action: "user.password.remove", targetId: user.id } })).toBe(0);
  });

  it("is refused to roles without users.manage and without a session; the password stays", async () => {
    const user = await withPassword();
    const before = await stored(user.id);
    for (const role of ["finance", "approver", "support"] as const) {
      const other = await createStaff(role);
      session.current = { userId: other.id, sessionVersion: 0 };
      expect(await removeUserPasswordAction({ userId: user.id })).toMatchObject({
        ok: false,
        code: "forbidden",
      });
    }
    session.current = null;
    expect(await removeUserPasswordAction({ userId: user.id })).toMatchObject({
      ok: false,
      code: "unauthenticated",
    });
    expect(await stored(user.id)).toEqual(before);
    expect(await db.auditLog.count({ where: { action: "user.password.remove", targetId: user.id } })).toBe(0);
  });

  it("an unknown user is not found", async () => {
    expect(await removeUserPasswordAction({ userId: randomUUID() })).toMatchObject({
      ok: false,
      code: "not_found",
    });
  });

  const id = "0b7c3a0e-4a4e-4f57-9d1e-0c7f3bb0a001";
  it.each([
    ["a NUL in the id", { userId: `${id}\u0000` }],
    ["a NUL alone", { userId: "\u0000" }],
    ["a bidi override in the id", { userId: `\u202e${id}` }],
    ["a right-to-left mark in the id", { userId: `${id.slice(0, 8)}\u200f${id.slice(8)}` }],
    ["an empty id", { userId: "" }],
    ["an id as a number", { userId: 42 }],
    ["an extra field", { userId: id, passwordHash: null }],
    ["no input", undefined],
  ])("%s is refused by the schema, nothing written", async (_what, input) => {
    session.current = { userId: admin.id, sessionVersion: 0 };
    const audits = await auditsBy();
    expect(await removeUserPasswordAction(input)).toMatchObject({ ok: false, code: "invalid" });
    expect(await auditsBy()).toBe(audits);
  });
});
