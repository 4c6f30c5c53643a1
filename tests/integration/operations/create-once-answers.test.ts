// What createOnce (lib/operations/mirror/create-once.ts) makes of answers that are not a plain success or
// a plain refusal, against a scripted platform: a generic internalError may have created the operation
// (pending, resent with the same id), only a refused token is a refusal of the token; a refusal without
// an envelope (HTTP 400) is final; an answer about another operation is not believed; the link of a
// payment form is kept with the intent; an intent is not resent for ever; one id is sent by one caller.
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { getLog } from "@/lib/log";
import { createOnce, resolvePendingIntent, type Creation } from "@/lib/operations/mirror/create-once";
import { MAX_INTENT_AGE_MS } from "@/lib/operations/mirror/creation-intent";
import { findOperationByMerchantId } from "@/lib/operations/mirror/find-by-merchant-id";
import { decodePaymentForm, type Operation } from "@/lib/platform/schemas";
import { parseWireJson } from "@/lib/platform/wire";
import { snapshot, wireJsonOf } from "../../support/operations";
import { created, failure, lost, payoutCreation, scripted } from "../../support/scripted-platform";

vi.mock("@/lib/time/sleep", () => ({ sleep: async () => {} }));

function form(kind: "formPrepare" | "formFull" = "formPrepare"): Creation {
  return {
    kind,
    request: {
      idTransactionMerchant: `link-${randomUUID()}`,
      amount: "700",
      clientID: "client-1",
      clientIP: "203.0.113.7",
      clientDateCreated: "2024-05-01T10:00:00.000Z",
      ...(kind === "formFull" ? { paymentMethod: "sbp" } : {}),
    },
  } as Creation;
}

const intentOf = (creation: Creation) =>
  getDb().creationIntent.findUniqueOrThrow({
    where: { idTransactionMerchant: creation.request.idTransactionMerchant },
  });
const mirrored = (id: string) => getDb().operation.findUnique({ where: { id } });

const operationFor = (creation: Creation, change: Parameters<typeof snapshot>[0] = {}): Operation =>
  snapshot({
    typeOperation: creation.kind === "payOut" ? "payOut" : "payIn",
    idTransactionMerchant: creation.request.idTransactionMerchant,
    amount: creation.request.amount,
    ...change,
  });

/** A payment-form answer as the client decodes it from the wire's data. */
const formAnswer =
  (data: Record<string, unknown>, traceID = "t-form") =>
  () => ({
    form: decodePaymentForm(parseWireJson(JSON.stringify(data))),
    traceID,
  });

describe("internalError: maybe created, never a refused token unless the envelope says AuthError", () => {
  it.each([
    ["spec Warning", { codeError: "internalError", envelopeStatus: "Warning" }],
    [
      "nested warning (class and code internalError)",
      { codeError: "internalError", codeErrorClass: "internalError", envelopeStatus: "warning" },
    ],
    [
      "nested warning, class internalError with a code of its own",
      { codeError: "dbTimeout", codeErrorClass: "internalError", envelopeStatus: "warning" },
    ],
    ["an InternalError status without a code", { codeError: null, envelopeStatus: "InternalError" }],
  ])("%s: pending after three sends, resent later with the same id", async (_what, error) => {
    const creation = payoutCreation();
    const internal = failure({
      kind: "business",
      description: "internal",
      platformMessage: "An internal error occurred",
      traceID: "t-int",
      ...error,
    });
    const { platform, calls } = scripted({ createPayOut: [internal, internal, internal] });
    expect(await createOnce(platform, creation, {}, { resendDelayMs: 0 })).toMatchObject({
      status: "pending",
      reason: "internalError",
      traceID: "t-int",
    });
    expect(calls).toHaveLength(3);
    expect(await intentOf(creation)).toMatchObject({ state: "pending", attempts: 3 });

    const op = operationFor(creation);
    const later = scripted({ createPayOut: [created(op)] });
    expect(await resolvePendingIntent(later.platform, creation.request.idTransactionMerchant)).toMatchObject({
      status: "created",
      operationId: op.id,
    });
  });

  it("AuthError with internalError is a refused token: rejected, and the kind is kept for its words", async () => {
    const creation = payoutCreation();
    const token = failure({
      kind: "auth",
      description: "refused",
      codeError: "internalError",
      envelopeStatus: "AuthError",
      platformMessage: "user data not found",
      httpStatus: 401,
      traceID: "t-auth",
    });
    const refusal = {
      status: "rejected",
      codeError: "internalError",
      message: "user data not found",
      traceID: "t-auth",
      kind: "auth",
      httpStatus: 401,
    };
    expect(await createOnce(scripted({ createPayOut: [token] }).platform, creation)).toEqual(refusal);
    expect(await intentOf(creation)).toMatchObject({
      state: "rejected",
      lastErrorKind: "auth",
      lastHttpStatus: 401,
    });
    // read back from the intent: the same refusal, kind included
    expect(await createOnce(scripted({}).platform, creation)).toEqual(refusal);
  });
});

