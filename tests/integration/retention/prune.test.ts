// Retention of ApiCall and WebhookDelivery: old rows go in bounded batches, failed calls and refused
// webhooks stay longer, and rows that an open drift item, a pay-out, an audit entry or the inbox still
// needs are never deleted, whatever their age. An issued statement needs none of them: it is whole
// without them.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import type { Settings } from "@/lib/settings/settings";
import { forgetCachedSettings, getSettings } from "@/lib/settings/settings";
import { pruneExpiredRecords } from "@/lib/retention/prune";
import { automaticActor } from "@/lib/audit/log";
import { issueStatement, issuedDocument, issuedFile, markSupersededStatements } from "@/lib/statements/issue";
import { renderers } from "@/lib/statements/respond";
import { createStaff, insertOperations } from "../../support/mirror";
import { isolateDatabase } from "../../support/database";

const DAY = 24 * 60 * 60 * 1000;
const now = new Date("2026-06-01T00:00:00Z");
const daysAgo = (d: number) => new Date(now.getTime() - d * DAY);

let restore: () => Promise<void>;
let settings: Settings;
beforeAll(async () => {
  restore = await isolateDatabase();
  forgetCachedSettings();
  settings = await getSettings();
});
afterAll(async () => restore());
beforeEach(async () => {
  const db = getDb();
  await db.apiCall.deleteMany();
  await db.webhookDelivery.deleteMany();
  await db.setting.deleteMany({ where: { key: { startsWith: "retention" } } }); // where a sweep stopped
});

type CallRow = {
  tag: string;
  at: Date;
  ok?: boolean;
  operationId?: string;
  idTransactionMerchant?: string;
  traceID?: string;
};

async function calls(rows: CallRow[]) {
  await getDb().apiCall.createMany({
    data: rows.map((r) => ({
      startedAt: r.at,
      method: "GET",
      path: `/test/${r.tag}`,
      httpStatus: r.ok === false ? 502 : 200,
      envelopeStatus: r.ok === false ? null : "Success",
      error: r.ok === false ? "upstream 502" : null,
      latencyMs: 5,
      traceID: r.traceID ?? `trace-${r.tag}`,
      operationId: r.operationId ?? null,
      idTransactionMerchant: r.idTransactionMerchant ?? null,
    })),
  });
}

async function remainingCalls(): Promise<string[]> {
  const rows = await getDb().apiCall.findMany({ select: { path: true }, orderBy: { id: "asc" } });
  return rows.map((r) => r.path.replace("/test/", ""));
}

async function webhook(tag: string, at: Date, outcome: string, extra: { operationId?: string } = {}) {
  return getDb().webhookDelivery.create({
    data: {
      receivedAt: at,
      headers: {},
      body: tag,
      bodyBytes: tag.length,
      outcome: outcome as "applied",
      processedAt: outcome === "received" ? null : at,
      operationId: extra.operationId ?? null,
    },
  });
}

