// Every path of exactly-once creation (lib/operations/mirror/create-once.ts) against a scripted
// platform: an intent already confirmed or rejected answers without a call; a different request under
// the same id is a conflict; lost answers are resent with a doubling wait and end pending with what was
// last heard; duplicateIdentifier is resolved by a lookup; business and auth refusals are final; errors
// that are not the platform's go to the caller; payment forms give their link and id; a pending intent
// is resent in its creator's name.
import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import {
  createOnce,
  IdempotencyConflictError,
  resolvePendingIntent,
  type Creation,
} from "@/lib/operations/mirror/create-once";
import { PlatformRequestError } from "@/lib/platform/errors";
import type { Operation } from "@/lib/platform/schemas";
import { snapshot } from "../../support/operations";
import { createStaff } from "../../support/mirror";
import { created, failure, lost, payoutCreation, scripted } from "../../support/scripted-platform";

const waits: number[] = [];
vi.mock("@/lib/time/sleep", () => ({
  sleep: async (ms: number) => {
    waits.push(ms);
  },
}));

const intentOf = (creation: Creation) =>
  getDb().creationIntent.findUniqueOrThrow({
    where: { idTransactionMerchant: creation.request.idTransactionMerchant },
  });

function operationFor(creation: Creation): Operation {
  return snapshot({
    typeOperation: "payOut",
    idTransactionMerchant: creation.request.idTransactionMerchant,
    amount: "1500.25",
  });
}

beforeEach(() => {
  waits.length = 0;
});

describe("an intent that is already known answers without a call", () => {
  it("confirmed: the stored operation and trace, no link, no snapshot; nothing sent again", async () => {
    const creation = payoutCreation();
    const op = operationFor(creation);
    const first = scripted({ createPayOut: [created(op, "trace-1")] });
    expect(await createOnce(first.platform, creation)).toEqual({
      status: "created",
      operationId: op.id,
      traceID: "trace-1",
      linkPaymentForm: null,
      operation: op,
      confirmedNow: true,
    });
    const again = scripted({});
    expect(await createOnce(again.platform, creation)).toEqual({
      status: "created",
      operationId: op.id,
      traceID: "trace-1",
      linkPaymentForm: null,
      operation: null,
      confirmedNow: false,
    });
    expect(again.calls).toEqual([]);
    expect(await intentOf(creation)).toMatchObject({ state: "confirmed", attempts: 1, operationId: op.id });
  });

  it("rejected: the stored refusal, and 'rejected' when no message was kept", async () => {
    const creation = payoutCreation();
    const first = scripted({
      createPayOut: [
        failure({
          kind: "business",
          description: "refused",
          codeError: "fraud",
          platformMessage: "Suspected fraud",
          traceID: "trace-r",
        }),
      ],
    });
    const refusal = {
      status: "rejected",
      codeError: "fraud",
      message: "Suspected fraud",
      traceID: "trace-r",
      kind: "business",
      httpStatus: null,
    };
    expect(await createOnce(first.platform, creation)).toEqual(refusal);
    const again = scripted({});
    expect(await createOnce(again.platform, creation)).toEqual(refusal);
    expect(again.calls).toEqual([]);

    await getDb().creationIntent.update({
      where: { idTransactionMerchant: creation.request.idTransactionMerchant },
      data: { lastMessage: null },
    });
    expect(await createOnce(again.platform, creation)).toEqual({ ...refusal, message: "rejected" });
  });

  it("a confirmed intent without an operation id is sent again (not answered from the intent)", async () => {
    const creation = payoutCreation();
    const op = operationFor(creation);
    await createOnce(scripted({ createPayOut: [created(op)] }).platform, creation);
    await getDb().creationIntent.update({
      where: { idTransactionMerchant: creation.request.idTransactionMerchant },
      data: { operationId: null },
    });
    const again = scripted({ createPayOut: [created(op, "trace-2")] });
    expect(await createOnce(again.platform, creation)).toMatchObject({
      status: "created",
      traceID: "trace-2",
    });
    expect(again.calls.map((c) => c.method)).toEqual(["createPayOut"]);
  });
});

