// Users page actions: create, change role, disable (sessions end), reset password; audited with the
// admin's id, email and IP; bad input refused and nothing created; no self-lockout.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { verifyPassword } from "@/lib/auth/password";
import { createStaff } from "../../support/mirror";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.40" }),
}));

const { createUserAction, setUserRoleAction, disableUserAction, resetUserPasswordAction } =
  await import("@/lib/actions/users");
const { currentUser } = await import("@/lib/auth/session");

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
      after: { email: address, role: "finance" },
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

  it("an unknown user is not found", async () => {
    for (const run of [
      () => setUserRoleAction({ userId: randomUUID(), role: "support" }),
      () => disableUserAction({ userId: randomUUID() }),
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
    ["reset: short password", () => resetUserPasswordAction({ userId: randomUUID(), password: "short" })],
    ["reset: 1 MB password", () => resetUserPasswordAction({ userId: randomUUID(), password: MB })],
  ])("%s is refused", async (_name, run) => {
    const audits = await db.auditLog.count({ where: { actorUserId: admin.id } });
    expect(await run()).toMatchObject({ ok: false, code: "invalid" });
    expect(await db.auditLog.count({ where: { actorUserId: admin.id } })).toBe(audits);
  });
});
