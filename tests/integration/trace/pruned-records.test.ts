// Audit finding: retention deletes old platform call records (ApiCall) and webhook deliveries, while an
// operation's status history and the drift items still name the traceIDs of the reads that carried
// them. Looking such a traceID up said "Nothing found": no operation, no word of retention. The lookup
// now also reads OperationStatusChange.sourceRef and DriftItem.sourceRef, returns the operations they
// point to, and says the call record was deleted by retention (kept N days) when the naming record is
// older than that, or that no call record is stored when it is not. The support bundle says the same.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { pruneExpiredRecords } from "@/lib/retention/prune";
import { forgetCachedSettings } from "@/lib/settings/settings";
import { buildSupportBundle } from "@/lib/trace/bundle";
import { lookupTrace } from "@/lib/trace/lookup";
import { isolateDatabase } from "../../support/database";
import { createStaff, insertOperations } from "../../support/mirror";
import { pageText } from "../../support/page-text";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.77" }),
}));
vi.mock("@/lib/trace/lookup", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/trace/lookup")>();
  return { ...original, lookupTrace: vi.fn(original.lookupTrace) };
});

const DAY = 24 * 60 * 60 * 1000;
// Real time: the page looks up with the clock of the moment.
const now = new Date();
const daysAgo = (d: number) => new Date(now.getTime() - d * DAY);

const oldOp = randomUUID();
const newOp = randomUUID();
const ghostOp = randomUUID(); // named by a drift item, never mirrored
const T = {
  create: randomUUID(), // creation of oldOp, 200 days ago
  recon: randomUUID(), // a reconciliation list read that moved oldOp, 150 days ago
  drift: randomUUID(), // the list read a drift item about oldOp names, 120 days ago
  ghost: randomUUID(), // the list read a drift item about an operation never mirrored names
  noCall: randomUUID(), // a recent read with no call record at all
  live: randomUUID(), // a recent list read, still recorded (no operation id of its own)
};
const NUMBER = "4276000000000001";

let restore: () => Promise<void>;
let support = "";

beforeAll(async () => {
  restore = await isolateDatabase();
  forgetCachedSettings();
  support = (await createStaff("support")).id;
  await insertOperations([
    { id: oldOp, dateAdded: daysAgo(200), status: "success", detailsNumber: NUMBER },
    { id: newOp, dateAdded: daysAgo(5), status: "in_progress" },
  ]);
  const db = getDb();
  await db.operationStatusChange.createMany({
    data: [
      {
        operationId: oldOp,
        toStatus: "created",
        source: "creation",
        sourceRef: T.create,
        recordedAt: daysAgo(200),
      },
      {
        operationId: oldOp,
        fromStatus: "created",
        toStatus: "success",
        source: "reconciliation",
        sourceRef: T.recon,
        recordedAt: daysAgo(150),
      },
      {
        operationId: newOp,
        toStatus: "created",
        source: "readBack",
        sourceRef: T.noCall,
        recordedAt: daysAgo(5),
      },
      {
        operationId: oldOp,
        fromStatus: "created",
        toStatus: "success",
        source: "webhook",
        sourceRef: "webhook:424242",
        recordedAt: daysAgo(160),
      },
      {
        operationId: newOp,
        fromStatus: "created",
        toStatus: "in_progress",
        source: "reconciliation",
        sourceRef: T.live,
        recordedAt: daysAgo(2),
      },
    ],
  });
  // resolved: an unresolved drift item would keep its operation's call records
  await db.driftItem.createMany({
    data: [
      {
        operationId: oldOp,
        kind: "statusMismatch",
        sourceRef: T.drift,
        state: "resolved",
        resolvedAt: daysAgo(119),
        createdAt: daysAgo(120),
      },
      {
        operationId: ghostOp,
        kind: "missingInMirror",
        sourceRef: T.ghost,
        state: "resolved",
        resolvedAt: daysAgo(119),
        createdAt: daysAgo(120),
      },
    ],
  });
  const call = (traceID: string, at: Date, operationId: string | null) => ({
    startedAt: at,
    method: operationId ? "POST" : "GET",
    path: operationId ? "/host2host/payin" : "/operation/operations",
    httpStatus: 200,
    envelopeStatus: "Success",
    traceID,
    latencyMs: 20,
    operationId,
    responseBody: `{"data":{"paymentDetailsData":{"number":"${NUMBER}"}}}`,
  });
  await db.apiCall.createMany({
    data: [
      call(T.create, daysAgo(200), oldOp),
      call(T.recon, daysAgo(150), null),
      call(T.drift, daysAgo(120), null),
      call(T.ghost, daysAgo(120), null),
      call(T.live, daysAgo(2), null),
    ],
  });
  // retention at its defaults (90 days): the four old calls go, the recent one stays
  const result = await pruneExpiredRecords({ now });
  expect(result.apiCalls.deleted).toBe(4);
  expect((await db.apiCall.findMany({ select: { traceID: true } })).map((c) => c.traceID)).toEqual([T.live]);
});

afterAll(async () => {
  await restore();
});

beforeEach(() => {
  vi.mocked(lookupTrace).mockClear();
});