describe("one id, one request", () => {
  it("another amount or another kind under the same id is a conflict, named, and nothing is sent", async () => {
    const creation = payoutCreation();
    const op = operationFor(creation);
    await createOnce(scripted({ createPayOut: [created(op)] }).platform, creation);
    const id = creation.request.idTransactionMerchant;
    const none = scripted({});
    const changed = { ...creation, request: { ...creation.request, amount: "1.00" } } as Creation;
    const asPayIn = { ...creation, kind: "payIn" } as Creation;
    for (const other of [changed, asPayIn]) {
      const error = await createOnce(none.platform, other).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IdempotencyConflictError);
      expect(error).toMatchObject({
        name: "IdempotencyConflictError",
        message: `idTransactionMerchant ${id} is already used by a different request.`,
      });
    }
    expect(none.calls).toEqual([]);
  });

  it("the intent records who asked (and nobody when no one is named)", async () => {
    const staff = await createStaff("finance");
    const named = payoutCreation();
    const anonymous = payoutCreation();
    await createOnce(scripted({ createPayOut: [created(operationFor(named))] }).platform, named, {
      actorUserId: staff.id,
    });
    await createOnce(scripted({ createPayOut: [created(operationFor(anonymous))] }).platform, anonymous);
    expect((await intentOf(named)).createdById).toBe(staff.id);
    expect((await intentOf(anonymous)).createdById).toBeNull();
  });
});

describe("lost answers", () => {
  it("three sends with waits of d and 2d between them, then pending with the last error kept", async () => {
    const creation = payoutCreation();
    const { platform, calls } = scripted({ createPayOut: [lost("t-1"), lost("t-2"), lost("t-3")] });
    expect(await createOnce(platform, creation, {}, { resendDelayMs: 40 })).toEqual({
      status: "pending",
      message: "The platform's answer was lost (connection reset); it will be checked again.",
      traceID: "t-3",
      reason: "answerLost",
    });
    expect(calls).toHaveLength(3);
    expect(waits).toEqual([40, 80]);
    expect(await intentOf(creation)).toMatchObject({
      state: "pending",
      attempts: 3,
      lastMessage: "connection reset",
      lastTraceID: "t-3",
      lastCodeError: null,
    });
  });

  it("the wait starts at half a second when none is given; an answer on the second send confirms", async () => {
    const creation = payoutCreation();
    const op = operationFor(creation);
    const { platform } = scripted({ createPayOut: [lost("t-1"), created(op, "t-2")] });
    expect(await createOnce(platform, creation)).toMatchObject({ status: "created", operationId: op.id });
    expect(waits).toEqual([500]);
    expect(await intentOf(creation)).toMatchObject({
      state: "confirmed",
      attempts: 2,
      lastTraceID: "t-2",
      lastMessage: null,
    });
  });

  it("duplicateIdentifier: the operation an earlier send created is found and confirmed with that trace", async () => {
    const creation = payoutCreation();
    const op = operationFor(creation);
    const { platform, calls } = scripted({
      createPayOut: [
        lost("t-1"),
        failure({
          kind: "business",
          description: "duplicate",
          codeError: "duplicateIdentifier",
          traceID: "t-dup",
        }),
      ],
      listOperations: [() => ({ operations: [op], totalNumberRecords: 1 })],
    });
    expect(await createOnce(platform, creation, {}, { resendDelayMs: 1 })).toMatchObject({
      status: "created",
      operationId: op.id,
      traceID: "t-dup",
    });
    expect(calls.map((c) => c.method)).toEqual(["createPayOut", "createPayOut", "listOperations"]);
    expect(await intentOf(creation)).toMatchObject({ state: "confirmed", operationId: op.id });
  });

  it("duplicateIdentifier while the lookup fails: the lookup's error is what the pending intent keeps", async () => {
    const creation = payoutCreation();
    const duplicate = failure({
      kind: "business",
      description: "duplicate",
      codeError: "duplicateIdentifier",
      traceID: "t-dup",
    });
    const lookupFails = failure({ kind: "timeout", description: "the list timed out", traceID: "t-list" });
    const { platform } = scripted({
      createPayOut: [duplicate, duplicate, duplicate],
      listOperations: [lookupFails, lookupFails, lookupFails],
    });
    expect(await createOnce(platform, creation, {}, { resendDelayMs: 1 })).toEqual({
      status: "pending",
      message: "The platform's answer was lost (the list timed out); it will be checked again.",
      traceID: "t-list",
      reason: "answerLost",
    });
  });

  it("a lookup that fails with something that is not the platform's error goes to the caller", async () => {
    const creation = payoutCreation();
    const { platform } = scripted({
      createPayOut: [
        failure({ kind: "business", description: "duplicate", codeError: "duplicateIdentifier" }),
      ],
      listOperations: [
        () => {
          throw new TypeError("a bug in the lookup");
        },
      ],
    });
    await expect(createOnce(platform, creation, {}, { resendDelayMs: 1 })).rejects.toThrow(
      "a bug in the lookup",
    );
  });
});

