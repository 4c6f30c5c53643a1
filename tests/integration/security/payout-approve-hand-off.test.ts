// Security review, finding 15: approving blocked for the platform's whole latency (31 s under 12 s of
// latency). Approving (and auto-approval at creation) now records the decision and hands the submission
// to the worker through the job queue; the worker submits exactly once, a sweep recovers lost jobs, and
// the pay-out page follows the status through a small JSON route.
import { randomUUID } from "node:crypto";
import PgBoss from "pg-boss";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import { roles, type Role } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db";
import type { PlatformClient } from "@/lib/platform/client";
import type { InMemoryRecorder } from "../../support/in-memory-recorder";
import { freshCard } from "../../support/cards";
import { createPayoutRequest } from "@/lib/payouts/requests";
import { payoutFormSchema } from "@/lib/payouts/schemas";
import { forgetCachedSettings, saveSetting } from "@/lib/settings/settings";
import { isolateDatabase } from "../../support/database";
import { createStaff } from "../../support/mirror";
import { clientFor, control, startSandbox } from "../../support/sandbox";
import type { StaffActor } from "@/lib/audit/log";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
const queue = vi.hoisted(() => ({ sent: [] as Array<{ name: string; data: unknown }>, down: false }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
// Actions read the request's language (Accept-Language): no request here, no header.
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));
// The web server's send-only queue, recorded here; one test below goes through the real pg-boss.
vi.mock("@/lib/queue/enqueue", () => ({
  enqueueJob: async () => null,
  enqueueTask: async (name: string, data: unknown) => {
    if (queue.down) throw new Error("connect ECONNREFUSED (queue down)");
    queue.sent.push({ name, data });
    return randomUUID();
  },
}));

let sandbox: Sandbox;
let platform: PlatformClient;
let recorder: InMemoryRecorder;
let restore: () => Promise<void>;
const db = () => getDb();
const users = {} as Record<Role, StaffActor>;
const approvers: StaffActor[] = [];
const holder = globalThis as { paydeskPlatform?: unknown; paydeskBoss?: Promise<PgBoss> };

beforeAll(async () => {
  restore = await isolateDatabase();
  forgetCachedSettings();
  sandbox = await startSandbox({ seedDemoHistory: false });
  ({ platform, recorder } = clientFor(sandbox));
  holder.paydeskPlatform = platform;
  await control(sandbox, "POST", "/merchants/demo/balance", { amount: "1000000" });
  for (const role of roles) {
    const u = await createStaff(role);
    users[role] = { id: u.id, email: u.email, role };
  }
  for (let i = 0; i < 3; i++) {
    const u = await createStaff("approver");
    approvers.push({ id: u.id, email: u.email, role: "approver" });
  }
});
afterAll(async () => {
  holder.paydeskPlatform = undefined;
  const boss = holder.paydeskBoss;
  holder.paydeskBoss = undefined;
  if (boss) await (await boss).stop({ graceful: false, wait: true });
  await sandbox.stop();
  forgetCachedSettings();
  await restore();
});
beforeEach(async () => {
  queue.sent.length = 0;
  queue.down = false;
  recorder.clear();
  // a slow platform: a synchronous submission would wait for it inside the approve call
  await control(sandbox, "PUT", "/faults", { latencyMs: 1500 });
});

function signInAs(user: StaffActor | null) {
  session.current = user ? { userId: user.id, sessionVersion: 0 } : null;
}

const input = (
  amount = `${Math.floor(1000 + Math.random() * 8000)}.${Math.floor(1000 + Math.random() * 8999)}`,
) => ({
  paymentMethod: "toCard",
  bankName: "Сбербанк",
  recipientNumber: freshCard(),
  recipientName: "Ivan Petrov",
  amount,
  clientID: `client-${randomUUID()}`,
  clientIP: "85.143.12.7",
  clientDateCreated: "2023-04-17",
});

async function newRequest(options: { twoApprovals?: boolean } = {}) {
  const f = input(options.twoApprovals ? "20000.5" : undefined);
  const created = await createPayoutRequest(payoutFormSchema.parse(f), users.finance, {
    thresholds: {
      autoApproveBelow: null,
      twoApprovalsAbove: options.twoApprovals ? "10000" : null,
      nearDuplicateTolerancePercent: null,
    },
  });
  if (!created.ok) throw new Error(created.message);
  return created;
}

const actions = () => import("@/lib/actions/payouts");
const payoutPosts = () => recorder.calls.filter((c) => c.path.includes("/host2host/payout"));
const statusOf = async (id: string) =>
  (await db().payoutRequest.findUniqueOrThrow({ where: { id }, select: { status: true } })).status;