describe("retention of platform calls", () => {
  it("defaults to 90 days, failed calls 365", () => {
    expect(settings).toMatchObject({
      apiCallRetentionDays: 90,
      failedApiCallRetentionDays: 365,
      webhookRetentionDays: 90,
      refusedWebhookRetentionDays: 365,
    });
  });

  it("deletes successful calls past 90 days and failed ones past 365, keeps the rest", async () => {
    await calls([
      { tag: "ok-100d", at: daysAgo(100) },
      { tag: "ok-89d", at: daysAgo(89) },
      { tag: "failed-100d", at: daysAgo(100), ok: false },
      { tag: "failed-400d", at: daysAgo(400), ok: false },
      { tag: "ok-1d", at: daysAgo(1) },
    ]);
    const result = await pruneExpiredRecords({ now, settings });
    expect(await remainingCalls()).toEqual(["ok-89d", "failed-100d", "ok-1d"]);
    expect(result.apiCalls).toMatchObject({ deleted: 2, finished: true });
  });

  it("never deletes calls of a pay-out, of an operation with open drift, or that an audit entry names", async () => {
    const db = getDb();
    const [payoutOp, driftOp, resolvedDriftOp, auditedOp, plainOp] = await insertOperations(
      Array.from({ length: 5 }, () => ({ dateAdded: daysAgo(500), typeOperation: "payOut" as const })),
    );
    const maker = await createStaff("finance");
    await db.payoutRequest.create({
      data: {
        idTransactionMerchant: "po-merchant-1",
        paymentMethod: "toCard",
        bankName: "Sberbank",
        recipientNumber: "4276000000000001",
        recipientName: "A B",
        amount: "100",
        clientID: "c",
        clientIP: "198.51.100.1",
        clientDateCreated: daysAgo(500),
        makerId: maker.id,
        operationId: payoutOp,
        lastTraceID: "trace-of-payout",
      },
    });
    const run = await db.reconciliationRun.create({ data: { kind: "full", status: "completed" } });
    await db.driftItem.create({ data: { runId: run.id, operationId: driftOp!, kind: "statusMismatch" } });
    await db.driftItem.create({
      data: { runId: run.id, operationId: resolvedDriftOp!, kind: "statusMismatch", state: "resolved" },
    });
    await calls([
      { tag: "payout-op", at: daysAgo(500), operationId: payoutOp },
      { tag: "payout-merchant-id", at: daysAgo(500), idTransactionMerchant: "po-merchant-1" },
      { tag: "payout-trace", at: daysAgo(500), traceID: "trace-of-payout" },
      { tag: "open-drift", at: daysAgo(500), operationId: driftOp },
      { tag: "resolved-drift", at: daysAgo(500), operationId: resolvedDriftOp },
      { tag: "audited-op", at: daysAgo(500), operationId: auditedOp },
      { tag: "audited-call", at: daysAgo(500) },
      { tag: "plain", at: daysAgo(500), operationId: plainOp },
    ]);
    const auditedCall = await db.apiCall.findFirstOrThrow({ where: { path: "/test/audited-call" } });
    await db.auditLog.createMany({
      data: [
        { action: "operation.refresh", targetType: "operation", targetId: auditedOp! },
        { action: "trace.note", targetType: "apiCall", targetId: auditedCall.id.toString() },
      ],
    });

    await pruneExpiredRecords({ now, settings });
    expect(await remainingCalls()).toEqual([
      "payout-op",
      "payout-merchant-id",
      "payout-trace",
      "open-drift",
      "audited-op",
      "audited-call",
    ]);
  });

  it("keeps the calls of an acknowledged drift item, and of a refused pay-in its audit entry names by idTransactionMerchant", async () => {
    const db = getDb();
    const [acknowledgedOp, resolvedOp] = await insertOperations(
      Array.from({ length: 2 }, () => ({ dateAdded: daysAgo(500) })),
    );
    const run = await db.reconciliationRun.create({ data: { kind: "full", status: "completed" } });
    await db.driftItem.createMany({
      data: [
        { runId: run.id, operationId: acknowledgedOp!, kind: "amountMismatch", state: "acknowledged" },
        { runId: run.id, operationId: resolvedOp!, kind: "amountMismatch", state: "resolved" },
      ],
    });
    // createPayIn audits a creation that got no operation under its idTransactionMerchant
    const refused = `payin-${randomUUID()}`;
    await db.auditLog.create({
      data: {
        action: "payin.create",
        targetType: "operation",
        targetId: refused,
        after: { idTransactionMerchant: refused, outcome: "rejected" },
      },
    });
    await calls([
      { tag: "acknowledged-drift", at: daysAgo(500), operationId: acknowledgedOp },
      { tag: "resolved-drift", at: daysAgo(500), operationId: resolvedOp },
      { tag: "refused-payin", at: daysAgo(500), ok: false, idTransactionMerchant: refused },
      { tag: "unaudited-payin", at: daysAgo(500), ok: false, idTransactionMerchant: `payin-${randomUUID()}` },
    ]);

    await pruneExpiredRecords({ now, settings });
    expect(await remainingCalls()).toEqual(["acknowledged-drift", "refused-payin"]);
  });

  it("deletes in batches of the given size and stops at the run's time budget", async () => {
    await calls(Array.from({ length: 23 }, (_, i) => ({ tag: `old-${i}`, at: daysAgo(200) })));
    await calls([{ tag: "new", at: daysAgo(2) }]);
    const result = await pruneExpiredRecords({ now, settings, batchSize: 5 });
    expect(result.apiCalls).toMatchObject({ deleted: 23, batches: 5, finished: true });
    expect(await remainingCalls()).toEqual(["new"]);

    await calls(Array.from({ length: 10 }, (_, i) => ({ tag: `later-${i}`, at: daysAgo(200) })));
    const stopped = await pruneExpiredRecords({ now, settings, batchSize: 5, budgetMs: -1 });
    expect(stopped.apiCalls).toMatchObject({ deleted: 0, finished: false });
    expect(await getDb().apiCall.count()).toBe(11);
  });

  it("follows the settings", async () => {
    await calls([
      { tag: "ok-40d", at: daysAgo(40) },
      { tag: "failed-40d", at: daysAgo(40), ok: false },
    ]);
    await pruneExpiredRecords({
      now,
      settings: { ...settings, apiCallRetentionDays: 30, failedApiCallRetentionDays: 60 },
    });
    expect(await remainingCalls()).toEqual(["failed-40d"]);
  });

  it("keeps failed calls and refused webhooks as long as the rest when stored with a shorter period", async () => {
    await calls([
      { tag: "ok-20d", at: daysAgo(20) },
      { tag: "failed-20d", at: daysAgo(20), ok: false },
      { tag: "ok-40d", at: daysAgo(40) },
      { tag: "failed-40d", at: daysAgo(40), ok: false },
    ]);
    await webhook("rejected-20d", daysAgo(20), "rejected");
    await webhook("rejected-40d", daysAgo(40), "rejected");
    // Saving refuses such a pair (settings.test.ts); one written by hand into the table is read as is.
    const result = await pruneExpiredRecords({
      now,
      settings: {
        ...settings,
        apiCallRetentionDays: 30,
        failedApiCallRetentionDays: 7,
        webhookRetentionDays: 30,
        refusedWebhookRetentionDays: 7,
      },
    });
    expect(await remainingCalls()).toEqual(["ok-20d", "failed-20d"]);
    expect((await getDb().webhookDelivery.findMany()).map((w) => w.body)).toEqual(["rejected-20d"]);
    expect(result).toMatchObject({ apiCalls: { deleted: 2 }, webhooks: { deleted: 1 } });
  });
});

