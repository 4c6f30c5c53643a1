// Users page actions: create, change role, disable (sessions end), enable again, reset password; audited
// with the admin's id, email and IP; bad input refused and nothing created; no self-lockout, and no
// reset of one's own password without the current one.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { cliActor } from "@/lib/audit/log";
import { checkCredentials } from "@/lib/auth/credentials";
import { getDb } from "@/lib/db";
import { verifyPassword } from "@/lib/auth/password";
import { createStaff } from "../../support/mirror";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.40" }),
}));

const { createUserAction, setUserRoleAction, disableUserAction, enableUserAction, resetUserPasswordAction } =
  await import("@/lib/actions/users");
const { currentUser } = await import("@/lib/auth/session");
const { disableUser, enableUser, UserError } = await import("@/lib/users/service");

const db = getDb();
let admin: { id: string; email: string };

beforeAll(async () => {
  admin = await createStaff("admin");
  session.current = { userId: admin.id, sessionVersion: 0 };
});

const email = () => `user-${randomUUID()}@test.local`;

describe("user administration", () => {
  it("creates a user with a generated password shown once, audited with the admin's IP", async () => {
    const address = email();
    const r = await createUserAction({ email: address, name: "New Person", role: "finance", password: "" });
    if (!r.ok || !("user" in r)) throw new Error(JSON.stringify(r));
    expect(r.generated).toMatch(/^[\w-]{12,}$/);
    const stored = await db.user.findUniqueOrThrow({
      where: { email: address },
      omit: { passwordHash: false },
    });
    expect(stored).toMatchObject({ role: "finance", name: "New Person" });
    expect(await verifyPassword(stored.passwordHash!, r.generated!)).toBe(true);
    const entry = await db.auditLog.findFirstOrThrow({
      where: { action: "user.create", targetId: r.user.id },
    });
    expect(entry).toMatchObject({
      actorUserId: admin.id,
      ip: "198.51.100.40",
      after: { email: address, role: "finance", name: "New Person" },
    });
    // the same email again: a clear message, nothing created
    expect(await createUserAction({ email: address, role: "support", password: "" })).toMatchObject({
      ok: false,
      code: "conflict",
      message: expect.stringMatching(/already exists/),
    });
  });

  it("changes a role, disables (their session ends), resets a password; each audited", async () => {
    const user = await createStaff("support");
    expect(await setUserRoleAction({ userId: user.id, role: "approver" })).toEqual({
      ok: true,
      role: "approver",
    });
    expect(
      await db.auditLog.findFirstOrThrow({ where: { action: "user.setRole", targetId: user.id } }),
    ).toMatchObject({ before: { role: "support" }, after: { role: "approver" }, ip: "198.51.100.40" });

    const reset = await resetUserPasswordAction({ userId: user.id, password: "a-brand-new-password" });
    expect(reset).toEqual({ ok: true, generated: null });
    expect(await db.auditLog.count({ where: { action: "user.resetPassword", targetId: user.id } })).toBe(1);

    // the user is signed in (with the session version after the reset) until disabled
    const version = (await db.user.findUniqueOrThrow({ where: { id: user.id } })).sessionVersion;
    expect(await disableUserAction({ userId: user.id })).toEqual({ ok: true });
    const after = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after.disabledAt).toBeInstanceOf(Date);
    expect(after.sessionVersion).toBe(version + 1);
    session.current = { userId: user.id, sessionVersion: version };
    expect(await currentUser()).toBeNull();
    session.current = { userId: admin.id, sessionVersion: 0 };
    expect(await disableUserAction({ userId: user.id })).toMatchObject({ ok: false, code: "not_allowed" });
  });

  it("refuses to lock the admin out: own role, own account", async () => {
    expect(await setUserRoleAction({ userId: admin.id, role: "support" })).toMatchObject({
      ok: false,
      message: "You cannot change your own role.",
    });
    expect(await disableUserAction({ userId: admin.id })).toMatchObject({
      ok: false,
      message: "You cannot disable yourself.",
    });
    expect((await db.user.findUniqueOrThrow({ where: { id: admin.id } })).role).toBe("admin");
  });

  // Audit of user administration: an admin could set their own password from the users page without
  // the current one (role, disable and two-factor reset already refused oneself).
  it("refuses to reset one's own password, with or without a new one given; nothing changes", async () => {
    const before = await db.user.findUniqueOrThrow({
      where: { id: admin.id },
      omit: { passwordHash: false },
    });
    const audits = await db.auditLog.count({ where: { action: "user.resetPassword", targetId: admin.id } });
    for (const input of [{ userId: admin.id }, { userId: admin.id, password: "attacker-chosen-password" }]) {
      expect(await resetUserPasswordAction(input)).toEqual({
        ok: false,
        code: "not_allowed",
        message:
          "You cannot reset your own password here: change it from your menu (Change password), with your current one.",
      });
    }
    const after = await db.user.findUniqueOrThrow({ where: { id: admin.id }, omit: { passwordHash: false } });
    expect([after.passwordHash, after.sessionVersion]).toEqual([before.passwordHash, before.sessionVersion]);
    expect(await db.auditLog.count({ where: { action: "user.resetPassword", targetId: admin.id } })).toBe(
      audits,
    );
    expect(await currentUser()).not.toBeNull();
  });

  it("an unknown user is not found", async () => {
    for (const run of [
      () => setUserRoleAction({ userId: randomUUID(), role: "support" }),
      () => disableUserAction({ userId: randomUUID() }),
      () => enableUserAction({ userId: randomUUID() }),
      () => resetUserPasswordAction({ userId: randomUUID() }),
    ])
      expect(await run()).toMatchObject({ ok: false, code: "not_found" });
  });

  const MB = "x".repeat(1_048_576);
  it.each([
    ["empty email", { email: "" }, "email"],
    ["not an email", { email: "someone" }, "email"],
    ["1 MB email", { email: `${MB}@x.io` }, "email"],
    ["email as a number", { email: 42 }, "email"],
    ["unknown role", { role: "root" }, "role"],
    ["empty role", { role: "" }, "role"],
    ["null role", { role: null }, "role"],
    ["short password", { password: "short" }, "password"],
    ["1 MB password", { password: MB }, "password"],
    ["password as a number", { password: 123456789012 }, "password"],
    ["1 MB name", { name: MB }, "name"],
    ["extra field", { isAdmin: true }, null],
  ])("create with %s is refused, nothing created", async (_name, change, field) => {
    const input = { email: email(), role: "support", name: "X", password: "", ...change };
    const audits = await db.auditLog.count({ where: { actorUserId: admin.id } });
    const r = await createUserAction(input);
    expect(r).toMatchObject({ ok: false, code: "invalid" });
    if (field && !r.ok && "fieldErrors" in r) expect(r.fieldErrors[field]?.[0]).toMatch(/\w/);
    if (typeof input.email === "string" && input.email.length < 400)
      expect(await db.user.count({ where: { email: input.email.toLowerCase() } })).toBe(0);
    expect(await db.auditLog.count({ where: { actorUserId: admin.id } })).toBe(audits);
  });

  it.each([
    ["set role: user id not a uuid", () => setUserRoleAction({ userId: "1", role: "support" })],
    ["set role: unknown role", () => setUserRoleAction({ userId: randomUUID(), role: "owner" })],
    ["set role: wrong types", () => setUserRoleAction({ userId: 1, role: 2 })],
    ["disable: empty id", () => disableUserAction({ userId: "" })],
    ["disable: null", () => disableUserAction(null)],
    ["enable: not a uuid", () => enableUserAction({ userId: "admin" })],
    ["enable: extra field", () => enableUserAction({ userId: randomUUID(), disabledAt: null })],
    ["reset: short password", () => resetUserPasswordAction({ userId: randomUUID(), password: "short" })],
    ["reset: 1 MB password", () => resetUserPasswordAction({ userId: randomUUID(), password: MB })],
  ])("%s is refused", async (_name, run) => {
    const audits = await db.auditLog.count({ where: { actorUserId: admin.id } });
    expect(await run()).toMatchObject({ ok: false, code: "invalid" });
    expect(await db.auditLog.count({ where: { actorUserId: admin.id } })).toBe(audits);
  });
});

