// Audit of 25 November. A session signed in through single sign-on whose provider MFA had gone stale was
// asked to prove it again before step-up actions, but it could enrol an authenticator of its own (no
// proof asked), and confirming that made its second factor fresh: step-up passed, and the factor stayed
// on the account. Enrolling is now a step-up action itself; a user without any factor is not asked.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSession } from "@/lib/auth/session-store";
import { codeAt, newTotpSecret } from "@/lib/auth/two-factor/totp";
import { getDb } from "@/lib/db";
import { forgetCachedSettings } from "@/lib/settings/settings";
import { isolateDatabase } from "../../support/database";
import { createStaff } from "../../support/mirror";

const session = vi.hoisted(() => ({ current: null as null | object }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current, ssoConfigured: () => true }));
vi.mock("next/headers", async () => (await import("../../support/next-request")).nextHeadersModule());
vi.mock("next/navigation", async () => (await import("../../support/next-request")).nextNavigationModule());

const { createUserAction } = await import("@/lib/actions/users");
const { startEnrolmentAction, confirmEnrolmentAction } = await import("@/lib/actions/two-factor");

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
  forgetCachedSettings();
});
afterAll(async () => {
  forgetCachedSettings();
  await restore();
});

describe("enrolling an authenticator", () => {
  it("a stale single sign-on MFA session must sign in again first; it gets no factor and no step-up", async () => {
    const admin = await createStaff("admin");
    const now = new Date();
    // signed in through single sign-on with the provider's MFA 30 minutes ago (the window is 5 minutes)
    const sid = await startSession(admin.id, now, {
      secondFactorAt: new Date(now.getTime() - 30 * 60_000),
      identityProviderMfa: true,
    });
    const row = await getDb().session.findUniqueOrThrow({ where: { sessionToken: sid } });
    session.current = { userId: admin.id, sessionVersion: 0, sessionId: row.id };

    const input = { email: `new-${randomUUID()}@example.test`, role: "admin", password: "" };
    const stepUp = { ok: false, code: "step_up_required", method: "sso" };
    expect(await createUserAction(input)).toMatchObject(stepUp);
    expect(await startEnrolmentAction()).toMatchObject(stepUp);
    expect(await confirmEnrolmentAction({ code: codeAt(newTotpSecret(), new Date()) })).toMatchObject(stepUp);
    const factor = { totpSecret: true, totpEnrolledAt: true } as const;
    expect(await getDb().user.findUniqueOrThrow({ where: { id: admin.id }, select: factor })).toEqual({
      totpSecret: null,
      totpEnrolledAt: null,
    });
    expect(await createUserAction(input)).toMatchObject(stepUp);
  });

  it("a user without any second factor enrols without being asked for one", async () => {
    const user = await createStaff("finance");
    const sid = await startSession(user.id, new Date());
    const row = await getDb().session.findUniqueOrThrow({ where: { sessionToken: sid } });
    session.current = { userId: user.id, sessionVersion: 0, sessionId: row.id };
    const started = await startEnrolmentAction();
    if (!started.ok || !("secret" in started)) throw new Error(JSON.stringify(started));
    const confirmed = await confirmEnrolmentAction({ code: codeAt(started.secret, new Date()) });
    expect(confirmed).toMatchObject({ ok: true });
  });
});