describe("final refusals and errors that are not the platform's", () => {
  it("a refused token is final like a business refusal: rejected after one send", async () => {
    const creation = payoutCreation();
    const { platform, calls } = scripted({
      createPayOut: [
        failure({ kind: "auth", description: "token refused", httpStatus: 401, traceID: "t-auth" }),
      ],
    });
    expect(await createOnce(platform, creation, {}, { resendDelayMs: 1 })).toEqual({
      status: "rejected",
      codeError: null,
      message: "token refused",
      traceID: "t-auth",
      kind: "auth",
      httpStatus: 401,
    });
    expect(calls).toHaveLength(1);
    expect(await intentOf(creation)).toMatchObject({ state: "rejected", lastMessage: "token refused" });
  });

  it("a request refused before sending is rejected at once with its reason, not left pending", async () => {
    const creation = payoutCreation();
    const refusal = new PlatformRequestError([
      { field: "clientIP", message: "expected an IPv4 or IPv6 address" },
    ]);
    const { platform, calls } = scripted({
      createPayOut: [
        () => {
          throw refusal;
        },
      ],
    });
    expect(await createOnce(platform, creation, {}, { resendDelayMs: 1 })).toEqual({
      status: "rejected",
      codeError: null,
      message: refusal.message,
      traceID: null,
      kind: null,
      httpStatus: null,
      refusedBeforeSending: { field: "clientIP" },
    });
    expect(calls).toHaveLength(1);
    expect(waits).toEqual([]);
    expect(await intentOf(creation)).toMatchObject({
      state: "rejected",
      attempts: 1,
      lastCodeError: null,
      lastTraceID: null,
      lastMessage: "Request refused before sending: clientIP: expected an IPv4 or IPv6 address",
    });
    // the same form again (or the pending-intents job): the stored refusal, nothing sent
    const again = scripted({});
    expect(await createOnce(again.platform, creation)).toEqual({
      status: "rejected",
      codeError: null,
      message: refusal.message,
      traceID: null,
      kind: null,
      httpStatus: null,
    });
    expect(again.calls).toEqual([]);
  });

  it.each([
    ["an Error that is not the platform's", new RangeError("a bug")],
    ["something thrown that is not an Error", "a string"],
  ])("%s goes to the caller after one send; the intent stays pending", async (_what, thrown) => {
    const creation = payoutCreation();
    const { platform, calls } = scripted({
      createPayOut: [
        () => {
          throw thrown;
        },
      ],
    });
    await expect(createOnce(platform, creation, {}, { resendDelayMs: 1 })).rejects.toBe(thrown);
    expect(calls).toHaveLength(1);
    expect(await intentOf(creation)).toMatchObject({ state: "pending", attempts: 1 });
  });
});

// PostgreSQL refuses U+0000 in text. A refusal holding one failed its own write: the error went to the
// caller as unexpected, the intent stayed pending and the request was sent again every minute, for ever.
describe("platform text PostgreSQL cannot store", () => {
  it("a business refusal with NUL in its code, message and trace is rejected, each NUL as U+FFFD", async () => {
    const creation = payoutCreation();
    const { platform, calls } = scripted({
      createPayOut: [
        failure({
          kind: "business",
          description: "refused",
          codeError: "invalidRequest\u0000Parameters",
          platformMessage: "Field 'nameMediator' is invalid: \u0000",
          traceID: "t-\u0000",
        }),
      ],
    });
    const refusal = {
      codeError: "invalidRequest\ufffdParameters",
      message: "Field 'nameMediator' is invalid: \ufffd",
      traceID: "t-\ufffd",
    };
    expect(await createOnce(platform, creation, {}, { resendDelayMs: 1 })).toEqual({
      status: "rejected",
      ...refusal,
      kind: "business",
      httpStatus: null,
    });
    expect(calls).toHaveLength(1);
    expect(await intentOf(creation)).toMatchObject({
      state: "rejected",
      lastCodeError: refusal.codeError,
      lastMessage: refusal.message,
      lastTraceID: refusal.traceID,
    });
  });

  it("a request refused before sending, its reason holding NUL, is rejected", async () => {
    const creation = payoutCreation();
    const refusal = new PlatformRequestError([{ field: "nameMediator", message: "holds \u0000" }]);
    const { platform } = scripted({
      createPayOut: [
        () => {
          throw refusal;
        },
      ],
    });
    expect(await createOnce(platform, creation, {}, { resendDelayMs: 1 })).toMatchObject({
      status: "rejected",
      message: refusal.message.replace("\u0000", "\ufffd"),
    });
    expect(await intentOf(creation)).toMatchObject({
      state: "rejected",
      lastMessage: "Request refused before sending: nameMediator: holds \ufffd",
    });
  });

  it("a lost answer whose error holds NUL leaves the intent pending with what was heard", async () => {
    const creation = payoutCreation();
    const lostWithNul = failure({
      kind: "transport",
      description: "reset \u0000",
      traceID: "t-\u0000",
      outcomeUnknown: true,
    });
    const { platform } = scripted({ createPayOut: [lostWithNul, lostWithNul, lostWithNul] });
    expect(await createOnce(platform, creation, {}, { resendDelayMs: 1 })).toEqual({
      status: "pending",
      message: "The platform's answer was lost (reset \ufffd); it will be checked again.",
      traceID: "t-\ufffd",
      reason: "answerLost",
    });
    expect(await intentOf(creation)).toMatchObject({
      state: "pending",
      lastMessage: "reset \ufffd",
      lastTraceID: "t-\ufffd",
    });
  });
});