// Audit of user administration: a disabled user could never be brought back (no way to clear
// disabledAt), and re-creating them was refused as an existing email.
describe("enabling a disabled user", () => {
  const password = "a-long-enough-password";

  it("disable, then enable: the user signs in and is authorised again; both audited", async () => {
    const address = email();
    const created = await createUserAction({ email: address, role: "finance", password });
    if (!created.ok || !("user" in created)) throw new Error(JSON.stringify(created));
    const id = created.user.id;
    expect(await disableUserAction({ userId: id })).toEqual({ ok: true });
    expect(await checkCredentials(address, password)).toEqual({ ok: false, reason: "disabled" });
    const version = (await db.user.findUniqueOrThrow({ where: { id } })).sessionVersion;

    expect(await enableUserAction({ userId: id })).toEqual({ ok: true });
    expect((await db.user.findUniqueOrThrow({ where: { id } })).disabledAt).toBeNull();
    expect(await checkCredentials(address, password)).toMatchObject({ ok: true, user: { id } });
    // a session of theirs (the version of the sign-in after enabling) is authorised again
    session.current = { userId: id, sessionVersion: version };
    try {
      expect(await currentUser()).toMatchObject({ id, email: address, role: "finance" });
    } finally {
      session.current = { userId: admin.id, sessionVersion: 0 };
    }
    const entry = await db.auditLog.findFirstOrThrow({ where: { action: "user.enable", targetId: id } });
    expect(entry).toMatchObject({
      actorUserId: admin.id,
      ip: "198.51.100.40",
      targetType: "user",
      before: { disabled: true },
      after: { disabled: false },
    });
  });

  it("an active user is not enabled again: refused in words, nothing written", async () => {
    const user = await createStaff("support");
    const audits = await db.auditLog.count({ where: { targetId: user.id } });
    expect(await enableUserAction({ userId: user.id })).toEqual({
      ok: false,
      code: "not_allowed",
      message: "This user is not disabled: there is nothing to enable.",
    });
    // the command line's way in (lib/users/service) refuses it too, in English
    const refusal = await enableUser(cliActor, user.email).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(UserError);
    expect(refusal).toMatchObject({ code: "notDisabled", message: `${user.email} is not disabled.` });
    expect(await db.auditLog.count({ where: { targetId: user.id } })).toBe(audits);
  });

  it("is refused to a role without users.manage, and the user stays disabled", async () => {
    const user = await createStaff("support");
    expect(await disableUserAction({ userId: user.id })).toEqual({ ok: true });
    for (const role of ["finance", "approver", "support"] as const) {
      const other = await createStaff(role);
      session.current = { userId: other.id, sessionVersion: 0 };
      try {
        expect(await enableUserAction({ userId: user.id })).toMatchObject({ ok: false, code: "forbidden" });
      } finally {
        session.current = { userId: admin.id, sessionVersion: 0 };
      }
    }
    session.current = null;
    try {
      expect(await enableUserAction({ userId: user.id })).toMatchObject({
        ok: false,
        code: "unauthenticated",
      });
    } finally {
      session.current = { userId: admin.id, sessionVersion: 0 };
    }
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).disabledAt).toBeInstanceOf(Date);
    expect(await db.auditLog.count({ where: { action: "user.enable", targetId: user.id } })).toBe(0);
  });
});

