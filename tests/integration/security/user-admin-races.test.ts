// Audit of 25 November. The check that keeps one enabled admin ran outside the write: two admins
// demoting (or disabling) each other at the same moment both passed it and left no admin, with only
// the command line as a way back. An admin's password reset ended sessions but left a sign-in waiting
// for its code, opened with the old password. Now the check and the write share one transaction
// behind one lock, and resets and disabling end waiting sign-ins too.
import { AsyncLocalStorage } from "node:async_hooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cliActor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { forgetCachedSettings } from "@/lib/settings/settings";
import { disableUser, resetPassword } from "@/lib/users/service";
import { isolateDatabase } from "../../support/database";
import { createStaff } from "../../support/mirror";
import { codeFor, enrolUser, sessionFor } from "../../support/two-factor";

const als = vi.hoisted(() => ({
  store: null as null | import("node:async_hooks").AsyncLocalStorage<object>,
}));
vi.mock("@/lib/auth/config", () => ({
  auth: async () => als.store?.getStore() ?? null,
  ssoConfigured: () => false,
}));
vi.mock("next/headers", async () => (await import("../../support/next-request")).nextHeadersModule());
vi.mock("next/navigation", async () => (await import("../../support/next-request")).nextNavigationModule());

als.store = new AsyncLocalStorage<object>();
const { setUserRoleAction, disableUserAction } = await import("@/lib/actions/users");
const { completeChallenge, openChallenge } = await import("@/lib/auth/two-factor/sign-in");

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
  forgetCachedSettings();
});
afterAll(async () => {
  forgetCachedSettings();
  await restore();
});

async function twoAdminsOnly() {
  await getDb().user.updateMany({ where: { role: "admin" }, data: { disabledAt: new Date() } });
  const admins = [];
  for (let i = 0; i < 2; i++) {
    const u = await createStaff("admin");
    await enrolUser(u.id);
    admins.push({ ...u, session: await sessionFor(u.id, "fresh") });
  }
  return admins as [(typeof admins)[0], (typeof admins)[0]];
}

const enabledAdmins = () => getDb().user.count({ where: { role: "admin", disabledAt: null } });
const as = <T>(session: object, run: () => Promise<T>) => als.store!.run(session, run);

describe("two admins at once", () => {
  it.each([1, 2, 3])("demoting each other (round %i): one stays admin, the other is told why", async () => {
    const [a, b] = await twoAdminsOnly();
    const answers = await Promise.all([
      as(a.session, () => setUserRoleAction({ userId: b.id, role: "support" })),
      as(b.session, () => setUserRoleAction({ userId: a.id, role: "support" })),
    ]);
    expect(await enabledAdmins()).toBe(1);
    expect(answers.filter((r) => r.ok)).toHaveLength(1);
    expect(answers.find((r) => !r.ok)).toMatchObject({ ok: false, code: "not_allowed" });
  });

  it.each([1, 2, 3])("disabling each other (round %i): one stays enabled", async () => {
    const [a, b] = await twoAdminsOnly();
    const answers = await Promise.all([
      as(a.session, () => disableUserAction({ userId: b.id })),
      as(b.session, () => disableUserAction({ userId: a.id })),
    ]);
    expect(await enabledAdmins()).toBe(1);
    expect(answers.filter((r) => r.ok)).toHaveLength(1);
  });

  it("the command line, the way back in, is not held by the check", async () => {
    const [a] = await twoAdminsOnly();
    await getDb().user.updateMany({
      where: { role: "admin", id: { not: a.id } },
      data: { disabledAt: new Date() },
    });
    await disableUser(cliActor, a.email);
    expect(await enabledAdmins()).toBe(0);
  });
});

describe("a sign-in waiting for its code", () => {
  it.each([
    [
      "an admin's password reset",
      (email: string) => resetPassword(cliActor, email, "a brand new password 123"),
    ],
    ["disabling the user", (email: string) => disableUser(cliActor, email)],
  ])("ends with %s: the right code opens nothing", async (_, change) => {
    const u = await createStaff("approver");
    const secret = await enrolUser(u.id, new Date(Date.now() - 60_000));
    const token = await openChallenge(u.id); // the password step, passed with the old password
    await change(u.email);
    expect(await getDb().signInChallenge.count({ where: { userId: u.id } })).toBe(0);
    expect(await completeChallenge(token, codeFor(secret), new Date(), async () => {})).toEqual({
      ok: false,
      reason: "invalid",
    });
  });
});
