// Time windows and filters of the pay-out rules, on both sides of each boundary: the tariff-refusal
// evidence (7 days, cleared by a later successful pay-out with the method) and the duplicate guard's
// status filter. A database of its own: the tariff evidence is read across every request.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import type { OperationStatus, OperationType } from "@/lib/generated/prisma/enums";
import { findDuplicates } from "@/lib/payouts/duplicates";
import {
  PAYOUT_METHOD_CHOICES,
  TARIFF_EVIDENCE_DAYS,
  payoutMethodChoices,
} from "@/lib/payouts/method-choices";
import { createPayoutRequest } from "@/lib/payouts/requests";
import type { StaffActor as PayoutActor } from "@/lib/audit/log";
import type { PayoutRequestStatus } from "@/lib/payouts/state";
import { isolateDatabase } from "../../support/database";
import { insertOperations } from "../../support/mirror";
import { freshCard } from "../../support/cards";
import { payoutActor, payoutForm } from "../../support/payouts";

let restore: () => Promise<void>;
let maker: PayoutActor;

beforeAll(async () => {
  restore = await isolateDatabase();
  maker = await payoutActor("finance");
});
afterAll(() => restore());

const db = () => getDb();
const NOW = new Date("2031-03-15T12:00:00.000Z");
const DAY = 86_400_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms);

async function request(data: {
  paymentMethod?: string;
  status?: PayoutRequestStatus;
  lastCodeError?: string | null;
  updatedAt?: Date;
  recipientNumber?: string;
  amount?: string;
  operationId?: string | null;
  createdAt?: Date;
}) {
  return db().payoutRequest.create({
    data: {
      idTransactionMerchant: `po-${randomUUID()}`,
      status: data.status ?? "failed_to_submit",
      paymentMethod: data.paymentMethod ?? "toCard",
      bankName: "Сбербанк",
      recipientNumber: data.recipientNumber ?? freshCard(),
      recipientName: "Ivan Petrov",
      amount: data.amount ?? "100",
      clientID: `client-${randomUUID()}`,
      clientIP: "85.143.12.7",
      clientDateCreated: new Date("2023-04-17T00:00:00Z"),
      makerId: maker.id,
      lastCodeError: data.lastCodeError ?? null,
      operationId: data.operationId ?? null,
      ...(data.updatedAt ? { updatedAt: data.updatedAt } : {}),
      ...(data.createdAt ? { createdAt: data.createdAt } : {}),
    },
  });
}

const refusal = (paymentMethod: string, at: Date) =>
  request({ paymentMethod, lastCodeError: "noSuitableTariffForRequest", updatedAt: at });

async function operation(
  paymentMethod: string | null,
  dateUpdated: Date,
  status: OperationStatus = "success",
  typeOperation: OperationType = "payOut",
) {
  const [id] = await insertOperations([
    {
      dateAdded: new Date(dateUpdated.getTime() - 60_000),
      dateUpdated,
      status,
      typeOperation,
      paymentMethod,
    },
  ]);
  return id!;
}

