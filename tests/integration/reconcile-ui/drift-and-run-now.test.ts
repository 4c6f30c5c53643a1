// Reconciliation page actions: acknowledge/resolve drift with a note (audited), and "run now" through
// the job queue (recorded here instead of pg-boss).
import { randomUUID } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { listDrift, listRuns } from "@/lib/reconcile/queries";
import { createStaff } from "../../support/mirror";
import { pageText } from "../../support/page-text";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
const queue = vi.hoisted(() => ({ sent: [] as string[], next: "job-1" as string | null }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.30" }),
}));
vi.mock("@/lib/queue/enqueue", () => ({
  enqueueJob: async (name: string) => {
    queue.sent.push(name);
    return queue.next;
  },
}));

const { decideDriftAction, runReconciliationNowAction } = await import("@/lib/actions/reconcile");

const db = getDb();
let financeId: string;
let runId: string;

beforeAll(async () => {
  const finance = await createStaff("finance");
  financeId = finance.id;
  session.current = { userId: finance.id, sessionVersion: 0 };
  runId = (
    await db.reconciliationRun.create({ data: { kind: "full", status: "completed", finishedAt: new Date() } })
  ).id;
});
beforeEach(() => {
  queue.sent.length = 0;
  queue.next = "job-1";
});

const newDrift = async () =>
  (
    await db.driftItem.create({
      data: {
        runId,
        operationId: randomUUID(),
        kind: "statusMismatch",
        platformValue: { status: "success" },
      },
    })
  ).id;

describe("drift decisions", () => {
  it("open -> acknowledged -> resolved, each with a note, audited", async () => {
    const id = await newDrift();
    expect(await decideDriftAction({ id, decision: "acknowledge", note: "looking into it" })).toEqual({
      ok: true,
      id,
      state: "acknowledged",
    });
    expect(await decideDriftAction({ id, decision: "acknowledge", note: "again" })).toMatchObject({
      ok: false,
      code: "not_allowed",
    });
    expect(
      await decideDriftAction({ id, decision: "resolve", note: "platform confirmed success; mirror fixed" }),
    ).toEqual({
      ok: true,
      id,
      state: "resolved",
    });
    const item = await db.driftItem.findUniqueOrThrow({ where: { id } });
    expect(item).toMatchObject({
      state: "resolved",
      resolvedById: financeId,
      note: "platform confirmed success; mirror fixed",
    });
    expect(item.resolvedAt).toBeInstanceOf(Date);
    const entries = await db.auditLog.findMany({ where: { targetId: id }, orderBy: { id: "asc" } });
    expect(entries.map((e) => [e.action, e.before, e.after, e.ip])).toEqual([
      [
        "drift.acknowledge",
        { state: "open", note: null },
        { state: "acknowledged", note: "looking into it" },
        "198.51.100.30",
      ],
      [
        "drift.resolve",
        { state: "acknowledged", note: "looking into it" },
        { state: "resolved", note: "platform confirmed success; mirror fixed" },
        "198.51.100.30",
      ],
    ]);
    expect(await decideDriftAction({ id, decision: "resolve", note: "once more" })).toMatchObject({
      ok: false,
    });
  });

  it("lists by state with the resolver's email", async () => {
    const id = await newDrift();
    await decideDriftAction({ id, decision: "resolve", note: "checked" });
    const resolved = await listDrift({ state: "resolved", page: 1 });
    expect(resolved.rows.find((r) => r.id === id)).toMatchObject({
      state: "resolved",
      resolvedBy: expect.stringContaining("@"),
    });
  });

  const MB = "x".repeat(1_048_576);
  it.each([
    ["empty note", { decision: "resolve", note: "" }, "note"],
    ["blank note", { decision: "resolve", note: "   " }, "note"],
    ["1 MB note", { decision: "resolve", note: MB }, "note"],
    ["note as a number", { decision: "resolve", note: 42 }, "note"],
    ["null note", { decision: "resolve", note: null }, "note"],
    ["unknown decision", { decision: "delete", note: "x x x" }, "decision"],
    ["id not a uuid", { id: "1", decision: "resolve", note: "x x x" }, "id"],
    ["extra field", { decision: "resolve", note: "x x x", state: "open" }, null],
  ])("%s is refused and changes nothing", async (_name, change, field) => {
    const id = await newDrift();
    const result = await decideDriftAction({ id, ...change });
    expect(result).toMatchObject({ ok: false, code: "invalid" });
    if (field && !result.ok && "fieldErrors" in result) expect(result.fieldErrors[field]?.[0]).toMatch(/\w/);
    expect(await db.driftItem.findUniqueOrThrow({ where: { id } })).toMatchObject({
      state: "open",
      note: null,
    });
    expect(await db.auditLog.count({ where: { targetId: id } })).toBe(0);
  });

  it("an unknown item is not found", async () => {
    expect(await decideDriftAction({ id: randomUUID(), decision: "resolve", note: "checked" })).toMatchObject(
      {
        ok: false,
        code: "not_found",
      },
    );
  });
});