describe("a refusal without an envelope", () => {
  it("HTTP 400 with a problem body is final: rejected after one send, not resent by the job", async () => {
    const creation = payoutCreation();
    const problem = failure({
      kind: "protocol",
      description:
        "Platform POST /host2host/payout returned HTTP 400 without a response envelope: One or more validation errors occurred. (amount: bad)",
      httpStatus: 400,
      traceID: "t-400",
      outcomeUnknown: false,
    });
    const { platform, calls } = scripted({ createPayOut: [problem] });
    expect(await createOnce(platform, creation, {}, { resendDelayMs: 0 })).toMatchObject({
      status: "rejected",
      codeError: null,
      kind: "protocol",
      httpStatus: 400,
      traceID: "t-400",
    });
    expect(calls).toHaveLength(1);
    expect(await intentOf(creation)).toMatchObject({ state: "rejected", lastHttpStatus: 400 });
    const later = scripted({});
    expect(await resolvePendingIntent(later.platform, creation.request.idTransactionMerchant)).toMatchObject({
      status: "rejected",
    });
    expect(later.calls).toEqual([]);
  });

  it.each([
    [
      "HTTP 429 (try later)",
      { kind: "protocol" as const, httpStatus: 429, outcomeUnknown: false, description: "busy" },
    ],
    [
      "a connection refused (never sent)",
      { kind: "transport" as const, outcomeUnknown: false, description: "ECONNREFUSED" },
    ],
    [
      "an answer that did not decode",
      { kind: "protocol" as const, httpStatus: 200, outcomeUnknown: true, description: "bad shape" },
    ],
    ["a timeout", { kind: "timeout" as const, outcomeUnknown: true, description: "no answer" }],
  ])("%s stays pending", async (_what, init) => {
    const creation = payoutCreation();
    const once = failure(init);
    const { platform, calls } = scripted({ createPayOut: [once, once, once] });
    expect(await createOnce(platform, creation, {}, { resendDelayMs: 0 })).toMatchObject({
      status: "pending",
    });
    expect(calls).toHaveLength(3);
    expect(await intentOf(creation)).toMatchObject({ state: "pending" });
  });
});