describe("tariff evidence: a refused method is left out for 7 days, or until a later success", () => {
  beforeEach(async () => {
    await db().payoutRequest.deleteMany();
    await db().operation.deleteMany();
  });

  it("the window is 7 days", () => {
    expect(TARIFF_EVIDENCE_DAYS).toBe(7);
  });

  it("nothing refused: every method of the form is offered", async () => {
    expect(await payoutMethodChoices(NOW)).toEqual({
      allowed: [...PAYOUT_METHOD_CHOICES],
      notInTariff: [],
      confirmed: [],
    });
  });

  it("a refusal exactly 7 days old still counts", async () => {
    await refusal("sbp", ago(7 * DAY));
    const choices = await payoutMethodChoices(NOW);
    expect(choices.notInTariff).toEqual([{ method: "sbp", refusedAt: ago(7 * DAY) }]);
    expect(choices.allowed).toEqual(PAYOUT_METHOD_CHOICES.filter((m) => m !== "sbp"));
  });

  it("a refusal 7 days and 1 ms old has expired", async () => {
    await refusal("sbp", ago(7 * DAY + 1));
    const choices = await payoutMethodChoices(NOW);
    expect(choices.notInTariff).toEqual([]);
    expect(choices.allowed).toEqual([...PAYOUT_METHOD_CHOICES]);
  });

  it("the default moment is now", async () => {
    await refusal("toAccount", new Date(Date.now() - 7 * DAY + 60_000));
    expect((await payoutMethodChoices()).allowed).not.toContain("toAccount");
    await db().payoutRequest.deleteMany();
    await refusal("toAccount", new Date(Date.now() - 7 * DAY - 60_000));
    expect((await payoutMethodChoices()).allowed).toContain("toAccount");
  });

  it("a successful pay-out 1 ms before the refusal does not clear it", async () => {
    const refusedAt = ago(DAY);
    await refusal("sber_sber", refusedAt);
    await operation("sber_sber", new Date(refusedAt.getTime() - 1));
    const choices = await payoutMethodChoices(NOW);
    expect(choices.notInTariff).toEqual([{ method: "sber_sber", refusedAt }]);
    expect(choices.allowed).not.toContain("sber_sber");
    expect(choices.confirmed).toEqual([]);
  });

  it("a successful pay-out at the very moment of the refusal clears it", async () => {
    const refusedAt = ago(DAY);
    await refusal("sber_sber", refusedAt);
    await operation("sber_sber", refusedAt);
    const choices = await payoutMethodChoices(NOW);
    expect(choices.notInTariff).toEqual([]);
    expect(choices.allowed).toContain("sber_sber");
    expect(choices.confirmed).toEqual(["sber_sber"]);
  });

  it("a later successful pay-out clears it", async () => {
    const refusedAt = ago(3 * DAY);
    await refusal("tbank_tbank", refusedAt);
    await operation("tbank_tbank", ago(DAY));
    const choices = await payoutMethodChoices(NOW);
    expect(choices.notInTariff).toEqual([]);
    expect(choices.allowed).toEqual([...PAYOUT_METHOD_CHOICES]);
    expect(choices.confirmed).toEqual(["tbank_tbank"]);
  });

  it.each([
    ["a pay-in", "success", "payIn", "toCard"],
    ["a failed pay-out", "failed", "payOut", "toCard"],
    ["a pay-out still in progress", "in_progress", "payOut", "toCard"],
    ["a successful pay-out with another method", "success", "payOut", "sbp"],
  ] as const)("%s after the refusal does not clear it", async (_name, status, type, method) => {
    await refusal("toCard", ago(2 * DAY));
    await operation(method, ago(DAY), status, type);
    const choices = await payoutMethodChoices(NOW);
    expect(choices.notInTariff.map((r) => r.method)).toEqual(["toCard"]);
    expect(choices.allowed).not.toContain("toCard");
  });

  it("the latest refusal is the one compared with the last success", async () => {
    await refusal("alfa_alfa", ago(6 * DAY));
    await refusal("alfa_alfa", ago(DAY));
    await operation("alfa_alfa", ago(3 * DAY));
    expect((await payoutMethodChoices(NOW)).notInTariff).toEqual([
      { method: "alfa_alfa", refusedAt: ago(DAY) },
    ]);
  });

  it("other refusals are no tariff evidence", async () => {
    await request({
      paymentMethod: "vtb_vtb",
      lastCodeError: "notEnoughMoneyOnBalance",
      updatedAt: ago(DAY),
    });
    await request({ paymentMethod: "vtb_vtb", lastCodeError: null, updatedAt: ago(DAY) });
    expect((await payoutMethodChoices(NOW)).allowed).toContain("vtb_vtb");
  });

  it("confirmed: methods with a successful pay-out that are not refused since; no empty method", async () => {
    await operation("toCard", ago(DAY));
    await operation("sbp", ago(5 * DAY));
    await refusal("sbp", ago(2 * DAY));
    await operation(null, ago(DAY));
    const choices = await payoutMethodChoices(NOW);
    expect(choices.confirmed).toEqual(["toCard"]);
    expect(choices.notInTariff.map((r) => r.method)).toEqual(["sbp"]);
  });

  it("a refused method the form does not offer is reported but changes nothing offered", async () => {
    await refusal("someNewMethod", ago(DAY));
    const choices = await payoutMethodChoices(NOW);
    expect(choices.notInTariff.map((r) => r.method)).toEqual(["someNewMethod"]);
    expect(choices.allowed).toEqual([...PAYOUT_METHOD_CHOICES]);
  });
});