describe("retention of webhook bodies", () => {
  const remaining = async () =>
    (await getDb().webhookDelivery.findMany({ orderBy: { id: "asc" } })).map((w) => w.body);

  it("deletes processed webhooks past 90 days, refused past 365, never one still in the inbox", async () => {
    const [driftOp] = await insertOperations([{ dateAdded: daysAgo(500) }]);
    const db = getDb();
    const run = await db.reconciliationRun.create({ data: { kind: "full", status: "completed" } });
    await db.driftItem.create({ data: { runId: run.id, operationId: driftOp!, kind: "amountMismatch" } });
    await webhook("applied-100d", daysAgo(100), "applied");
    await webhook("duplicate-100d", daysAgo(100), "duplicate");
    await webhook("applied-10d", daysAgo(10), "applied");
    await webhook("rejected-100d", daysAgo(100), "rejected");
    await webhook("malformed-400d", daysAgo(400), "malformed");
    await webhook("unprocessed-400d", daysAgo(400), "received");
    await webhook("open-drift-400d", daysAgo(400), "applied", { operationId: driftOp });
    const audited = await webhook("reprocessed-400d", daysAgo(400), "applied", { operationId: randomUUID() });
    await db.auditLog.create({
      data: { action: "webhook.reprocess", targetType: "webhookDelivery", targetId: audited.id.toString() },
    });

    const result = await pruneExpiredRecords({ now, settings });
    expect(await remaining()).toEqual([
      "applied-10d",
      "rejected-100d",
      "unprocessed-400d",
      "open-drift-400d",
      "reprocessed-400d",
    ]);
    expect(result.webhooks).toMatchObject({ deleted: 3, finished: true });
  });
});

describe("retention and issued statements", () => {
  it("an issued statement needs no call record or webhook body: after they go it is whole, the same bytes, not superseded", async () => {
    const db = getDb();
    const day = (d: number) => new Date(Date.UTC(2026, 1, d, 12));
    const operations = await insertOperations([
      { dateAdded: day(3), dateUpdated: day(4), status: "success" },
      { dateAdded: day(5), dateUpdated: day(6), status: "success", typeOperation: "payOut" },
    ]);
    const { id } = await issueStatement(
      { from: new Date("2026-02-01T00:00:00Z"), to: new Date("2026-03-01T00:00:00Z"), tz: "UTC" },
      automaticActor,
    );
    const csv = await issuedFile(id, "csv", renderers.csv);
    const before = await db.issuedStatement.findUniqueOrThrow({ where: { id } });
    const files = () => db.issuedStatementFile.findMany({ where: { statementId: id } });
    const filesBefore = await files();
    const lines = async () => {
      const out = [];
      for await (const chunk of (await issuedDocument(id))!.lines()) out.push(...chunk);
      return out;
    };
    const linesBefore = await lines();
    expect(new Set(linesBefore.map((l) => l.key))).toEqual(new Set(operations));

    await calls(
      operations.map((operationId, i) => ({ tag: `of-statement-${i}`, at: daysAgo(100), operationId })),
    );
    for (const [i, operationId] of operations.entries())
      await webhook(`of-statement-${i}`, daysAgo(100), "applied", { operationId });
    const result = await pruneExpiredRecords({ now, settings });
    expect(result.apiCalls.deleted).toBe(2);
    expect(result.webhooks.deleted).toBe(2);

    const after = await db.issuedStatement.findUniqueOrThrow({ where: { id } });
    expect(after).toEqual(before);
    expect(Buffer.compare(Buffer.from(after.content), Buffer.from(before.content))).toBe(0);
    expect(await files()).toEqual(filesBefore);
    expect(await lines()).toEqual(linesBefore);
    expect(Buffer.compare((await issuedFile(id, "csv", renderers.csv))!, csv!)).toBe(0);
    expect(await markSupersededStatements(now)).toBe(0);
    expect(await db.auditLog.count({ where: { action: "statements.issue", targetId: id } })).toBe(1);
  });
});

