// Who last set each password (User.passwordSetById), which the pay-out policy reads to keep a maker and
// an approver apart: the admin who created the user or reset the password from the users page; null
// when the command line set it (cliActor has no id). The user changing their own clears it
// (tests/integration/auth/password-change.test.ts).
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { cliActor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { word } from "../../support/i18n";
import { createStaff } from "../../support/mirror";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));

const { createUserAction, resetUserPasswordAction } = await import("@/lib/actions/users");
const { createUser, resetPassword } = await import("@/lib/users/service");

const db = getDb();
let firstAdmin: { id: string };
let secondAdmin: { id: string };

beforeAll(async () => {
  firstAdmin = await createStaff("admin");
  secondAdmin = await createStaff("admin");
});

const setBy = async (id: string) =>
  (await db.user.findUniqueOrThrow({ where: { id }, select: { passwordSetById: true } })).passwordSetById;
const signInAs = (admin: { id: string }) => {
  session.current = { userId: admin.id, sessionVersion: 0 };
};

describe("passwordSetById", () => {
  it("is the admin who created the user, with a chosen or a generated password", async () => {
    signInAs(firstAdmin);
    for (const password of ["a-chosen-password", ""]) {
      const r = await createUserAction({
        email: `set-by-${randomUUID()}@test.local`,
        role: "approver",
        password,
      });
      if (!r.ok || !("user" in r)) throw new Error(JSON.stringify(r));
      expect(await setBy(r.user.id)).toBe(firstAdmin.id);
    }
  });

  it("is the admin who last reset it; the command line's reset clears it", async () => {
    const user = await createUser(cliActor, {
      email: `set-by-${randomUUID()}@test.local`,
      role: "finance",
      password: "set-by-the-cli-1",
    });
    expect(await setBy(user.id)).toBeNull();
    signInAs(firstAdmin);
    expect(await resetUserPasswordAction({ userId: user.id, password: "" })).toMatchObject({ ok: true });
    expect(await setBy(user.id)).toBe(firstAdmin.id);
    signInAs(secondAdmin);
    expect(await resetUserPasswordAction({ userId: user.id, password: "second-admin-chose" })).toMatchObject({
      ok: true,
    });
    expect(await setBy(user.id)).toBe(secondAdmin.id);
    await resetPassword(cliActor, user.email, "set-by-the-cli-2");
    expect(await setBy(user.id)).toBeNull();
  });

  // Asking another admin to reset it would make that admin its setter (kept apart from them on
  // pay-outs): the refusal points to the user menu's Change password, which clears it.
  it("a refused reset (one's own) leaves it as it was and points to Change password", async () => {
    signInAs(firstAdmin);
    expect(await resetUserPasswordAction({ userId: firstAdmin.id, password: "attacker-chosen-pw" })).toEqual({
      ok: false,
      code: "not_allowed",
      message:
        "You cannot reset your own password here: change it from your menu (Change password), with your current one.",
    });
    expect(await setBy(firstAdmin.id)).toBeNull();
    expect(word({ message: "admin.users.errors.resetOwnPassword" }, "ru")).toBe(
      "Здесь нельзя сбросить собственный пароль: смените его в своём меню («Смена пароля»), указав текущий.",
    );
  });
});
