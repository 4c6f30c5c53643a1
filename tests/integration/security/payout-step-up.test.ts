// Audit of pay-outs, F2: money left without a fresh second factor through the create action (a request
// under the auto-approval limit is approved and queued for sending in the same call) and through Send
// (an approved request held back). Both now ask for step-up like approving does; a user with no second
// factor is asked nothing. Called as server actions, on a database of their own (the policy is global).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import { cliActor, type StaffActor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { forgetCachedSettings, saveSetting } from "@/lib/settings/settings";
import { freshCard } from "../../support/cards";
import { isolateDatabase } from "../../support/database";
import { createStaff } from "../../support/mirror";
import { payoutForm } from "../../support/payouts";
import { clientFor, control, startSandbox } from "../../support/sandbox";
import { enrolUser, requireTwoFactorFor, sessionFor, type SecondFactorAge } from "../../support/two-factor";

const session = vi.hoisted(() => ({ current: null as null | object }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current, ssoConfigured: () => false }));
vi.mock("next/headers", async () => (await import("../../support/next-request")).nextHeadersModule());
vi.mock("next/navigation", async () => (await import("../../support/next-request")).nextNavigationModule());
const queued = vi.hoisted(() => [] as unknown[]);
vi.mock("@/lib/queue/enqueue", () => ({
  enqueueJob: async () => null,
  enqueueTask: async (_name: string, data: unknown) => {
    queued.push(data);
    return randomUUID();
  },
}));

const payoutActions = await import("@/lib/actions/payouts");
const { createPayoutRequest } = await import("@/lib/payouts/requests");

let restore: () => Promise<void>;
let sandbox: Sandbox;
const staff = {} as Record<"admin" | "finance" | "unenrolled", StaffActor>;
const db = () => getDb();

beforeAll(async () => {
  restore = await isolateDatabase();
  forgetCachedSettings();
  sandbox = await startSandbox({ seedDemoHistory: false });
  (globalThis as { paydeskPlatform?: unknown }).paydeskPlatform = clientFor(sandbox).platform;
  await control(sandbox, "POST", "/merchants/demo/balance", { amount: "1000000" });
  await requireTwoFactorFor(["admin", "approver"]);
  for (const [key, value] of [
    ["autoApproveBelow", "5000"],
    ["autoApproveRecipientDailySum", "5000"],
  ] as const) {
    const saved = await saveSetting(cliActor, key, value);
    if (!saved.ok) throw new Error(saved.message);
  }
  forgetCachedSettings();
  for (const [key, role] of [
    ["admin", "admin"],
    ["finance", "finance"],
    ["unenrolled", "finance"],
  ] as const) {
    const u = await createStaff(role);
    if (key !== "unenrolled") await enrolUser(u.id);
    staff[key] = { id: u.id, email: u.email, role };
  }
});
afterAll(async () => {
  forgetCachedSettings();
  await sandbox.stop();
  await restore();
});
beforeEach(() => {
  queued.length = 0;
});

function input(recipientNumber = freshCard()) {
  return {
    paymentMethod: "toCard",
    bankName: "Сбербанк",
    recipientNumber,
    recipientName: "Ivan Petrov",
    amount: "4999.99",
    clientID: `client-${randomUUID()}`,
    clientIP: "85.143.12.7",
    clientDateCreated: "2023-04-17",
    webhookUrl: "",
  };
}

const signIn = async (who: keyof typeof staff, age: SecondFactorAge) =>
  (session.current = await sessionFor(staff[who].id, age));

describe("creating a pay-out that is sent at once asks for a fresh second factor", () => {
  it.each(["admin", "finance"] as const)(
    "%s with a second factor proved 6 minutes ago: step_up_required, nothing created or queued",
    async (role) => {
      await signIn(role, "stale");
      const form = input();
      expect(await payoutActions.createPayoutRequestAction(form)).toMatchObject({
        ok: false,
        code: "step_up_required",
        method: "totp",
      });
      expect(await db().payoutRequest.count({ where: { recipientNumber: form.recipientNumber } })).toBe(0);
      expect(queued).toHaveLength(0);
    },
  );

  it("with a fresh second factor: created, approved and queued", async () => {
    await signIn("finance", "fresh");
    const created = await payoutActions.createPayoutRequestAction(input());
    expect(created).toMatchObject({ ok: true, status: "approved", queued: true });
    expect(queued).toHaveLength(1);
  });

  it("a user with no second factor is asked nothing (password-only users keep working)", async () => {
    await signIn("unenrolled", "none");
    expect(await payoutActions.createPayoutRequestAction(input())).toMatchObject({
      ok: true,
      status: "approved",
    });
  });
});

describe("Send on an approved request asks for a fresh second factor", () => {
  async function approved() {
    const created = await createPayoutRequest(payoutForm({ amount: "10" }), staff.finance);
    if (!created.ok || created.status !== "approved") throw new Error(JSON.stringify(created));
    return created.id;
  }

  it("stale: step_up_required, nothing sent", async () => {
    const id = await approved();
    await signIn("finance", "stale");
    expect(await payoutActions.submitPayoutAction({ id })).toMatchObject({
      ok: false,
      code: "step_up_required",
    });
    expect(await db().payoutRequest.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "approved",
      operationId: null,
    });
  });

  it("fresh: sent", async () => {
    const id = await approved();
    await signIn("finance", "fresh");
    expect(await payoutActions.submitPayoutAction({ id })).toMatchObject({ ok: true, status: "submitted" });
  });
});