describe("retention and the evidence of a drift item", () => {
  it("keeps the list-page call an unresolved drift item names by its traceID; a resolved item's call goes", async () => {
    const db = getDb();
    const run = await db.reconciliationRun.create({ data: { kind: "full", status: "completed" } });
    // An item of a page that did not decode has no operation: the page's call is its only evidence.
    await db.driftItem.createMany({
      data: [
        { runId: run.id, kind: "unreadable", sourceRef: "trace-list-open", platformValue: { reason: "x" } },
        {
          runId: run.id,
          operationId: randomUUID(),
          kind: "statusMismatch",
          state: "acknowledged",
          sourceRef: "trace-list-acknowledged",
        },
        { runId: run.id, kind: "unreadable", state: "resolved", sourceRef: "trace-list-resolved" },
      ],
    });
    await calls([
      { tag: "list-open", at: daysAgo(500), traceID: "trace-list-open" },
      { tag: "list-acknowledged", at: daysAgo(500), traceID: "trace-list-acknowledged" },
      { tag: "list-resolved", at: daysAgo(500), traceID: "trace-list-resolved" },
    ]);

    await pruneExpiredRecords({ now, settings });
    expect(await remainingCalls()).toEqual(["list-open", "list-acknowledged"]);
  });
});

describe("retention's progress past the rows it keeps", () => {
  // Each batch takes one "second" of prune's clock (its own calls to Date.now, nobody else's): a run's
  // budget buys a known number of batches.
  const realNow = Date.now.bind(Date);
  let clock = 0;
  beforeEach(() => {
    clock = realNow();
    vi.spyOn(Date, "now").mockImplementation(() =>
      new Error().stack?.includes("retention/prune") ? (clock += 1_000) : realNow(),
    );
    return () => vi.restoreAllMocks();
  });

  it("carries on where the last run stopped, instead of rescanning the kept rows at the head every run", async () => {
    const db = getDb();
    const kept = Array.from({ length: 15 }, (_, i) => ({ tag: `kept-${i}`, at: daysAgo(400 - i) }));
    await calls(kept);
    await db.auditLog.createMany({
      data: (await db.apiCall.findMany({ select: { id: true } })).map((c) => ({
        action: "trace.note",
        targetType: "apiCall",
        targetId: c.id.toString(),
      })),
    });
    await calls(Array.from({ length: 5 }, (_, i) => ({ tag: `old-${i}`, at: daysAgo(200 - i) })));
    // Two batches of five a run: the kept head alone takes three.
    const run = () => pruneExpiredRecords({ now, settings, batchSize: 5, budgetMs: 2_500 });
    expect((await run()).apiCalls).toMatchObject({ deleted: 0, batches: 2, finished: false });
    expect((await run()).apiCalls).toMatchObject({ deleted: 5 });
    expect(await remainingCalls()).toEqual(kept.map((k) => k.tag));

    // A sweep that reached the end starts again from the oldest row (one no longer kept may go now).
    expect((await run()).apiCalls).toMatchObject({ scanned: 0, finished: true });
    expect((await run()).apiCalls).toMatchObject({ scanned: 10, finished: false });
  });

  it("gives the webhook sweep a budget of its own when the call sweep used all of its", async () => {
    const db = getDb();
    await calls(Array.from({ length: 20 }, (_, i) => ({ tag: `kept-${i}`, at: daysAgo(400 - i) })));
    await db.auditLog.createMany({
      data: (await db.apiCall.findMany({ select: { id: true } })).map((c) => ({
        action: "trace.note",
        targetType: "apiCall",
        targetId: c.id.toString(),
      })),
    });
    await webhook("applied-100d", daysAgo(100), "applied");
    const result = await pruneExpiredRecords({ now, settings, batchSize: 5, budgetMs: 2_500 });
    expect(result.apiCalls).toMatchObject({ finished: false });
    expect(result.webhooks).toMatchObject({ deleted: 1, finished: true });
  });
});