describe("payment forms", () => {
  const form = (kind: "formPrepare" | "formFull"): Creation =>
    ({
      kind,
      request: {
        idTransactionMerchant: `pf-${randomUUID()}`,
        amount: "700",
        clientID: "client-1",
        clientIP: "203.0.113.7",
        clientDateCreated: "2024-05-01T10:00:00.000Z",
      },
    }) as unknown as Creation;

  it("a prepared form without an operation: its link, and its id as the operation id", async () => {
    const creation = form("formPrepare");
    const formId = randomUUID();
    const { platform, calls } = scripted({
      preparePaymentForm: [
        () => ({
          form: { linkPaymentForm: "https://pay.example/f/1", id: formId, operation: null, raw: {} },
          traceID: "t-f",
        }),
      ],
    });
    expect(await createOnce(platform, creation)).toEqual({
      status: "created",
      operationId: formId,
      traceID: "t-f",
      linkPaymentForm: "https://pay.example/f/1",
      operation: null,
      confirmedNow: true,
    });
    expect(calls.map((c) => c.method)).toEqual(["preparePaymentForm"]);
  });

  it("a full form with its operation: the operation's id, and the operation mirrored", async () => {
    const creation = form("formFull");
    const op = snapshot({ idTransactionMerchant: creation.request.idTransactionMerchant, amount: "700" });
    const { platform, calls } = scripted({
      createFullPaymentForm: [
        () => ({
          form: { linkPaymentForm: "https://pay.example/f/2", id: randomUUID(), operation: op, raw: op.raw },
          traceID: "t",
        }),
      ],
    });
    expect(await createOnce(platform, creation)).toMatchObject({
      status: "created",
      operationId: op.id,
      linkPaymentForm: "https://pay.example/f/2",
    });
    expect(calls.map((c) => c.method)).toEqual(["createFullPaymentForm"]);
    expect(await getDb().operation.findUnique({ where: { id: op.id } })).toMatchObject({
      lastSource: "creation",
    });
  });
});

describe("a pending intent resent later", () => {
  it("is sent again as stored, in the name of who created it, without waiting", async () => {
    const staff = await createStaff("finance");
    const creation = payoutCreation();
    const op = operationFor(creation);
    await createOnce(
      scripted({ createPayOut: [lost("a"), lost("b"), lost("c")] }).platform,
      creation,
      { actorUserId: staff.id },
      { resendDelayMs: 1 },
    );
    waits.length = 0;
    const later = scripted({ createPayOut: [lost("d"), created(op, "t-later")] });
    expect(await resolvePendingIntent(later.platform, creation.request.idTransactionMerchant)).toMatchObject({
      status: "created",
      operationId: op.id,
      traceID: "t-later",
    });
    expect(later.calls.map((c) => c.context)).toEqual([{ actorUserId: staff.id }, { actorUserId: staff.id }]);
    expect(waits).toEqual([0]);
  });

  it("an intent nobody named is resent with no one's name", async () => {
    const creation = payoutCreation();
    await createOnce(
      scripted({ createPayOut: [lost("a"), lost("b"), lost("c")] }).platform,
      creation,
      {},
      { resendDelayMs: 1 },
    );
    const later = scripted({ createPayOut: [created(operationFor(creation))] });
    await resolvePendingIntent(later.platform, creation.request.idTransactionMerchant);
    expect(later.calls.map((c) => c.context)).toEqual([{ actorUserId: undefined }]);
  });
});
