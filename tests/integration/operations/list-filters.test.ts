import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { parseOperationFilter } from "@/lib/operations/list/filter";
import { countByStatus, countNewer, listOperations } from "@/lib/operations/list/queries";
import { presentListRow } from "@/lib/operations/list/present";
import { createStaff, insertOperations } from "../../support/mirror";

// This file owns the year 2003 of the mirror.
const at = (iso: string) => new Date(iso);

async function ids(query: string, range = "from=2003-01-01&to=2003-12-31"): Promise<string[]> {
  const r = parseOperationFilter(new URLSearchParams(`${range}&size=200&${query}`));
  if (!r.ok) throw new Error(JSON.stringify(r.fieldErrors));
  return (await listOperations(r.filter)).rows.map((row) => row.id);
}

const op = {
  payInSuccess: randomUUID(),
  payInFailed: randomUUID(),
  payOut: randomUUID(),
  tiny: randomUUID(),
  justAbove: randomUUID(),
  moscowEarly: randomUUID(),
  moscowLate: randomUUID(),
  kzt: randomUUID(),
};
const traceID = randomUUID();
const webhookTraceID = randomUUID();
const merchantId = `order-2003-${randomUUID()}`;

beforeAll(async () => {
  await insertOperations([
    {
      id: op.payInSuccess,
      dateAdded: at("2003-03-01T10:00:00Z"),
      status: "success",
      amount: "1500.5",
      idTransactionMerchant: merchantId,
      detailsNumber: "4276000011112222",
    },
    {
      id: op.payInFailed,
      dateAdded: at("2003-03-01T11:00:00Z"),
      status: "failed",
      amount: "10",
      paymentMethod: "sbp",
    },
    {
      id: op.payOut,
      dateAdded: at("2003-03-02T10:00:00Z"),
      status: "in_progress",
      typeOperation: "payOut",
      amount: "250",
      detailsNumber: null,
    },
    { id: op.tiny, dateAdded: at("2003-04-01T10:00:00Z"), status: "created", amount: "0.0001" },
    { id: op.justAbove, dateAdded: at("2003-04-01T10:00:01Z"), status: "created", amount: "0.0002" },
    // 2003-05-01 00:30 in Moscow is 2003-04-30 20:30 UTC (summer time then: +04:00)
    { id: op.moscowEarly, dateAdded: at("2003-04-30T20:30:00Z"), status: "booking", amount: "5" },
    { id: op.moscowLate, dateAdded: at("2003-05-01T20:30:00Z"), status: "booking", amount: "5" },
    {
      id: op.kzt,
      dateAdded: at("2003-06-01T10:00:00Z"),
      status: "pending_retry",
      currency: "KZT",
      amount: "7",
    },
  ]);
  const maker = await createStaff("finance");
  await getDb().payoutRequest.create({
    data: {
      idTransactionMerchant: `po-${randomUUID()}`,
      paymentMethod: "toCard",
      bankName: "Tinkoff",
      recipientNumber: "5536913700009876",
      recipientName: "Petr P.",
      amount: "250",
      clientID: "c1",
      clientIP: "10.0.0.1",
      clientDateCreated: at("2002-01-01T00:00:00Z"),
      makerId: maker.id,
      operationId: op.payOut,
    },
  });
  await getDb().apiCall.create({
    data: {
      method: "GET",
      path: `/operation/operation/platform/${op.payInFailed}`,
      traceID,
      latencyMs: 12,
      operationId: op.payInFailed,
    },
  });
  await getDb().webhookDelivery.create({
    data: {
      headers: {},
      body: "{}",
      bodyBytes: 2,
      operationId: op.kzt,
      traceID: webhookTraceID,
      outcome: "applied",
    },
  });
});