describe("an answer about another operation is not believed", () => {
  let errors: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    errors = vi.spyOn(getLog(), "error");
  });
  afterEach(() => errors.mockRestore());

  it.each([
    ["another idTransactionMerchant", { idTransactionMerchant: "po-someone-else" }, "idTransactionMerchant"],
    ["a pay-in for a pay-out", { typeOperation: "payIn" as const }, "typeOperation"],
    ["another amount", { amount: "15.25" }, "amountInitial"],
  ])("%s: nothing mirrored, the intent stays pending with the reason", async (_what, change, field) => {
    const creation = payoutCreation();
    const other = operationFor(creation, change);
    const { platform } = scripted({ createPayOut: [created(other), created(other), created(other)] });
    expect(await createOnce(platform, creation, {}, { resendDelayMs: 0 })).toMatchObject({
      status: "pending",
      reason: "answerMismatch",
    });
    expect(await mirrored(other.id)).toBeNull();
    const intent = await intentOf(creation);
    expect(intent).toMatchObject({ state: "pending", operationId: null });
    expect(intent.lastMessage).toContain(field);
    expect(errors).toHaveBeenCalledWith(
      expect.objectContaining({ idTransactionMerchant: creation.request.idTransactionMerchant }),
      "the platform's creation answer does not match the request",
    );
  });

  it("the same amount written otherwise (1500.250) is the same amount", async () => {
    const creation = payoutCreation("1500.25");
    const op = operationFor(creation, { amount: "1500.250" });
    expect(await createOnce(scripted({ createPayOut: [created(op)] }).platform, creation)).toMatchObject({
      status: "created",
      operationId: op.id,
    });
  });

  it("a minimal form answer is checked on the fields it has", async () => {
    const creation = form();
    const id = randomUUID();
    const answer = formAnswer({
      linkPaymentForm: "https://pay.example/payment/1",
      id,
      status: "precreated",
      idTransactionMerchant: "link-someone-else",
    });
    const { platform } = scripted({ preparePaymentForm: [answer, answer, answer] });
    expect(await createOnce(platform, creation, {}, { resendDelayMs: 0 })).toMatchObject({
      status: "pending",
      reason: "answerMismatch",
    });
    expect(await intentOf(creation)).toMatchObject({ state: "pending", linkPaymentForm: null });
  });

  it("a form answer with the operation of another amount is not believed", async () => {
    const creation = form("formFull");
    const op = operationFor(creation, { amount: "7000" });
    const answer = formAnswer({
      ...(JSON.parse(wireJsonOf(op)) as object),
      linkPaymentForm: "https://pay.example/payment/2",
    });
    const { platform } = scripted({ createFullPaymentForm: [answer, answer, answer] });
    expect(await createOnce(platform, creation, {}, { resendDelayMs: 0 })).toMatchObject({
      status: "pending",
      reason: "answerMismatch",
    });
    expect(await mirrored(op.id)).toBeNull();
  });

  it("the deprecated lookup: an operation with another id is not taken for ours", async () => {
    const creation = payoutCreation();
    const duplicate = failure({ kind: "business", description: "dup", codeError: "duplicateIdentifier" });
    const emptyList = () => ({ operations: [], totalNumberRecords: 0 });
    const someoneElses = () => ({ operations: [operationFor(payoutCreation())] });
    const { platform } = scripted({
      createPayOut: [duplicate, duplicate, duplicate],
      listOperations: [emptyList, emptyList, emptyList],
      getOperationsByMerchantIdDeprecated: [someoneElses, someoneElses, someoneElses],
    });
    expect(await createOnce(platform, creation, {}, { resendDelayMs: 0 })).toMatchObject({
      status: "pending",
    });
    expect(await intentOf(creation)).toMatchObject({ state: "pending", operationId: null });
  });

  it("findOperationByMerchantId takes from the deprecated endpoint only an operation with the id asked", async () => {
    const mine = payoutCreation();
    const ours = operationFor(mine, { dateAdded: "2026-11-20T09:00:00.000Z" });
    const newerOther = operationFor(payoutCreation(), { dateAdded: "2026-11-20T11:00:00.000Z" });
    const emptyList = () => ({ operations: [], totalNumberRecords: 0 });
    const { platform } = scripted({
      listOperations: [emptyList, emptyList],
      getOperationsByMerchantIdDeprecated: [
        () => ({ operations: [newerOther] }),
        () => ({ operations: [newerOther, ours] }),
      ],
    });
    const id = mine.request.idTransactionMerchant;
    expect(await findOperationByMerchantId(platform, id)).toBeNull();
    expect(await findOperationByMerchantId(platform, id)).toEqual({ operation: ours, via: "deprecated" });
  });
});

