import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { createPlatformClient, type PlatformClient } from "@/lib/platform/client";
import { applySnapshotsBatch } from "@/lib/operations/mirror/apply-batch";
import { applySnapshot } from "@/lib/operations/mirror/apply-snapshot";
import { readOpenOperations } from "@/lib/reconcile/open-operations";
import { listDrift } from "@/lib/reconcile/queries";
import { runReconciliation } from "@/lib/reconcile/run";
import { PlatformError } from "@/lib/platform/errors";
import { walkOperations } from "@/lib/reconcile/walk";
import { FakeList } from "../../support/fake-list";
import { snapshot, wireJsonOf } from "../../support/operations";
import { runNoteIn } from "../../support/notes";

const db = getDb();

// Minutes after 1990-01-01: a period no other test uses, so counts here are exact.
const minute = (m: number) => new Date(Date.UTC(1990, 0, 1) + m * 60_000).toISOString();
const make = (m: number, status = "success", id: string = randomUUID()) =>
  snapshot({ id, status, dateAdded: minute(m), dateUpdated: minute(m + 1) });

beforeEach(async () => {
  await db.driftItem.deleteMany();
  await db.reconciliationRun.deleteMany();
  await db.operation.deleteMany({ where: { dateAdded: { lt: new Date("1991-01-01") } } });
});

describe("walkOperations (spec: POST /operation/operation/list, stop rule 2)", () => {
  it("visits every operation exactly once while new ones arrive at the top during the walk", async () => {
    const list = new FakeList();
    for (let m = 0; m < 95; m++) list.add(make(m));
    let next = 1000;
    list.beforeEachCall = (call) => {
      if (call > 1) for (let i = 0; i < 3; i++) list.add(make(next++));
    };
    const seen: string[] = [];
    for await (const page of walkOperations(list, { take: 10 }))
      seen.push(...page.operations.map((o) => o.id));
    expect(new Set(seen).size).toBe(seen.length);
    const original = list.ops.filter((o) => o.dateAdded < new Date(minute(1000))).map((o) => o.id);
    expect(original).toHaveLength(95);
    for (const id of original) expect(seen).toContain(id);
  });

  it("stops when skip + returned >= totalNumberRecords", async () => {
    const list = new FakeList();
    for (let m = 0; m < 30; m++) list.add(make(m));
    const pages = [];
    for await (const page of walkOperations(list, { take: 10 })) pages.push(page.operations.length);
    expect(pages).toEqual([10, 10, 10]);
    expect(list.calls).toBe(3);
  });
});

