// Security review, finding 3: forged webhooks must not poison the mirror. The platform signs nothing, so
// a webhook is a hint: an unknown operation or changed amounts are confirmed by reading the operation
// back, the platform's own API outranks webhooks, a far-future dateUpdated wins no ordering, and
// reconciliation compares and repairs every mirrored field. Against the sandbox, on a database of its own.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import { getDb } from "@/lib/db";
import { createOnce } from "@/lib/operations/mirror/create-once";
import { refreshOperation } from "@/lib/operations/mirror/refresh";
import type { PlatformClient } from "@/lib/platform/client";
import { runReconciliation } from "@/lib/reconcile/run";
import { processPendingWebhooks } from "@/lib/webhooks/process";
import { deliverEnvelope } from "../../support/webhooks";
import { AMOUNT_FIELDS, wireJsonOf } from "../../support/operations";
import { isolateDatabase } from "../../support/database";
import { clientFor, control, startSandbox } from "../../support/sandbox";
import { outcomeNoteIn } from "../../support/notes";

let sandbox: Sandbox;
let platform: PlatformClient;
let restore: () => Promise<void>;
const db = () => getDb();

beforeAll(async () => {
  restore = await isolateDatabase();
  sandbox = await startSandbox({ seedDemoHistory: false });
  platform = clientFor(sandbox).platform;
  await control(sandbox, "PATCH", "/merchants/demo", { fraudRatePerMinute: 1_000_000 });
});
afterAll(async () => {
  await sandbox?.stop();
  await restore?.();
});

let orders = 0;
const payIn = () => ({
  paymentMethod: "toCard" as const,
  idTransactionMerchant: `forged-${randomUUID()}`,
  amount: `${1000 + ++orders}.25`,
  clientID: `client-${orders}`,
  clientIP: "203.0.113.20",
  clientDateCreated: "2023-03-01T12:00:00.000Z",
});

/** A pay-in created on the platform and mirrored from the creation answer. */
async function mirroredPayIn(): Promise<string> {
  const outcome = await createOnce(platform, { kind: "payIn", request: payIn() }, {}, { resendDelayMs: 5 });
  if (outcome.status !== "created") throw new Error(`creation failed: ${JSON.stringify(outcome)}`);
  return outcome.operationId;
}

/** The platform's by-id read of the operation as wire JSON (the body a real webhook carries). */
async function platformWire(id: string): Promise<Record<string, unknown>> {
  const { operation } = await platform.getOperation(id);
  if (!operation) throw new Error(`the platform does not know ${id}`);
  return JSON.parse(wireJsonOf(operation)) as Record<string, unknown>;
}

async function platformOperation(id: string) {
  const { operation } = await platform.getOperation(id);
  if (!operation) throw new Error(`the platform does not know ${id}`);
  return operation;
}

const move = (id: string, status: string) => control(sandbox, "POST", `/operations/${id}/status`, { status });

/** Stores a webhook as the receiver does (no secret path here: this file is about the mirror). */
const deliver = (data: Record<string, unknown>) => deliverEnvelope(data, "198.51.100.66");

async function deliverAndProcess(data: Record<string, unknown>) {
  const { deliveryId } = await deliver(data);
  await processPendingWebhooks(platform);
  return db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
}

function forgedAmounts(value: number) {
  return Object.fromEntries(AMOUNT_FIELDS.map((f) => [f, value]));
}

/** The mirror's row next to the platform's read: status, dateUpdated and every amount. */
async function expectMirrorEqualsPlatform(id: string) {
  const truth = await platformOperation(id);
  const row = await db().operation.findUniqueOrThrow({ where: { id } });
  expect({
    status: row.status,
    dateUpdated: row.dateUpdated?.toISOString(),
    amount: row.amount.toFixed(),
    amountInitial: row.amountInitial.toFixed(),
    amountInCurrencyBalance: row.amountInCurrencyBalance?.toFixed(),
    exchangeRate: row.exchangeRate?.toFixed(),
    detailsNumber: row.detailsNumber,
  }).toEqual({
    status: truth.status,
    dateUpdated: truth.dateUpdated?.toISOString(),
    amount: truth.amount.toFixed(),
    amountInitial: truth.amountInitial.toFixed(),
    amountInCurrencyBalance: truth.amountInCurrencyBalance?.toFixed(),
    exchangeRate: truth.exchangeRate?.toFixed(),
    detailsNumber: truth.paymentDetailsData?.number,
  });
  return row;
}