async function platformCount(idTransactionMerchant: string): Promise<number> {
  const { operations } = await platform.getOperationsByMerchantIdDeprecated(idTransactionMerchant);
  return operations.length;
}

/** What the worker does with each queued job (the handler it registers for the queue). */
async function runQueued(times = 1): Promise<unknown[]> {
  const { taskHandlers } = await import("@/lib/jobs/handlers");
  const handlers = taskHandlers(platform) as Record<string, (data: unknown) => Promise<unknown>>;
  const jobs = [...queue.sent];
  const runs = jobs.flatMap((job) => Array.from({ length: times }, () => handlers[job.name]!(job.data)));
  return Promise.all(runs);
}

describe("approving hands the submission to the worker", () => {
  it("approve returns with the request approved and no platform call; the queued job then submits exactly once", async () => {
    const req = await newRequest();
    const a = await actions();
    signInAs(users.approver);
    const approved = await a.approvePayoutAction({ id: req.id, comment: "matches the invoice" });

    expect(approved).toMatchObject({ ok: true, status: "approved", approvals: 1, queued: true });
    expect(recorder.calls).toHaveLength(0); // nothing at all was asked of the platform during approve
    expect(await statusOf(req.id)).toBe("approved");
    expect(await db().payoutApproval.count({ where: { payoutRequestId: req.id } })).toBe(1);
    expect(queue.sent).toEqual([
      {
        name: "submitPayout",
        data: expect.objectContaining({
          payoutRequestId: req.id,
          actor: expect.objectContaining({ id: users.approver.id }),
        }),
      },
    ]);

    // the job, delivered twice (a redelivery after a worker crash): one operation
    await runQueued(2);
    expect(await statusOf(req.id)).toBe("submitted");
    expect(payoutPosts()).toHaveLength(1);
    expect(await platformCount(req.idTransactionMerchant)).toBe(1);
    const submit = await db().auditLog.findFirstOrThrow({
      where: { targetId: req.id, action: "payout.submit" },
    });
    expect(submit.actorUserId).toBe(users.approver.id);
  });

  it("auto-approval at creation hands off too: the create action makes no pay-out call", async () => {
    const admin = { id: users.admin.id, email: users.admin.email, ip: null };
    expect(await saveSetting(admin, "autoApproveBelow", "100")).toMatchObject({ ok: true });
    try {
      const a = await actions();
      signInAs(users.finance);
      const created = await a.createPayoutRequestAction({ ...input("42.42"), webhookUrl: "" });
      expect(created).toMatchObject({ ok: true, status: "approved", queued: true });
      expect(payoutPosts()).toHaveLength(0);
      if (!("id" in created)) throw new Error(JSON.stringify(created));
      expect(queue.sent.map((j) => j.data)).toEqual([
        expect.objectContaining({ payoutRequestId: created.id }),
      ]);
      await runQueued();
      expect(await statusOf(created.id)).toBe("submitted");
      expect(payoutPosts()).toHaveLength(1);
    } finally {
      await saveSetting(admin, "autoApproveBelow", null);
    }
  });

  it("a job that never arrives (queue down) is recovered by the sweep: one submission", async () => {
    const req = await newRequest();
    const a = await actions();
    queue.down = true;
    signInAs(users.approver);
    const approved = await a.approvePayoutAction({ id: req.id, comment: "ok" });
    // the decision stands; the request waits for the sweep
    expect(approved).toMatchObject({ ok: true, status: "approved", queued: false });
    expect(payoutPosts()).toHaveLength(0);

    const { jobHandlers } = await import("@/lib/jobs/handlers");
    const sweep = jobHandlers(platform).submittingPayouts;
    await sweep(); // too recent: a queued job may still be on its way
    expect(await statusOf(req.id)).toBe("approved");
    await db()
      .$executeRaw`UPDATE "PayoutRequest" SET "updatedAt" = now() - interval '2 minutes' WHERE id = ${req.id}::uuid`;
    await Promise.all([sweep(), sweep()]);
    await sweep();
    expect(await statusOf(req.id)).toBe("submitted");
    expect(payoutPosts()).toHaveLength(1);
    expect(await platformCount(req.idTransactionMerchant)).toBe(1);
  });

  it("an approved request blocked by the duplicate guard is left for a person, not resent by the sweep", async () => {
    const req = await newRequest();
    await db().payoutRequest.update({
      where: { id: req.id },
      data: { status: "approved", lastMessage: "Blocked: a pay-out ... pending_retry" },
    });
    await db()
      .$executeRaw`UPDATE "PayoutRequest" SET "updatedAt" = now() - interval '2 minutes' WHERE id = ${req.id}::uuid`;
    const { jobHandlers } = await import("@/lib/jobs/handlers");
    await jobHandlers(platform).submittingPayouts();
    expect(await statusOf(req.id)).toBe("approved");
    expect(payoutPosts()).toHaveLength(0);
  });

  it("three approvers at once: one decision counts, one job, one operation", async () => {
    const req = await newRequest();
    const { decide } = await import("@/lib/payouts/approvals");
    const results = await Promise.all(approvers.map((who) => decide(req.id, "approve", "ok", who)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(payoutPosts()).toHaveLength(0);
    expect(queue.sent).toHaveLength(1);
    await runQueued(3);
    expect(payoutPosts()).toHaveLength(1);
    expect(await platformCount(req.idTransactionMerchant)).toBe(1);
  });

  it("two required approvals arriving together queue one submission", async () => {
    const req = await newRequest({ twoApprovals: true });
    const { decide } = await import("@/lib/payouts/approvals");
    const results = await Promise.all([
      decide(req.id, "approve", "a", approvers[0]!),
      decide(req.id, "approve", "b", approvers[1]!),
    ]);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.filter((r) => r.ok && r.queued)).toHaveLength(1);
    expect(payoutPosts()).toHaveLength(0);
    await runQueued(2);
    expect(await statusOf(req.id)).toBe("submitted");
    expect(await platformCount(req.idTransactionMerchant)).toBe(1);
  });

  it("a forged job (not a pay-out id, or an unknown one) sends nothing", async () => {
    const { taskHandlers } = await import("@/lib/jobs/handlers");
    const run = taskHandlers(platform).submitPayout;
    await expect(run({ payoutRequestId: "'; DROP TABLE x; --" })).rejects.toThrow();
    await expect(run(null)).rejects.toThrow();
    expect(
      await run({ payoutRequestId: randomUUID(), actor: { id: null, email: "x", ip: null } }),
    ).toMatchObject({ ok: false, code: "not_found" });
    expect(recorder.calls).toHaveLength(0);
  });

  it("through the real pg-boss queue: the job the web server sends is the one the worker runs", async () => {
    const req = await newRequest();
    const actual = await vi.importActual<typeof import("@/lib/queue/enqueue")>("@/lib/queue/enqueue");
    const { tasks } = await import("@/lib/queue/queues");
    const { taskHandlers } = await import("@/lib/jobs/handlers");
    const { decide } = await import("@/lib/payouts/approvals");
    expect(await decide(req.id, "approve", "ok", approvers[0]!)).toMatchObject({
      ok: true,
      status: "approved",
    });
    const data = queue.sent[0]!.data as Record<string, unknown>;
    expect(await actual.enqueueTask("submitPayout", data)).toBeTruthy();
    // a second hand-off of the same request while the first waits is folded into it
    expect(await actual.enqueueTask("submitPayout", data)).toBeNull();

    const worker = new PgBoss({
      connectionString: process.env.DATABASE_URL!,
      schema: "pgboss",
      supervise: false,
      schedule: false,
    });
    await worker.start();
    try {
      const jobs = await worker.fetch<unknown>(tasks.submitPayout.queue, { batchSize: 5 });
      expect(jobs).toHaveLength(1);
      await taskHandlers(platform).submitPayout(jobs![0]!.data);
      await worker.complete(tasks.submitPayout.queue, jobs![0]!.id);
    } finally {
      await worker.stop({ graceful: false, wait: true });
    }
    expect(await statusOf(req.id)).toBe("submitted");
    expect(await platformCount(req.idTransactionMerchant)).toBe(1);
  });
});

describe("the pay-out page follows the status live", () => {
  const route = async () => (await import("@/app/api/payouts/[id]/status/route")).GET;
  const get = async (id: string) =>
    (await route())(new Request(`http://paydesk.test/api/payouts/${id}/status`), {
      params: Promise.resolve({ id }),
    });

  it("answers 'sending' while the job waits and the outcome once it ran; support is refused", async () => {
    const req = await newRequest();
    const { decide } = await import("@/lib/payouts/approvals");
    await decide(req.id, "approve", "ok", approvers[0]!);

    signInAs(users.finance);
    const before = await get(req.id);
    expect(before.status).toBe(200);
    expect(await before.json()).toMatchObject({ ok: true, status: "approved", sending: true });

    await runQueued();
    const after = await (await get(req.id)).json();
    expect(after).toMatchObject({ ok: true, status: "submitted", sending: false });

    signInAs(users.support);
    expect((await get(req.id)).status).toBe(403);
    signInAs(null);
    expect((await get(req.id)).status).toBe(401);
    signInAs(users.finance);
    expect((await get("not-a-uuid")).status).toBe(400);
    expect((await get(randomUUID())).status).toBe(404);
  });
});