describe("the link of a payment form is kept with the intent", () => {
  it("the form answered: the link is stored, and the same form again gets it from the intent", async () => {
    const creation = form();
    const id = randomUUID();
    const link = `https://pay.example/payment/${id}`;
    const answer = formAnswer({ linkPaymentForm: link, id, status: "precreated" });
    expect(await createOnce(scripted({ preparePaymentForm: [answer] }).platform, creation)).toMatchObject({
      status: "created",
      operationId: id,
      linkPaymentForm: link,
      confirmedNow: true,
    });
    expect(await intentOf(creation)).toMatchObject({ linkPaymentForm: link });
    expect(await createOnce(scripted({}).platform, creation)).toMatchObject({
      status: "created",
      operationId: id,
      linkPaymentForm: link,
      confirmedNow: false,
    });
  });
  it("a form answered without its id: found later by the same form, still with the first answer's link", async () => {
    const creation = form();
    const link = "https://pay.example/payment/no-id";
    const first = scripted({
      preparePaymentForm: [formAnswer({ linkPaymentForm: link, status: "precreated" })],
    });
    expect(await createOnce(first.platform, creation)).toMatchObject({ status: "created", operationId: "" });
    const op = operationFor(creation, { status: "precreated" });
    const again = scripted({
      preparePaymentForm: [
        failure({ kind: "business", description: "dup", codeError: "duplicateIdentifier" }),
      ],
      listOperations: [() => ({ operations: [op], totalNumberRecords: 1 })],
    });
    expect(await createOnce(again.platform, creation)).toMatchObject({
      status: "created",
      operationId: op.id,
      linkPaymentForm: link,
    });
  });
});

/** A first round of sends whose answers are all lost: the intent stays pending. */
const roundOfLostAnswers = (creation: Creation) =>
  createOnce(
    scripted({ createPayOut: [lost("a"), lost("b"), lost("c")] }).platform,
    creation,
    {},
    { resendDelayMs: 0 },
  );

describe("an intent is not resent for ever", () => {
  const age = (creation: Creation, ms: number) =>
    getDb()
      .$executeRaw`UPDATE "CreationIntent" SET "createdAt" = now() - ${`${ms} milliseconds`}::interval WHERE "idTransactionMerchant" = ${creation.request.idTransactionMerchant}`;

  // An outage of the platform's answers is counted in time, not sends: pay-outs in flight during an
  // hour-long outage (sixty rounds of three) must still settle by themselves when it ends.
  it("an hour of lost answers does not give it up: the job still resends it", async () => {
    const creation = payoutCreation();
    await roundOfLostAnswers(creation);
    await getDb().creationIntent.update({
      where: { idTransactionMerchant: creation.request.idTransactionMerchant },
      data: { attempts: 180 },
    });
    const op = operationFor(creation);
    const job = scripted({ createPayOut: [lost("d"), created(op)] });
    expect(await resolvePendingIntent(job.platform, creation.request.idTransactionMerchant)).toMatchObject({
      status: "created",
      operationId: op.id,
    });
    expect(await intentOf(creation)).toMatchObject({ state: "confirmed", gaveUpAt: null });
  });

  it("a day on, the round under way ends given up; the job then stops; a person sending again is settled", async () => {
    const creation = payoutCreation();
    await roundOfLostAnswers(creation);
    await age(creation, MAX_INTENT_AGE_MS + 60_000);
    // a person's send of the same form: one more round with the same id, then given up
    const round = scripted({ createPayOut: [lost("d"), lost("e"), lost("f")] });
    expect(await createOnce(round.platform, creation, {}, { resendDelayMs: 0 })).toMatchObject({
      status: "pending",
      reason: "stopped",
    });
    expect(await intentOf(creation)).toMatchObject({ state: "pending", gaveUpAt: expect.any(Date) });

    const next = scripted({});
    expect(await resolvePendingIntent(next.platform, creation.request.idTransactionMerchant)).toMatchObject({
      status: "pending",
      reason: "stopped",
    });
    expect(next.calls).toEqual([]);

    const op = operationFor(creation);
    const person = scripted({ createPayOut: [created(op)] });
    expect(await createOnce(person.platform, creation)).toMatchObject({
      status: "created",
      operationId: op.id,
    });
    expect(await intentOf(creation)).toMatchObject({ state: "confirmed" });
  });

  it("an intent older than the limit is not sent by the job at all", async () => {
    const creation = payoutCreation();
    await roundOfLostAnswers(creation);
    await age(creation, MAX_INTENT_AGE_MS + 60_000);
    const job = scripted({});
    expect(await resolvePendingIntent(job.platform, creation.request.idTransactionMerchant)).toMatchObject({
      status: "pending",
      reason: "stopped",
    });
    expect(job.calls).toEqual([]);
    expect(await intentOf(creation)).toMatchObject({ state: "pending", gaveUpAt: expect.any(Date) });
  });
});