describe("a webhook never creates a row or sets amounts on its own word", () => {
  it("a non-final webhook for an id the platform does not know inserts nothing", async () => {
    const template = await platformWire(await mirroredPayIn());
    const id = randomUUID();
    const delivery = await deliverAndProcess({
      ...template,
      id,
      idTransactionMerchant: `invented-${id}`,
      status: "in_progress",
      dateUpdated: new Date().toISOString(),
      ...forgedAmounts(5_000_000),
    });
    expect(await db().operation.findUnique({ where: { id } })).toBeNull();
    expect(delivery.outcome).toBe("disagreement");
    expect(delivery).toMatchObject({ outcomeCode: "unknownToPlatform", outcomeArgs: { operationId: id } });
    expect(await outcomeNoteIn("en", delivery)).toBe(`The platform does not know the operation: ${id}`);
    expect(await outcomeNoteIn("ru", delivery)).toBe(`Платформа не знает операцию: ${id}`);
    expect(delivery.readBackTraceID).toBeTruthy();
  });

  it("a webhook for a real operation the mirror lacks is inserted with the platform's amounts, not the webhook's", async () => {
    const { operation } = await platform.createPayIn(payIn()); // created, never mirrored
    const wire = JSON.parse(wireJsonOf(operation)) as Record<string, unknown>;
    const delivery = await deliverAndProcess({
      ...wire,
      status: "in_progress",
      dateUpdated: new Date().toISOString(),
      ...forgedAmounts(5_000_000),
    });
    const row = await expectMirrorEqualsPlatform(operation.id);
    expect(row).toMatchObject({ status: "created", lastSource: "readBack" });
    expect(row.amount.toFixed()).not.toBe("5000000");
    expect(delivery.outcome).toBe("disagreement");
    const history = await db().operationStatusChange.findMany({ where: { operationId: operation.id } });
    expect(history.map((h) => [h.toStatus, h.source])).toEqual([["created", "readBack"]]);
  });

  it.each([
    ["-5", -5],
    ["5,000,000", 5_000_000],
  ])(
    "a forged amount of %s for a mirrored operation leaves the platform's amounts",
    async (_name, forged) => {
      const id = await mirroredPayIn();
      await move(id, "in_progress");
      const wire = await platformWire(id);
      const delivery = await deliverAndProcess({
        ...wire,
        dateUpdated: new Date().toISOString(),
        ...forgedAmounts(forged),
      });
      const row = await expectMirrorEqualsPlatform(id);
      expect(row.status).toBe("in_progress");
      expect(delivery.outcome).toBe("disagreement");
      expect(delivery.outcomeCode).toBe("readBackFieldsDiffer");
      expect(await outcomeNoteIn("en", delivery)).toMatch(
        /^The webhook differs from the read-back, which was applied, in: amountInitial, .*amount\b/,
      );
      expect(await outcomeNoteIn("ru", delivery)).toMatch(
        /^Вебхук расходится с контрольным запросом \(применён его результат\) в полях: amountInitial, .*amount\b/,
      );
    },
  );

  it("a webhook that only moves the status of a known operation, with its amounts, is applied directly", async () => {
    const id = await mirroredPayIn();
    await move(id, "in_progress");
    const delivery = await deliverAndProcess(await platformWire(id));
    expect(delivery).toMatchObject({ outcome: "applied", readBackTraceID: null });
    const row = await expectMirrorEqualsPlatform(id);
    // the row records the hint as its source and when it arrived: any platform read sent later outranks it
    expect(row).toMatchObject({ lastSource: "webhook", snapshotReceivedAt: delivery.receivedAt });
  });
});

describe("the far-future freeze: a forged dateUpdated of 2099 with amount 1 on a real operation", () => {
  /** A mirrored in_progress pay-in, then the forged webhook, then the platform completes it. */
  async function frozenThenCompleted() {
    const id = await mirroredPayIn();
    await move(id, "in_progress");
    await deliverAndProcess(await platformWire(id)); // the real in_progress webhook
    const wire = await platformWire(id);
    const forged = await deliverAndProcess({
      ...wire,
      status: "in_progress",
      dateUpdated: "2099-12-31T00:00:00.000Z",
      ...forgedAmounts(1),
    });
    await move(id, "success");
    return { id, forged };
  }

  /** The forgery was read back and flagged, and never reached the status history. */
  async function expectForgeryFlagged(
    id: string,
    forged: { outcome: string; outcomeCode: string | null; outcomeArgs: unknown },
  ) {
    expect(forged.outcome).toBe("disagreement");
    expect(forged.outcomeCode).toBe("readBackFieldsDiffer");
    expect((forged.outcomeArgs as { fields: string[] }).fields[0]).toBe("amountInitial");
    const history = await db().operationStatusChange.findMany({ where: { operationId: id } });
    expect(
      history.every((h) => h.platformDateUpdated === null || h.platformDateUpdated.getFullYear() < 2099),
    ).toBe(true);
  }

  it("the real success webhook ends with the true status and amounts", async () => {
    const { id, forged } = await frozenThenCompleted();
    const delivery = await deliverAndProcess(await platformWire(id));
    expect((await expectMirrorEqualsPlatform(id)).status).toBe("success");
    expect(delivery.outcome).toBe("applied");
    await expectForgeryFlagged(id, forged);
  });

  it("Refresh from platform ends with the true status and amounts", async () => {
    const { id, forged } = await frozenThenCompleted();
    const result = await refreshOperation(id, randomUUID(), platform);
    expect((await expectMirrorEqualsPlatform(id)).status).toBe("success");
    expect(result).toMatchObject({ ok: true, outcome: "updated", status: "success" });
    await expectForgeryFlagged(id, forged);
  });

  it("a full reconciliation ends with the true status and amounts", async () => {
    const { id, forged } = await frozenThenCompleted();
    const run = await runReconciliation({ kind: "full", platform });
    expect(run.status).toBe("completed");
    expect((await expectMirrorEqualsPlatform(id)).status).toBe("success");
    await expectForgeryFlagged(id, forged);
  });
});