// Audit of user administration: from the command line a second disable moved disabledAt and the
// session version on again and wrote a second entry; the page refused it, the service did not.
describe("disabling an already disabled user", () => {
  it("is refused by the service itself (the command line): the first disable stands, one entry", async () => {
    const user = await createStaff("support");
    await disableUser(cliActor, user.email);
    const first = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    const refusal = await disableUser(cliActor, user.email).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(UserError);
    expect(refusal).toMatchObject({ code: "alreadyDisabled", message: `${user.email} is already disabled.` });
    const second = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect([second.disabledAt, second.sessionVersion]).toEqual([first.disabledAt, first.sessionVersion]);
    expect(
      await db.auditLog.findMany({
        where: { action: "user.disable", targetId: user.id },
        select: { before: true, after: true },
      }),
    ).toEqual([{ before: { disabled: false }, after: { disabled: true } }]);
  });

  it("of two disables at once, one goes through and the other is told why", async () => {
    const user = await createStaff("finance");
    const results = await Promise.all([
      disableUserAction({ userId: user.id }),
      disableUser(cliActor, user.email).then(
        () => ({ ok: true }),
        (error: unknown) => ({ ok: false, error }),
      ),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(await db.auditLog.count({ where: { action: "user.disable", targetId: user.id } })).toBe(1);
  });
});

// Audit of user administration: two admins creating the same email at once; the one whose insert hit
// the unique index was told "The change could not be saved." instead of the email existing.
describe("two admins creating the same person at once", () => {
  it("one is created; every other is told the email exists (conflict), as by the check before", async () => {
    for (let round = 0; round < 5; round++) {
      const address = email();
      const results = await Promise.all(
        Array.from({ length: 6 }, () => createUserAction({ email: address, role: "support", password: "" })),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      const refusals = results.filter((r) => !r.ok);
      expect(refusals).toEqual(
        refusals.map(() => ({
          ok: false,
          code: "conflict",
          message: `A user with email ${address} already exists.`,
        })),
      );
      expect(await db.user.count({ where: { email: address } })).toBe(1);
    }
  });
});