describe("an intent settled by another caller meanwhile", () => {
  // Two callers can send one id when a claim outlives its lease (a very slow platform) or a release
  // without claims runs beside this one during a deploy: the outcome written first stands.
  it.each([
    ["a refusal", failure({ kind: "business", description: "refused", codeError: "fraud" })],
    ["a lost answer", lost("x")],
  ])("%s does not overwrite a confirmed intent", async (_, answer) => {
    const creation = payoutCreation();
    const op = operationFor(creation);
    const id = creation.request.idTransactionMerchant;
    const meanwhile = async () => {
      await getDb().creationIntent.update({
        where: { idTransactionMerchant: id },
        data: { state: "confirmed", operationId: op.id },
      });
      return answer();
    };
    const outcome = await createOnce(
      scripted({ createPayOut: [meanwhile, answer, answer] }).platform,
      creation,
      {},
      { resendDelayMs: 0 },
    );
    expect(outcome).toMatchObject({ status: "created", operationId: op.id });
    expect(await intentOf(creation)).toMatchObject({ state: "confirmed", operationId: op.id });
  });
});

describe("one id is sent by one caller at a time", () => {
  // A process killed mid-round holds the id until its claim runs out: half a minute, renewed while a
  // round runs (a claim as long as the longest round held every killed create for five minutes).
  it("the claim is short, renewed while the round runs, and given back at its end", async () => {
    const creation = payoutCreation();
    const id = creation.request.idTransactionMerchant;
    const claimLeft = async () => {
      const [row] = await getDb().$queryRaw<{ left: number | null }[]>`
        SELECT extract(epoch FROM "sendingUntil" - now())::float8 AS left
        FROM "CreationIntent" WHERE "idTransactionMerchant" = ${id}`;
      return row?.left ?? null;
    };
    const seen: (number | null)[] = [];
    const op = operationFor(creation);
    const slow = async () => {
      seen.push(await claimLeft());
      await new Promise((resolve) => setTimeout(resolve, 11_000)); // past one renewal
      seen.push(await claimLeft());
      return created(op)();
    };
    expect(await createOnce(scripted({ createPayOut: [slow] }).platform, creation)).toMatchObject({
      status: "created",
    });
    expect(seen[0]).toBeLessThanOrEqual(30);
    expect(seen[1]).toBeGreaterThan(20); // renewed: without it, 30 − 11 s would be left
    expect(await claimLeft()).toBeNull();
  }, 30_000);

  it("two calls at once: one send; the one that confirmed gets the operation, the other does not", async () => {
    const creation = payoutCreation();
    const op = operationFor(creation);
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { platform, calls } = scripted({
      createPayOut: [
        async () => {
          await gate;
          return { operation: op, traceID: "t-one" };
        },
      ],
    });
    const both = Promise.all([createOnce(platform, creation), createOnce(platform, creation)]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    const outcomes = await both;
    expect(calls).toHaveLength(1);
    expect(outcomes.map((o) => o.status)).toEqual(["created", "created"]);
    const fresh = outcomes.filter((o) => o.status === "created" && o.confirmedNow);
    expect(fresh).toHaveLength(1);
    expect(fresh[0]).toMatchObject({ operation: { id: op.id } });
    expect(outcomes.filter((o) => o.status === "created" && !o.confirmedNow)).toEqual([
      expect.objectContaining({ operationId: op.id, operation: null }),
    ]);
  });

  it("the job meets an intent another caller is sending: it leaves it alone, without waiting", async () => {
    const creation = payoutCreation();
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const op = operationFor(creation);
    const sender = scripted({
      createPayOut: [
        async () => {
          await gate;
          return { operation: op, traceID: "t" };
        },
      ],
    });
    const sending = createOnce(sender.platform, creation);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const job = scripted({});
    expect(await resolvePendingIntent(job.platform, creation.request.idTransactionMerchant)).toMatchObject({
      status: "pending",
      reason: "inProgress",
    });
    expect(job.calls).toEqual([]);
    release();
    expect(await sending).toMatchObject({ status: "created" });
  });
});