describe("a row a forged webhook froze before this fix is corrected by the platform's API", () => {
  /** What the old code left behind: amount 1, dateUpdated 2099, last written by a webhook. */
  async function poisoned() {
    const id = await mirroredPayIn();
    await move(id, "in_progress");
    await db().operation.update({
      where: { id },
      data: {
        status: "in_progress",
        dateUpdated: new Date("2099-12-31T00:00:00.000Z"),
        amountInitial: "1",
        amountRandomized: "1",
        amount: "1",
        amountInCurrencyBalance: "1",
        lastSource: "webhook",
        snapshotReceivedAt: new Date(Date.now() - 60_000),
      },
    });
    return id;
  }

  it("by the real webhook (read back, since its amounts differ from the mirror's)", async () => {
    const id = await poisoned();
    await move(id, "success");
    await deliverAndProcess(await platformWire(id));
    expect((await expectMirrorEqualsPlatform(id)).status).toBe("success");
  });

  it("by Refresh from platform", async () => {
    const id = await poisoned();
    await move(id, "success");
    expect(await refreshOperation(id, randomUUID(), platform)).toMatchObject({ ok: true, status: "success" });
    expect((await expectMirrorEqualsPlatform(id)).status).toBe("success");
  });

  it("by reconciliation, which reports the drift with the fields that differed and repairs it", async () => {
    const id = await poisoned();
    const result = await runReconciliation({ kind: "full", platform });
    if (result.status !== "completed") throw new Error("reconciliation skipped");
    await expectMirrorEqualsPlatform(id);
    const item = await db().driftItem.findFirstOrThrow({ where: { runId: result.runId, operationId: id } });
    expect(item.kind).toBe("amountMismatch");
    expect(item.fields).toEqual(
      expect.arrayContaining([
        "dateUpdated",
        "amountInitial",
        "amountRandomized",
        "amount",
        "amountInCurrencyBalance",
      ]),
    );
    expect(item.mirrorValue).toMatchObject({ amount: "1", dateUpdated: "2099-12-31T00:00:00.000Z" });
    expect(item.repairedAt).not.toBeNull();
    expect(item.sourceRef).toBeTruthy();
  });
});

describe("reconciliation compares every mirrored field, whatever the mirror's dateUpdated says", () => {
  it("finds and repairs a method and details difference on a row whose dateUpdated is newer than the platform's", async () => {
    const id = await mirroredPayIn();
    const truth = await platformOperation(id);
    await db().operation.update({
      where: { id },
      data: {
        dateUpdated: new Date(truth.dateUpdated!.getTime() + 60_000),
        paymentMethod: "sbp",
        detailsNumber: "+79990000000",
        lastSource: "reconciliation",
        snapshotReceivedAt: new Date(Date.now() - 60_000),
      },
    });
    const result = await runReconciliation({ kind: "full", platform });
    if (result.status !== "completed") throw new Error("reconciliation skipped");
    const item = await db().driftItem.findFirstOrThrow({ where: { runId: result.runId, operationId: id } });
    expect(item).toMatchObject({
      kind: "fieldMismatch",
      fields: ["dateUpdated", "paymentMethod", "detailsNumber"],
      mirrorValue: { paymentMethod: "sbp", detailsNumber: "+79990000000" },
      platformValue: { paymentMethod: "toCard", detailsNumber: truth.paymentDetailsData?.number },
    });
    expect(item.repairedAt).not.toBeNull();
    const row = await expectMirrorEqualsPlatform(id);
    expect(row).toMatchObject({ paymentMethod: "toCard", lastSource: "reconciliation" });
  });
});
