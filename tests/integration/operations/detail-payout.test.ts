// The operation page's data for a pay-out (getOperationDetail), written out whole: the recipient from
// our own pay-out request when the platform's read carries none, webhooks and platform calls in order
// with only their shown fields, the balance currency from the newest balance read, and the unmasked
// number only through readRecipientNumber. A database of its own: the balance read is global.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { getOperationDetail, readRecipientNumber } from "@/lib/operations/detail/operation-detail";
import { parseOperationFilter } from "@/lib/operations/list/filter";
import { listOperations, operationsByIds } from "@/lib/operations/list/queries";
import { getBalanceCurrency } from "@/lib/operations/balance-currency";
import { isolateDatabase } from "../../support/database";
import { createStaff, insertOperations } from "../../support/mirror";
import { storedPayoutRequest } from "../../support/payouts";

let restore: () => Promise<void>;
const opId = randomUUID();
const payInId = randomUUID();
const bareId = randomUUID();
const merchantId = `po-${randomUUID()}`;
const requestId = randomUUID();
let makerEmail = "";

beforeAll(async () => {
  restore = await isolateDatabase();
  const db = getDb();
  expect(await getBalanceCurrency()).toBeNull();
  await db.balanceSnapshot.createMany({
    data: [
      {
        takenAt: new Date("2026-11-20T09:00:00.000Z"),
        amountInCurrencyBalance: "1",
        currencyBalance: "EUR",
        amountInCurrencyPayment: "95",
        currencyPayment: "RUB",
        exchangeRate: "95",
      },
      {
        takenAt: new Date("2026-11-20T10:00:00.000Z"),
        amountInCurrencyBalance: "1",
        currencyBalance: "USDT",
        amountInCurrencyPayment: "95",
        currencyPayment: "RUB",
        exchangeRate: "95",
      },
    ],
  });
  const maker = await createStaff("finance");
  makerEmail = maker.email;
  await insertOperations([
    {
      id: opId,
      dateAdded: new Date("2026-11-20T10:00:00.000Z"),
      dateUpdated: null,
      typeOperation: "payOut",
      status: "in_progress",
      idTransactionMerchant: merchantId,
      amount: "2500.5",
      amountComission: null,
      amountInCurrencyBalance: null,
      amountComissionInCurrencyBalance: null,
      exchangeRate: null,
      paymentMethod: "toCard",
      lastSource: "creation",
    },
    {
      id: payInId,
      dateAdded: new Date("2026-11-20T10:00:00.000Z"),
      detailsNumber: "4276000000000001",
      detailsBankName: "Tinkoff",
    },
    // a pay-in read without details and no request of ours
    {
      id: bareId,
      dateAdded: new Date("2026-11-20T09:00:00.000Z"),
      detailsNumber: null,
      detailsBankName: null,
    },
  ]);
  await storedPayoutRequest(maker.id, {
    id: requestId,
    idTransactionMerchant: merchantId,
    status: "submitted",
    recipientNumber: "2200700012345675",
    amount: "2500.5",
    operationId: opId,
  });
  await db.operationStatusChange.createMany({
    data: [
      {
        operationId: opId,
        fromStatus: "created",
        toStatus: "in_progress",
        source: "webhook",
        sourceRef: "webhook:2",
        recordedAt: new Date("2026-11-20T10:02:00.000Z"),
      },
      {
        operationId: opId,
        fromStatus: null,
        toStatus: "created",
        source: "creation",
        sourceRef: "trace-create",
        recordedAt: new Date("2026-11-20T10:00:00.000Z"),
      },
    ],
  });
  await db.webhookDelivery.createMany({
    data: [
      {
        receivedAt: new Date("2026-11-20T10:03:00.000Z"),
        headers: {},
        body: "{}",
        bodyBytes: 2,
        operationId: opId,
        operationStatus: "in_progress",
        outcome: "duplicate",
        traceID: "trace-w2",
      },
      {
        receivedAt: new Date("2026-11-20T10:01:00.000Z"),
        headers: {},
        body: "{}",
        bodyBytes: 2,
        operationId: opId,
        operationStatus: "in_progress",
        outcome: "applied",
        outcomeCode: "applied",
        outcomeArgs: { status: "in_progress" },
        outcomeDetail: "old note",
        traceID: "trace-w1",
        readBackTraceID: "trace-rb",
        processedAt: new Date("2026-11-20T10:01:05.000Z"),
      },
      {
        receivedAt: new Date("2026-11-20T10:01:30.000Z"),
        headers: {},
        body: "{}",
        bodyBytes: 2,
        operationId: payInId,
        outcome: "applied",
      },
    ],
  });
  await db.apiCall.createMany({
    data: [
      {
        startedAt: new Date("2026-11-20T10:00:05.000Z"),
        method: "GET",
        path: `/host2host/operations/${opId}`,
        operationId: opId,
        httpStatus: 200,
        envelopeStatus: "success",
        traceID: "trace-read",
        latencyMs: 30,
        requestBody: "secret-request",
        responseBody: "secret-response",
      },
      {
        startedAt: new Date("2026-11-20T10:00:00.000Z"),
        method: "POST",
        path: "/host2host/payout",
        idTransactionMerchant: merchantId,
        httpStatus: 200,
        envelopeStatus: "success",
        codeError: null,
        message: "ok",
        traceID: "trace-create",
        latencyMs: 40,
        actorUserId: maker.id,
      },
      {
        startedAt: new Date("2026-11-20T10:00:01.000Z"),
        method: "POST",
        path: "/host2host/payout",
        idTransactionMerchant: "someone-else",
        latencyMs: 1,
      },
    ],
  });
});