describe("runReconciliation", () => {
  it("mirrors every operation into an empty mirror and records the run", async () => {
    const list = new FakeList();
    for (let m = 0; m < 250; m++) list.add(make(m, m % 10 === 0 ? "in_progress" : "success"));
    const result = await runReconciliation({
      kind: "full",
      platform: list,
      take: 100,
      now: () => new Date("1990-02-01"),
    });
    expect(result).toMatchObject({
      status: "completed",
      pages: 3,
      operationsSeen: 250,
      inserted: 250,
      updated: 0,
      drift: 0,
    });
    const run = await db.reconciliationRun.findFirstOrThrow();
    expect(run).toMatchObject({
      status: "completed",
      pages: 3,
      operationsSeen: 250,
      inserted: 250,
      kind: "full",
    });
    expect(run.watermark?.toISOString()).toBe(minute(249));
    expect(await db.operation.count({ where: { dateAdded: { lt: new Date("1991-01-01") } } })).toBe(250);
  });

  it("records drift: missed status changes, disagreeing finals, amount differences and missing operations", async () => {
    const list = new FakeList();
    const ids: string[] = Array.from({ length: 6 }, () => randomUUID());
    ids.forEach((id, i) => list.add(make(i, "in_progress", id)));
    await runReconciliation({ kind: "full", platform: list, now: () => new Date("1990-02-01") });

    list.replace(make(0, "success", ids[0])); // webhook for success was lost
    await applySnapshot(make(1, "failed", ids[1]), "readBack"); // mirror says failed
    list.replace(make(1, "success", ids[1])); // platform says success
    const changedAmount = snapshot({
      id: ids[2],
      status: "in_progress",
      dateAdded: minute(2),
      dateUpdated: minute(3),
      amount: "999.99",
    });
    list.replace(changedAmount);
    list.ops = list.ops.filter((o) => o.id !== ids[3]); // gone from the platform
    list.add(make(10, "success")); // never reached the mirror

    const result = await runReconciliation({
      kind: "full",
      platform: list,
      now: () => new Date("1990-02-01"),
    });
    expect(result.status).toBe("completed");
    const drift = await db.driftItem.findMany({ where: { runId: (result as { runId: string }).runId } });
    const byKind = drift.map((d) => `${d.kind}:${ids.indexOf(d.operationId ?? "")}`).sort();
    expect(byKind).toEqual([
      "amountMismatch:2",
      "missingInMirror:-1",
      "missingOnPlatform:3",
      "statusMismatch:0",
      "statusMismatch:1",
    ]);
    expect((await db.operation.findUniqueOrThrow({ where: { id: ids[0] } })).status).toBe("success");
    expect((await db.operation.findUniqueOrThrow({ where: { id: ids[1] } })).status).toBe("failed");
  });

  it("an incremental run stops past the last reconciled point; open operations older than its walk are read by id", async () => {
    const list = new FakeList();
    const ids = Array.from({ length: 500 }, () => randomUUID());
    // minute 3000: an operation still open; its final status will reach the platform, not the mirror
    for (let m = 0; m < 500; m++) list.add(make(m * 10, m === 300 ? "in_progress" : "success", ids[m]));
    await runReconciliation({ kind: "full", platform: list, take: 50, now: () => new Date("1990-03-01") });
    for (let m = 500; m < 520; m++) list.add(make(m * 10));
    list.replace(make(3000, "success", ids[300]));

    const result = await runReconciliation({
      kind: "incremental",
      platform: list,
      take: 50,
      overlapMinutes: 30,
      now: () => new Date("1990-03-01"),
    });
    // one page (20 new, the overlap, and what else the page held), not the 220 pages down to minute 3000;
    // then the open operation, read by id
    expect(result).toMatchObject({
      status: "completed",
      inserted: 20,
      pages: 1,
      operationsSeen: 51,
      readById: 1,
    });
    expect(list.readsById).toEqual([ids[300]]);
    expect((await db.operation.findUniqueOrThrow({ where: { id: ids[300] } })).status).toBe("success");
    const runId = (result as { runId: string }).runId;
    const drift = await db.driftItem.findMany({ where: { runId } });
    // the 20 new ones are older than the grace period here: missing from the mirror, and added
    expect(drift.filter((d) => d.kind === "missingInMirror" && d.repairedAt)).toHaveLength(20);
    expect(
      drift
        .filter((d) => d.kind !== "missingInMirror")
        .map((d) => [d.operationId, d.kind, d.sourceRef, d.repairedAt !== null]),
    ).toEqual([[ids[300], "statusMismatch", `get-${ids[300]}`, true]]);
    const history = await db.operationStatusChange.findMany({ where: { operationId: ids[300] } });
    expect(history.map((h) => [h.toStatus, h.sourceRef])).toEqual([
      ["in_progress", "list-4"],
      ["success", `get-${ids[300]}`],
    ]);

    const run = await db.reconciliationRun.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({ stopCode: "passedWatermark", stopReason: null });
    const at = (run.stopArgs as { at: string }).at;
    expect(at).toBe(new Date(Date.parse(minute(4990)) - 30 * 60_000).toISOString());
    expect(await runNoteIn("en", run)).toBe(
      `Stopped past ${at}: the last reconciled point, with overlap. 1 older open operation read by id.`,
    );
    expect(await runNoteIn("ru", run)).toBe(
      `Остановилась после ${at}: последняя сверенная точка, с перекрытием. 1 более ранняя незавершённая операция прочитана по id.`,
    );

    // nothing is open any more: the next run reads nothing by id
    const next = await runReconciliation({
      kind: "incremental",
      platform: list,
      take: 50,
      overlapMinutes: 30,
    });
    expect(next).toMatchObject({ status: "completed", readById: 0 });
    expect(list.readsById).toHaveLength(1);
  });

  it("an open operation the platform no longer has is drift; a read that fails is logged and tried next run", async () => {
    const list = new FakeList();
    const ids = Array.from({ length: 200 }, () => randomUUID());
    for (let m = 0; m < 200; m++)
      list.add(make(m * 10, m === 20 || m === 40 ? "in_progress" : "success", ids[m]));
    await runReconciliation({ kind: "full", platform: list, take: 50, now: () => new Date("1990-03-01") });
    list.ops = list.ops.filter((o) => o.id !== ids[20]);
    const failing: Pick<PlatformClient, "listOperations" | "getOperation"> = {
      listOperations: (req) => list.listOperations(req),
      getOperation: async (id) => {
        if (id !== ids[40]) return list.getOperation(id);
        throw new PlatformError({
          kind: "transport",
          method: "GET",
          path: `/operation/operation/platform/${id}`,
          description: "connection reset",
        });
      },
    };
    const result = await runReconciliation({ kind: "incremental", platform: failing, take: 50 });
    expect(result).toMatchObject({ status: "completed", readById: 1, drift: 1 });
    const drift = await db.driftItem.findMany({ where: { runId: (result as { runId: string }).runId } });
    expect(drift.map((d) => [d.operationId, d.kind])).toEqual([[ids[20], "missingOnPlatform"]]);
    // the failed read changed nothing; the next run reads it again
    expect((await db.operation.findUniqueOrThrow({ where: { id: ids[40] } })).status).toBe("in_progress");
    list.readsById = [];
    const next = await runReconciliation({ kind: "incremental", platform: list, take: 50 });
    expect(list.readsById).toEqual([ids[40]]);
    // the missing one is drift once, not again at every run
    expect(next).toMatchObject({ status: "completed", readById: 1, drift: 0 });
  });

  it("a page the platform fails for a passing reason is read again after a pause: the run completes", async () => {
    const list = new FakeList();
    for (let m = 0; m < 30; m++) list.add(make(m));
    let failures = 0;
    const flaky: Pick<PlatformClient, "listOperations" | "getOperation"> = {
      listOperations: async (req) => {
        if (req.skip === 10 && failures++ === 0)
          throw new PlatformError({
            kind: "transport",
            method: "POST",
            path: "/operation/operation/list",
            httpStatus: 500,
            description:
              "Platform POST /operation/operation/list returned HTTP 500 without a response envelope",
          });
        return list.listOperations(req);
      },
      getOperation: (id) => list.getOperation(id),
    };
    const result = await runReconciliation({ kind: "full", platform: flaky, take: 10 });
    expect(failures).toBe(2);
    expect(result).toMatchObject({ status: "completed", pages: 3, operationsSeen: 30, inserted: 30 });
    expect(await db.reconciliationRun.findFirstOrThrow()).toMatchObject({ status: "completed", error: null });
  });

  it("losing the runner lock's session mid-run (a database restart) does not end the process", async () => {
    const list = new FakeList();
    for (let m = 0; m < 20; m++) list.add(make(m));
    const terminating: Pick<PlatformClient, "listOperations" | "getOperation"> = {
      listOperations: async (req) => {
        if (req.skip === 0) {
          const [ended] = await db.$queryRaw<{ ended: boolean }[]>`
            SELECT pg_terminate_backend(pid) AS ended FROM pg_locks
            WHERE locktype = 'advisory' AND objid = 7370001 AND granted
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
          expect(ended?.ended).toBe(true);
          await new Promise((r) => setTimeout(r, 100)); // the session's end reaches its client meanwhile
        }
        return list.listOperations(req);
      },
      getOperation: (id) => list.getOperation(id),
    };
    const result = await runReconciliation({ kind: "full", platform: terminating, take: 10 });
    expect(result).toMatchObject({ status: "completed", inserted: 20 });
  });

  it("reads at most its share of open operations a run, the least recently confirmed first", async () => {
    const ids = Array.from({ length: 5 }, () => randomUUID());
    for (let i = 0; i < 5; i++) {
      const receivedAt = new Date(Date.UTC(1990, 1, 1, 0, 5 - i));
      await applySnapshotsBatch([make(100 + i, "in_progress", ids[i])], "reconciliation", null, receivedAt);
    }
    const list = new FakeList();
    for (let i = 0; i < 5; i++) list.add(make(100 + i, "in_progress", ids[i]));
    const read = await readOpenOperations(new Date(minute(1000)), list, {
      limit: 2,
      yieldTo: async () => 100,
    });
    expect(read.yieldedMs).toBe(100); // one batch of reads, one turn for the webhooks before it
    // received last to first: ids[4] and ids[3] were confirmed longest ago
    expect(list.readsById).toEqual([ids[4], ids[3]]);
    expect(read.applied).toHaveLength(2);
  });

  it("gives webhook processing its turn before each page, and reports the time it gave", async () => {
    const list = new FakeList();
    for (let m = 0; m < 250; m++) list.add(make(m));
    const turns: number[] = [];
    const result = await runReconciliation({
      kind: "full",
      platform: list,
      take: 100,
      yieldTo: async () => {
        turns.push(list.calls);
        return 250;
      },
    });
    expect(result).toMatchObject({ status: "completed", pages: 3, yieldedMs: 750 });
    expect(turns).toHaveLength(3);
  });

  it("lets only one runner work at a time", async () => {
    const list = new FakeList();
    for (let m = 0; m < 50; m++) list.add(make(m));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow: Pick<PlatformClient, "listOperations" | "getOperation"> = {
      listOperations: async (req) => {
        await gate;
        return list.listOperations(req);
      },
      getOperation: (id) => list.getOperation(id),
    };
    const first = runReconciliation({ kind: "full", platform: slow });
    await new Promise((r) => setTimeout(r, 200));
    expect(await runReconciliation({ kind: "full", platform: list })).toEqual({
      status: "skipped",
      reason: "another reconciliation is running",
    });
    release();
    expect((await first).status).toBe("completed");
  });
});

describe("an operation in the list that Paydesk cannot read", () => {
  /** The platform's list endpoint over JSON texts, newest first, through the real client. */
  function platformOver(items: string[]): PlatformClient {
    let calls = 0;
    const fetch = (async (_url: string, init?: RequestInit) => {
      const { skip, take } = JSON.parse(String(init?.body)) as { skip: number; take: number };
      const body = `{"status":"Success","data":[${items.slice(skip, skip + take).join(",")}],"totalNumberRecords":${items.length},"traceID":"list-${++calls}"}`;
      return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
    }) as unknown as typeof globalThis.fetch;
    return createPlatformClient({
      baseUrl: "http://platform.test/",
      token: "t",
      fetch,
      retry: { attempts: 1 },
    });
  }
  /** An operation's JSON text with some members replaced (raw JSON text). */
  const edited = (op: ReturnType<typeof make>, over: Record<string, string>) =>
    Object.entries(over).reduce(
      (text, [key, value]) => text.replace(new RegExp(`"${key}":("[^"]*"|[^,}]*)`), `"${key}":${value}`),
      wireJsonOf(op),
    );

  it("is a drift item with its id, the decoder's reason and the item; the run walks on and completes", async () => {
    const [a, b, c, d, e] = [make(60), make(59), make(58), make(57), make(56)];
    await applySnapshot(make(59, "in_progress", b.id), "readBack"); // mirrored before its status went odd
    const items = [
      wireJsonOf(a),
      edited(b, { status: `"cancelled"` }), // the spec's status list is not complete
      edited(d, { amount: `"1,5"` }),
      // with text PostgreSQL cannot store: kept as U+FFFD rather than failing the page
      edited(make(55), { id: `"not-a-uuid"`, idTransactionMerchant: "null", currency: `"RU\\u0000B"` }),
      wireJsonOf(c),
      wireJsonOf(e),
    ];
    const platform = platformOver(items);
    const now = () => new Date("1990-02-01");
    // take 2: the second page holds nothing Paydesk can read
    const result = await runReconciliation({ kind: "full", platform, take: 2, now });
    expect(result).toMatchObject({ status: "completed", pages: 3, operationsSeen: 3, inserted: 3, drift: 3 });
    const runId = (result as { runId: string }).runId;
    expect(await db.reconciliationRun.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      status: "completed",
      errorCode: null,
      stopCode: "endOfList",
      watermark: a.dateAdded,
    });
    const mirrored = await db.operation.findMany({ where: { id: { in: [a, c, e].map((o) => o.id) } } });
    expect(mirrored).toHaveLength(3);

    const drift = await db.driftItem.findMany({ where: { runId }, orderBy: { operationId: "asc" } });
    // b is still on the platform: not missing there, however it reads
    expect(drift.every((i) => i.kind === "unreadable")).toBe(true);
    const byId = (id: string | null) => drift.find((i) => i.operationId === id);
    expect(byId(b.id)).toMatchObject({
      fields: ["status"],
      sourceRef: "list-1",
      mirrorValue: { status: "in_progress", amount: "1500.5000" },
      platformValue: {
        reason: 'status: unknown operation status "cancelled"',
        item: { ...b.raw, status: "cancelled" },
      },
      repairedAt: null,
      state: "open",
    });
    expect(byId(d.id)).toMatchObject({
      fields: ["amount"],
      sourceRef: "list-2",
      mirrorValue: null,
      platformValue: { reason: "amount: expected a decimal number", item: { ...d.raw, amount: "1,5" } },
    });
    expect(byId(null)).toMatchObject({
      fields: ["id", "idTransactionMerchant"],
      platformValue: { item: { id: "not-a-uuid", idTransactionMerchant: null, currency: "RU\uFFFDB" } },
    });
    // the mirror keeps what it had
    expect((await db.operation.findUniqueOrThrow({ where: { id: b.id } })).status).toBe("in_progress");

    // staff see them where drift is listed: the item as the platform sent it, and why it did not read
    const rows = (await listDrift({ state: "open", page: 1 })).rows.filter((r) => r.kind === "unreadable");
    expect(rows.find((r) => r.operationId === b.id)).toMatchObject({
      reason: 'status: unknown operation status "cancelled"',
      platformValue: { ...b.raw, status: "cancelled" },
      fields: ["status"],
    });

    // the next run completes too, and does not record the same items again
    const next = await runReconciliation({ kind: "full", platform, take: 2, now });
    expect(next).toMatchObject({ status: "completed", inserted: 0, drift: 0 });
    expect(await db.driftItem.count({ where: { kind: "unreadable" } })).toBe(3);
  });

  it("an operation dated far ahead of the run does not hold later incremental runs to their first page", async () => {
    const start = Date.UTC(1990, 0, 10);
    const at = (m: number) => new Date(start + m * 60_000).toISOString();
    const op = (m: number, dateAdded = at(m)) =>
      snapshot({ status: "success", dateAdded, dateUpdated: dateAdded });
    const list = new FakeList();
    for (let m = 1; m <= 20; m++) list.add(op(-m));
    list.add(op(0, "1990-12-01T00:00:00.000Z")); // the platform's clock or serialiser at fault
    await runReconciliation({ kind: "full", platform: list, take: 10, now: () => new Date(start) });
    const full = await db.reconciliationRun.findFirstOrThrow({ where: { kind: "full" } });
    expect(full.watermark?.toISOString()).toBe(at(5)); // the run's start plus SKEW_MS

    const fresh = Array.from({ length: 35 }, (_, i) => op(1 + i));
    for (const o of fresh) list.add(o);
    const result = await runReconciliation({
      kind: "incremental",
      platform: list,
      take: 10,
      overlapMinutes: 10,
      now: () => new Date(start + 60 * 60_000),
    });
    expect(result).toMatchObject({ status: "completed", inserted: 35, pages: 5 });
    expect(await db.operation.count({ where: { id: { in: fresh.map((o) => o.id) } } })).toBe(35);
  });
});