describe("operations list filters", () => {
  it("filters by type, statuses, method and currency", async () => {
    expect(await ids("type=payOut")).toEqual([op.payOut]);
    expect(new Set(await ids("status=success,failed"))).toEqual(new Set([op.payInSuccess, op.payInFailed]));
    expect(await ids("method=sbp")).toEqual([op.payInFailed]);
    expect(await ids("currency=kzt")).toEqual([op.kzt]);
  });

  it("shows only operations flagged as stuck, and never one that reached a final status", async () => {
    await getDb().operation.updateMany({
      where: { id: { in: [op.payOut, op.kzt, op.payInSuccess] } },
      data: { stuckFlaggedAt: at("2003-07-01T00:00:00Z") },
    });
    expect(new Set(await ids("stuck=1"))).toEqual(new Set([op.payOut, op.kzt]));
    expect(await ids("stuck=1&type=payOut")).toEqual([op.payOut]);
  });

  it("compares amounts exactly at 0.0001 boundaries", async () => {
    expect(await ids("amountMax=0.0001")).toEqual([op.tiny]);
    expect(await ids("amountMin=0.0002&amountMax=0.0002")).toEqual([op.justAbove]);
    expect(await ids("amountMin=0.0002")).not.toContain(op.tiny);
    expect(await ids("amountMin=1500.5&amountMax=1500.5")).toEqual([op.payInSuccess]);
    expect(await ids("amountMin=1500.5001")).toEqual([]);
  });

  it("reads a date range in the chosen time zone", async () => {
    expect(await ids("", "from=2003-05-01&to=2003-05-01&tz=Europe/Moscow")).toEqual([op.moscowEarly]);
    expect(await ids("", "from=2003-05-01&to=2003-05-01&tz=UTC")).toEqual([op.moscowLate]);
    expect(await ids("", "from=2003-05-01T00:00&to=2003-05-01T00:31&tz=Europe/Moscow")).toEqual([
      op.moscowEarly,
    ]);
    expect(await ids("", "from=2003-05-01T00:00&to=2003-05-01T00:30&tz=Europe/Moscow")).toEqual([]);
  });

  it("searches by operation id, merchant id, traceID and the last digits of a recipient number", async () => {
    expect(await ids(`q=${op.payInSuccess}`)).toEqual([op.payInSuccess]);
    expect(await ids(`q=${op.payInSuccess.toUpperCase()}`)).toEqual([op.payInSuccess]);
    expect(await ids(`q=${merchantId}`)).toEqual([op.payInSuccess]);
    expect(await ids(`q=${traceID}`)).toEqual([op.payInFailed]);
    expect(await ids(`q=${webhookTraceID}`)).toEqual([op.kzt]);
    expect(await ids("q=2222")).toEqual([op.payInSuccess]);
    expect(await ids("q=9876")).toEqual([op.payOut]);
    expect(await ids(`q=${randomUUID()}`)).toEqual([]);
    expect(await ids("q=123")).toEqual([]);
  });

  it("counts operations per status for the other filters", async () => {
    const r = parseOperationFilter(new URLSearchParams("from=2003-01-01&to=2003-12-31&status=success"));
    if (!r.ok) throw new Error("bad filter");
    const counts = await countByStatus(r.filter);
    expect(counts).toMatchObject({
      success: 1,
      failed: 1,
      in_progress: 1,
      created: 2,
      booking: 2,
      pending_retry: 1,
      precreated: 0,
      total: 8,
    });
  });

  it("counts operations newer than a cursor", async () => {
    const r = parseOperationFilter(new URLSearchParams("from=2003-01-01&to=2003-12-31"));
    if (!r.ok) throw new Error("bad filter");
    const newer = await countNewer(r.filter, { dateAdded: at("2003-04-01T10:00:00Z"), id: op.tiny });
    expect(newer).toEqual({ count: 4, capped: false });
  });

  it("sends masked numbers and decimal strings to the browser", async () => {
    const r = parseOperationFilter(new URLSearchParams(`from=2003-01-01&to=2003-12-31&q=${op.payOut}`));
    if (!r.ok) throw new Error("bad filter");
    const [row] = (await listOperations(r.filter)).rows;
    const item = presentListRow(row!);
    expect(item).toMatchObject({ amount: "250", numberMasked: "************9876", bankName: "Tinkoff" });
    expect(JSON.stringify(item)).not.toContain("5536913700009876");
  });
});
