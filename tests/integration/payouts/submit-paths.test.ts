// Every way a pay-out submission ends (lib/payouts/submit.ts) against a fake platform: the worker's
// sync of requests left submitting (confirmed, rejected, never sent, still fresh, still pending), an
// idempotency conflict, an unexpected failure, a lost answer, a refusal of the token. What the request
// keeps and what the caller is told, written out. A database of its own: the sync takes every request.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import type { PayoutRequestStatus } from "@/lib/payouts/state";
import { creationFor, submitPayout, syncSubmittingPayouts, type SubmitPlatform } from "@/lib/payouts/submit";
import { PlatformError } from "@/lib/platform/errors";
import { isolateDatabase } from "../../support/database";
import { createStaff } from "../../support/mirror";
import { snapshot } from "../../support/operations";
import { storedPayoutRequest, setUpdatedAt } from "../../support/payouts";

let restore: () => Promise<void>;
let maker = { id: "", email: "" };
let approver = { id: "", email: "", role: "approver" as const, ip: null };

type Behaviour = "create" | "timeout" | "bug" | "token";
let behaviour: Behaviour = "create";
const created: string[] = [];
const readBack: string[] = [];

const platform = {
  createPayOut: async (request: { idTransactionMerchant: string; amount: string }) => {
    created.push(request.idTransactionMerchant);
    if (behaviour === "bug") throw new TypeError("a bug in the client");
    if (behaviour === "timeout")
      throw new PlatformError({
        kind: "timeout",
        method: "POST",
        path: "/host2host/payout",
        description: "no answer in time",
        traceID: "trace-timeout",
        outcomeUnknown: true,
      });
    if (behaviour === "token")
      throw new PlatformError({
        kind: "auth",
        method: "POST",
        path: "/host2host/payout",
        description: "refused",
        codeError: "internalError",
        platformMessage: "token invalid",
        traceID: "trace-token",
      });
    return {
      operation: snapshot({
        typeOperation: "payOut",
        status: "in_progress",
        idTransactionMerchant: request.idTransactionMerchant,
        amount: request.amount,
      }),
      traceID: `trace-${request.idTransactionMerchant}`,
    };
  },
  getOperation: async (id: string) => {
    readBack.push(id);
    return { operation: snapshot({ id, typeOperation: "payOut", status: "success" }), traceID: "trace-read" };
  },
} as unknown as SubmitPlatform;

async function request(status: PayoutRequestStatus, updatedAt = new Date()) {
  const row = await storedPayoutRequest(maker.id, {
    status,
  });
  await setUpdatedAt(row.id, updatedAt);
  return row;
}

async function intent(
  row: Awaited<ReturnType<typeof request>>,
  data: {
    state: "pending" | "confirmed" | "rejected";
    operationId?: string;
    lastCodeError?: string;
    lastMessage?: string;
  },
) {
  const { request: stored } = creationFor(row);
  await getDb().creationIntent.create({
    data: {
      idTransactionMerchant: row.idTransactionMerchant,
      kind: "payOut",
      request: JSON.parse(JSON.stringify(stored)),
      lastTraceID: `trace-intent-${data.state}`,
      ...data,
    },
  });
}

const stored = (id: string) =>
  getDb().payoutRequest.findUniqueOrThrow({
    where: { id },
    select: { status: true, operationId: true, lastCodeError: true, lastMessage: true, lastTraceID: true },
  });

beforeAll(async () => {
  restore = await isolateDatabase();
  const m = await createStaff("finance");
  maker = { id: m.id, email: m.email };
  const a = await createStaff("approver");
  approver = { id: a.id, email: a.email, role: "approver", ip: null };
});
afterAll(async () => {
  await restore();
});
beforeEach(() => {
  behaviour = "create";
  created.length = 0;
  readBack.length = 0;
});

describe("syncSubmittingPayouts", () => {
  it("settles what is known, sends what was never sent, leaves the rest", async () => {
    const now = new Date();
    const operationId = randomUUID();
    const confirmed = await request("submitting");
    await intent(confirmed, { state: "confirmed", operationId });
    const rejected = await request("submitting");
    await intent(rejected, {
      state: "rejected",
      lastCodeError: "fraud",
      lastMessage: "client rate exceeded",
    });
    const rejectedSilently = await request("submitting");
    await intent(rejectedSilently, { state: "rejected" });
    const neverSent = await request("submitting", new Date(now.getTime() - 30_001));
    const fresh = await request("submitting", new Date(now.getTime() - 30_000));
    const pending = await request("submitting", new Date(now.getTime() - 3_600_000));
    await intent(pending, { state: "pending" });

    expect(await syncSubmittingPayouts(platform, now)).toBe(4);

    // the confirmed operation is read back into the mirror before the request points at it
    expect(readBack).toEqual([operationId]);
    expect(await getDb().operation.count({ where: { id: operationId } })).toBe(1);
    expect(await stored(confirmed.id)).toEqual({
      status: "submitted",
      operationId,
      lastCodeError: null,
      lastMessage: null,
      lastTraceID: "trace-intent-confirmed",
    });
    expect(await stored(rejected.id)).toEqual({
      status: "failed_to_submit",
      operationId: null,
      lastCodeError: "fraud",
      lastMessage: "client rate exceeded",
      lastTraceID: "trace-intent-rejected",
    });
    expect(await stored(rejectedSilently.id)).toMatchObject({
      status: "failed_to_submit",
      lastMessage: "rejected",
    });
    expect(created).toEqual([neverSent.idTransactionMerchant]);
    expect(await stored(neverSent.id)).toMatchObject({
      status: "submitted",
      lastTraceID: `trace-${neverSent.idTransactionMerchant}`,
    });
    expect((await stored(fresh.id)).status).toBe("submitting");
    expect((await stored(pending.id)).status).toBe("submitting");

    // the sync takes the requests in no particular order: compare the entries by request
    const audits = await getDb().auditLog.findMany({
      where: { targetId: { in: [confirmed.id, rejected.id] } },
      select: { action: true, targetId: true, actorEmail: true, before: true, after: true },
    });
    audits.sort((a, b) => (a.targetId === confirmed.id ? -1 : 1) - (b.targetId === confirmed.id ? -1 : 1));
    expect(audits).toEqual([
      {
        action: "payout.submitted",
        targetId: confirmed.id,
        actorEmail: "system",
        before: { status: "submitting" },
        after: { status: "submitted", operationId, traceID: "trace-intent-confirmed" },
      },
      {
        action: "payout.failed_to_submit",
        targetId: rejected.id,
        actorEmail: "system",
        before: { status: "submitting" },
        after: { status: "failed_to_submit", codeError: "fraud", traceID: "trace-intent-rejected" },
      },
    ]);
    // settled ones are not settled again
    expect(await syncSubmittingPayouts(platform, now)).toBe(0);
  });
});