afterAll(async () => {
  await restore();
});

describe("a pay-out's detail", () => {
  it("everything, written out", async () => {
    const d = await getOperationDetail(opId, new Date("2026-11-20T10:12:00.000Z"));
    expect(d).not.toBeNull();
    const { firstSeenAt, mirroredAt, ...rest } = d!;
    expect(firstSeenAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(mirroredAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(rest).toEqual({
      id: opId,
      typeOperation: "payOut",
      status: "in_progress",
      idTransactionMerchant: merchantId,
      dateAdded: "2026-11-20T10:00:00.000Z",
      dateUpdated: null,
      lastSource: "creation",
      stuckFlaggedAt: null,
      currency: "RUB",
      balanceCurrency: "USDT",
      amountInitial: "2500.5",
      amountRandomized: "2500.5",
      amount: "2500.5",
      amountComission: null,
      amountInCurrencyBalance: null,
      amountComissionInCurrencyBalance: null,
      exchangeRate: null,
      paymentMethod: "toCard",
      bankName: "Сбербанк",
      nameMediator: "Ivan Petrov",
      numberMasked: "************5675",
      hasNumber: true,
      linkPaymentForm: null,
      payoutRequest: { id: requestId, status: "submitted", recipientName: "Ivan Petrov" },
      timeline: [
        {
          status: "created",
          fromStatus: null,
          source: "creation",
          sourceRef: "trace-create",
          at: "2026-11-20T10:00:00.000Z",
          recordedAt: "2026-11-20T10:00:00.000Z",
          durationMs: 120_000,
          ongoing: false,
        },
        {
          status: "in_progress",
          fromStatus: "created",
          source: "webhook",
          sourceRef: "webhook:2",
          at: "2026-11-20T10:02:00.000Z",
          recordedAt: "2026-11-20T10:02:00.000Z",
          durationMs: 600_000,
          ongoing: true,
        },
      ],
      webhooks: [
        {
          id: expect.stringMatching(/^\d+$/),
          receivedAt: "2026-11-20T10:01:00.000Z",
          outcome: "applied",
          outcomeCode: "applied",
          outcomeArgs: { status: "in_progress" },
          outcomeDetail: "old note",
          operationId: opId,
          operationStatus: "in_progress",
          traceID: "trace-w1",
          readBackTraceID: "trace-rb",
          processedAt: "2026-11-20T10:01:05.000Z",
        },
        {
          id: expect.stringMatching(/^\d+$/),
          receivedAt: "2026-11-20T10:03:00.000Z",
          outcome: "duplicate",
          outcomeCode: null,
          outcomeArgs: null,
          outcomeDetail: null,
          operationId: opId,
          operationStatus: "in_progress",
          traceID: "trace-w2",
          readBackTraceID: null,
          processedAt: null,
        },
      ],
      apiCalls: [
        {
          id: expect.stringMatching(/^\d+$/),
          startedAt: "2026-11-20T10:00:00.000Z",
          method: "POST",
          path: "/host2host/payout",
          httpStatus: 200,
          envelopeStatus: "success",
          codeError: null,
          message: "ok",
          traceID: "trace-create",
          latencyMs: 40,
          error: null,
          actorEmail: makerEmail,
        },
        {
          id: expect.stringMatching(/^\d+$/),
          startedAt: "2026-11-20T10:00:05.000Z",
          method: "GET",
          path: `/host2host/operations/${opId}`,
          httpStatus: 200,
          envelopeStatus: "success",
          codeError: null,
          message: null,
          traceID: "trace-read",
          latencyMs: 30,
          error: null,
          actorEmail: null,
        },
      ],
      // retention at its defaults; the operation is 12 minutes old
      retention: {
        apiCalls: { days: 90, longerDays: 365, mayBeIncomplete: false },
        webhooks: { days: 90, longerDays: 365, mayBeIncomplete: false },
      },
      raw: { id: opId, amount: "2500.5", status: "in_progress", paymentDetailsData: { number: null } },
    });
    expect(JSON.stringify(d)).not.toContain("secret-");
    expect(JSON.stringify(d)).not.toContain("2200700012345675");
  });

  it("the platform's details win over our request's; a pay-in without a request has none", async () => {
    const d = await getOperationDetail(payInId);
    expect(d).toMatchObject({
      bankName: "Tinkoff",
      numberMasked: "************0001",
      hasNumber: true,
      payoutRequest: null,
      nameMediator: null,
      amountComission: "1.5",
      amountInCurrencyBalance: "1.05",
      amountComissionInCurrencyBalance: "0.0157",
      exchangeRate: "95.5",
      dateUpdated: "2026-11-20T10:00:00.000Z",
    });
    expect(d?.webhooks).toHaveLength(1);
    expect(d?.apiCalls).toEqual([]);
  });

  it("the unmasked number: the platform's, else our request's; none for an unknown operation", async () => {
    expect(await readRecipientNumber(opId)).toBe("2200700012345675");
    expect(await readRecipientNumber(payInId)).toBe("4276000000000001");
    expect(await readRecipientNumber(randomUUID())).toBeNull();
  });

  it("no number anywhere: none shown, none to reveal", async () => {
    expect(await getOperationDetail(bareId)).toMatchObject({
      numberMasked: null,
      hasNumber: false,
      bankName: null,
      nameMediator: null,
      payoutRequest: null,
    });
    expect(await readRecipientNumber(bareId)).toBeNull();
  });

  it("the list's live refresh reads the given operations only", async () => {
    expect(await operationsByIds([])).toEqual([]);
    const rows = await operationsByIds([opId, payInId]);
    expect(rows.map((r) => r.id).sort()).toEqual([opId, payInId].sort());
    expect(rows.find((r) => r.id === opId)).toMatchObject({
      number: "2200700012345675",
      bankName: "Сбербанк",
      amount: "2500.5",
      status: "in_progress",
    });
  });

  it("a search by the traceID of the read-back that confirmed a webhook finds its operation", async () => {
    const readBack = randomUUID();
    await getDb().webhookDelivery.create({
      data: {
        headers: {},
        body: "{}",
        bodyBytes: 2,
        operationId: bareId,
        outcome: "applied",
        readBackTraceID: readBack,
      },
    });
    const parsed = parseOperationFilter({ q: readBack });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.fieldErrors));
    expect((await listOperations(parsed.filter)).rows.map((r) => r.id)).toEqual([bareId]);
  });

  it("an operation the mirror does not have: null", async () => {
    expect(await getOperationDetail(randomUUID())).toBeNull();
  });
});