describe("an operation in the platform's list that did not decode", () => {
  it("is shown with the item as sent and the decoder's reason, in English and in Russian", async () => {
    const operationId = randomUUID();
    const reason = 'status: unknown operation status "cancelled"';
    const item = { id: operationId, status: "cancelled", amount: "100" };
    const [withId, withoutId] = await Promise.all(
      [operationId, null].map((id) =>
        db.driftItem.create({
          data: {
            runId,
            operationId: id,
            kind: "unreadable",
            fields: ["status"],
            platformValue: { reason, item: id ? item : { id: "not-a-uuid" } },
          },
        }),
      ),
    );
    const { default: Page } = await import("@/app/(console)/reconciliation/page");
    const text = async (locale: "ru" | "en") => {
      await db.user.update({ where: { id: financeId }, data: { locale, timeZone: "UTC" } });
      return pageText(await Page({ searchParams: Promise.resolve({ state: "open" }) })).join(" | ");
    };
    const en = await text("en");
    expect(en).toContain("unreadable: an operation in the platform's list that Paydesk cannot read");
    expect(en).toContain(reason);
    expect(en).toContain(`"status":"cancelled"`); // the item, in the platform column
    expect(en).toContain(operationId);
    expect(await text("ru")).toContain(
      "не читается: операция в списке платформы, которую Paydesk не может прочитать",
    );
    const rows = (await listDrift({ state: "open", page: 1 })).rows;
    expect(rows.find((r) => r.id === withId!.id)).toMatchObject({ reason, platformValue: item, operationId });
    expect(rows.find((r) => r.id === withoutId!.id)).toMatchObject({ operationId: null, reason });
  });
});

describe("run now", () => {
  it("queues the incremental or the full job and audits it", async () => {
    expect(await runReconciliationNowAction({ kind: "incremental" })).toEqual({
      ok: true,
      kind: "incremental",
      queued: true,
    });
    queue.next = null;
    expect(await runReconciliationNowAction({ kind: "full" })).toEqual({
      ok: true,
      kind: "full",
      queued: false,
    });
    expect(queue.sent).toEqual(["reconcileIncremental", "reconcileFull"]);
    const entry = await db.auditLog.findFirstOrThrow({
      where: { action: "reconciliation.runNow", actorUserId: financeId },
      orderBy: { id: "desc" },
    });
    expect(entry.after).toEqual({ kind: "full", jobId: null, alreadyQueued: true });
  });

  it.each([
    ["unknown kind", { kind: "everything" }],
    ["no kind", {}],
    ["kind as a number", { kind: 1 }],
    ["null", null],
  ])("%s is refused, nothing queued", async (_name, input) => {
    expect(await runReconciliationNowAction(input)).toMatchObject({ ok: false, code: "invalid" });
    expect(queue.sent).toEqual([]);
  });

  it("lists runs with their drift count", async () => {
    const runs = await listRuns(100);
    expect(runs.find((r) => r.id === runId)?.drift).toBeGreaterThan(0);
  });
});