describe("the duplicate guard's status filter", () => {
  const blocking = async (recipientNumber: string, amount = "100", excludeId?: string) =>
    db().$transaction((tx) => findDuplicates(tx, recipientNumber, amount, excludeId));

  it.each([
    ["awaiting_approval", true],
    ["approved", true],
    ["submitting", true],
    ["draft", false],
    ["submitted", false],
    ["rejected", false],
    ["cancelled", false],
    ["failed_to_submit", false],
  ] as const)("a request %s without an operation blocks: %s", async (status, blocks) => {
    const recipientNumber = freshCard();
    const r = await request({ status, recipientNumber });
    expect(await blocking(recipientNumber)).toEqual(
      blocks
        ? [{ kind: "request", payoutRequestId: r.id, status, idTransactionMerchant: r.idTransactionMerchant }]
        : [],
    );
  });

  // Audit of pay-outs, F3: created, booking and precreated used to be in the "does not block" half, so a
  // twin just accepted by the platform (which may still go to pending_retry) let the same pay-out be
  // created and sent again. Every status that is not final blocks now.
  it.each([
    ["pending_retry", true],
    ["in_progress", true],
    ["precreated", true],
    ["created", true],
    ["booking", true],
    ["success", false],
    ["failed", false],
  ] as const)("a submitted request whose operation is %s blocks: %s", async (status, blocks) => {
    const recipientNumber = freshCard();
    const operationId = await operation("toCard", ago(DAY), status);
    const r = await request({ status: "submitted", recipientNumber, operationId });
    expect(await blocking(recipientNumber)).toEqual(
      blocks ? [{ kind: "operation", operationId, status, payoutRequestId: r.id }] : [],
    );
  });

  // (With an operation `created`, as this used to say, it is now reported as the operation: F3 above.)
  it("an open request with an operation that is final is reported as the request", async () => {
    const recipientNumber = freshCard();
    const operationId = await operation("toCard", ago(DAY), "success");
    const r = await request({ status: "submitting", recipientNumber, operationId });
    expect(await blocking(recipientNumber)).toEqual([
      {
        kind: "request",
        payoutRequestId: r.id,
        status: "submitting",
        idTransactionMerchant: r.idTransactionMerchant,
      },
    ]);
  });

  it("same recipient and amount only (the amount compared as a number); the request itself is left out", async () => {
    const recipientNumber = freshCard();
    const older = await request({
      status: "approved",
      recipientNumber,
      amount: "100",
      createdAt: ago(2 * DAY),
    });
    const newer = await request({
      status: "awaiting_approval",
      recipientNumber,
      amount: "100.00",
      createdAt: ago(DAY),
    });
    await request({ status: "approved", recipientNumber, amount: "100.01" });
    await request({ status: "approved", recipientNumber: freshCard(), amount: "100" });
    expect((await blocking(recipientNumber, "100.0000")).map((d) => d.payoutRequestId)).toEqual([
      older.id,
      newer.id,
    ]);
    expect((await blocking(recipientNumber, "100", older.id)).map((d) => d.payoutRequestId)).toEqual([
      newer.id,
    ]);
  });

  it("concurrent creations to one recipient and amount (written differently) create exactly one request", async () => {
    const f = payoutForm({ amount: "31.5" });
    const results = await Promise.all(
      ["31.5", "31.50", "31.500", "31.5000", "31.5"].map((amount) =>
        createPayoutRequest({ ...f, amount, clientID: `client-${randomUUID()}` }, maker, {
          thresholds: { autoApproveBelow: null, twoApprovalsAbove: null },
        }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.code === "duplicate")).toHaveLength(4);
    expect(await db().payoutRequest.count({ where: { recipientNumber: f.recipientNumber } })).toBe(1);
  });
});