describe("submitPayout's endings", () => {
  it("an idempotency conflict: failed to submit with Paydesk's own reason, nothing sent", async () => {
    const row = await request("approved");
    await getDb().creationIntent.create({
      data: {
        idTransactionMerchant: row.idTransactionMerchant,
        kind: "payOut",
        request: { something: "else" },
      },
    });
    const result = await submitPayout(row.id, approver, platform);
    expect(result).toMatchObject({
      ok: false,
      code: "failed_to_submit",
      error: { platformMessage: "The merchant id is already used by a different request.", codeError: null },
    });
    expect(created).toEqual([]);
    expect(await stored(row.id)).toMatchObject({
      status: "failed_to_submit",
      lastCodeError: null,
      lastMessage: "The merchant id is already used by a different request.",
    });
  });

  it("an unexpected failure: still submitting, to be checked again; nothing settled", async () => {
    behaviour = "bug";
    const row = await request("approved");
    expect(await submitPayout(row.id, approver, platform)).toEqual({
      ok: true,
      status: "submitting",
      message: "The submission could not be completed now; it will be checked again automatically.",
      traceID: null,
    });
    expect((await stored(row.id)).status).toBe("submitting");
  });

  it("a lost answer: still submitting, the platform's trace kept on the request", async () => {
    behaviour = "timeout";
    const row = await request("approved");
    expect(await submitPayout(row.id, approver, platform)).toEqual({
      ok: true,
      status: "submitting",
      message:
        "The platform's answer was lost. The same request is checked again automatically; do not create the pay-out again.",
      traceID: "trace-timeout",
    });
    expect(created).toHaveLength(3); // createOnce's resends, same id
    expect(await stored(row.id)).toMatchObject({
      status: "submitting",
      lastTraceID: "trace-timeout",
      lastMessage: "The platform's answer was lost (no answer in time); it will be checked again.",
    });
  });

  // a refused token answers internalError with the status AuthError: the kind, not the code, says so
  it("the token refused (internalError, AuthError): failed to submit, the token named", async () => {
    behaviour = "token";
    const row = await request("approved");
    expect(await submitPayout(row.id, approver, platform)).toMatchObject({
      ok: false,
      code: "failed_to_submit",
      error: {
        code: "auth",
        codeError: "internalError",
        traceID: "trace-token",
        message: "The platform refused Paydesk's credentials (token). Tell an admin; nothing was created.",
      },
    });
    expect(await stored(row.id)).toMatchObject({
      status: "failed_to_submit",
      lastCodeError: "internalError",
      lastMessage: "token invalid",
      lastTraceID: "trace-token",
    });
  });

  it("created: submitted, linked to the mirrored operation, in the approver's name", async () => {
    const row = await request("approved");
    const result = await submitPayout(row.id, approver, platform);
    expect(result).toMatchObject({
      ok: true,
      status: "submitted",
      traceID: `trace-${row.idTransactionMerchant}`,
    });
    const after = await stored(row.id);
    expect(after.status).toBe("submitted");
    expect(result.ok && result.status === "submitted" && result.operationId).toBe(after.operationId);
    expect(readBack).toEqual([]); // the creation answer mirrored it already
    const audits = await getDb().auditLog.findMany({
      where: { targetId: row.id },
      orderBy: { id: "asc" },
      select: { action: true, actorUserId: true, before: true, after: true },
    });
    expect(audits).toEqual([
      {
        action: "payout.submit",
        actorUserId: approver.id,
        before: { status: "approved" },
        after: { status: "submitting", idTransactionMerchant: row.idTransactionMerchant },
      },
      {
        action: "payout.submitted",
        actorUserId: approver.id,
        before: { status: "submitting" },
        after: {
          status: "submitted",
          operationId: after.operationId,
          traceID: `trace-${row.idTransactionMerchant}`,
        },
      },
    ]);
  });

  it.each([
    ["submitting", "This pay-out is already being submitted; it is sent once."],
    ["submitted", "This pay-out is already being submitted; it is sent once."],
    ["awaiting_approval", "Only an approved request can be submitted (this one is awaiting approval)."],
    ["cancelled", "Only an approved request can be submitted (this one is cancelled)."],
  ] as const)("a request %s is not sent", async (status, message) => {
    const row = await request(status);
    expect(await submitPayout(row.id, approver, platform)).toEqual({
      ok: false,
      code: "not_approved",
      status,
      message,
    });
    expect(created).toEqual([]);
  });

  it("an unknown request", async () => {
    expect(await submitPayout(randomUUID(), approver, platform)).toEqual({
      ok: false,
      code: "not_found",
      message: "No such pay-out request.",
    });
  });
});