describe("a traceID whose call record retention deleted", () => {
  it("finds the operation through its status history and says the record was deleted (kept 90 days)", async () => {
    for (const q of [T.create, T.create.toUpperCase(), ` ${T.recon} `]) {
      const r = await lookupTrace(q);
      expect(r.matchedBy).toBe("traceID");
      expect(r.calls).toEqual([]);
      expect(r.operations.map((o) => o.id)).toEqual([oldOp]);
      expect(r.missingRecord).toEqual({ reason: "retention", keptDays: 90 });
      expect(JSON.stringify(r)).not.toContain(NUMBER);
    }
  });

  it("finds the operation a drift item names by its traceID", async () => {
    const r = await lookupTrace(T.drift);
    expect(r.matchedBy).toBe("traceID");
    expect(r.operations.map((o) => o.id)).toEqual([oldOp]);
    expect(r.missingRecord).toEqual({ reason: "retention", keptDays: 90 });
  });

  it("says the record was deleted even when the drift item's operation is not in the mirror", async () => {
    const r = await lookupTrace(T.ghost);
    expect(r.matchedBy).toBe("traceID");
    expect(r.operations).toEqual([]);
    expect(r.missingRecord).toEqual({ reason: "retention", keptDays: 90 });
  });

  it("names a recent traceID with no call record as not stored, not as deleted by retention", async () => {
    const r = await lookupTrace(T.noCall);
    expect(r.matchedBy).toBe("traceID");
    expect(r.operations.map((o) => o.id)).toEqual([newOp]);
    expect(r.missingRecord).toEqual({ reason: "notStored" });
  });

  it("adds the operations a recorded list read moved to its call", async () => {
    const r = await lookupTrace(T.live);
    expect(r.matchedBy).toBe("traceID");
    expect(r.calls.map((c) => c.traceID)).toEqual([T.live]);
    expect(JSON.stringify(r.calls)).not.toContain(NUMBER);
    expect(r.operations.map((o) => o.id)).toEqual([newOp]);
    expect(r.missingRecord).toBeNull();
  });

  it("finds the operation of a webhook's reference from the timeline without calling it a lost call", async () => {
    const r = await lookupTrace("webhook:424242");
    expect(r.matchedBy).toBe("traceID");
    expect(r.operations.map((o) => o.id)).toEqual([oldOp]);
    expect(r.missingRecord).toBeNull();
  });

  it("still finds nothing for a traceID nobody names", async () => {
    const r = await lookupTrace(randomUUID());
    expect(r.matchedBy).toBeNull();
    expect(r.missingRecord).toBeNull();
  });
});

describe("the support bundle of such a traceID", () => {
  it("holds the traceID, the operation and its history, and says the call record was deleted", async () => {
    const text = buildSupportBundle(await lookupTrace(T.create), ["a-secret-value"], now);
    const bundle = JSON.parse(text) as {
      traceIDs: string[];
      calls: unknown[];
      missingCallRecord: unknown;
      operations: Array<{ id: string; statusHistory: Array<{ sourceRef: string | null }> }>;
    };
    expect(bundle.traceIDs).toEqual([T.create]);
    expect(bundle.calls).toEqual([]);
    expect(bundle.missingCallRecord).toEqual({ reason: "deletedByRetention", keptDays: 90 });
    expect(bundle.operations.map((o) => o.id)).toEqual([oldOp]);
    expect(bundle.operations[0]!.statusHistory.map((h) => h.sourceRef)).toEqual([
      T.create,
      "webhook:424242",
      T.recon,
    ]);
    expect(text).not.toContain(NUMBER);
  });

  it("says nothing is missing when the call is there", async () => {
    const bundle = JSON.parse(buildSupportBundle(await lookupTrace(T.live), [], now)) as Record<
      string,
      unknown
    >;
    expect(bundle.missingCallRecord).toBeNull();
  });
});

async function tracePage(q: string, locale: "en" | "ru" = "en") {
  await getDb().user.update({ where: { id: support }, data: { locale } });
  session.current = { userId: support, sessionVersion: 0 };
  const { default: Page } = await import("@/app/(console)/trace/page");
  return pageText(await Page({ searchParams: Promise.resolve({ q }) })).join("\n");
}

describe("the trace page for support", () => {
  it("says the record was deleted by retention and that the operation is below, not 'Nothing found'", async () => {
    const text = await tracePage(T.create);
    expect(text).toContain("The platform call record for this traceID was deleted by retention");
    expect(text).toContain("kept 90 days");
    expect(text).toContain("The operation it concerns is below.");
    expect(text).not.toContain("Nothing found");
    const ru = await tracePage(T.create, "ru");
    expect(ru).toContain("Запись о запросе к платформе с этим traceID удалена по сроку хранения");
    expect(ru).toContain("хранятся 90 дней");
    expect(ru).toContain("Операция, к которой он относится, — ниже.");
    expect(ru).not.toContain("ничего не найдено");
  });

  it("says so without an operation below when none is mirrored", async () => {
    const text = await tracePage(T.ghost);
    expect(text).toContain("was deleted by retention");
    expect(text).not.toContain("The operation it concerns is below.");
    expect(text).toContain("No operation in Paydesk matches it.");
    expect(await tracePage(T.ghost, "ru")).toContain("В Paydesk нет операции, к которой он относится.");
  });

  it("says a recent traceID's call record is not stored", async () => {
    const text = await tracePage(T.noCall);
    expect(text).toContain("No platform call record is stored for this traceID");
    expect(text).not.toContain("retention");
    expect(await tracePage(T.noCall, "ru")).toContain("Записи о запросе к платформе с этим traceID нет");
  });

  it.each([
    ["NUL", `${T.create}\u0000`, /control or invisible formatting characters/],
    ["a bidi override", `\u202E${T.create}`, /control or invisible formatting characters/],
    ["an isolate", `${T.create}\u2066`, /control or invisible formatting characters/],
    ["10,000 characters", T.create.repeat(300), /Paste at most 200 characters/],
    ["a lone surrogate", `${T.create}\uD800`, /control or invisible formatting characters/],
  ])("refuses %s with a clear message and looks nothing up", async (_name, q, message) => {
    const text = await tracePage(q);
    expect(text).toMatch(message);
    expect(vi.mocked(lookupTrace)).not.toHaveBeenCalled();
  });
});
