// The process's platform client (configured from the environment) records every call in ApiCall and
// logs it; what is stored for each field; a recording failure is logged and never fails the call.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import type { ApiCallRecord } from "@/lib/platform/recorder";
import { createStaff } from "../../support/mirror";
import { FakePlatform, OP_ID, TRACE, operationJson, specOk } from "../../unit/platform/fake-platform";

let fake: FakePlatform;
const TOKEN = "env-token-0123456789abcdef";
const log = { info: vi.fn(), error: vi.fn(), warn: vi.fn(), debug: vi.fn() };

beforeAll(async () => {
  fake = await FakePlatform.start();
  process.env.PLATFORM_BASE_URL = `${fake.url}/api`;
  process.env.PLATFORM_TOKEN = TOKEN;
  process.env.PLATFORM_TIMEOUT_MS = "4000";
  const holder = globalThis as { paydeskPlatform?: unknown; paydeskLog?: unknown };
  holder.paydeskPlatform = undefined;
  holder.paydeskLog = log;
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  vi.clearAllMocks();
});

const client = async () => (await import("@/lib/platform/from-env")).getPlatformClient();
const callsWith = (traceID: string) => getDb().apiCall.findMany({ where: { traceID } });

describe("getPlatformClient", () => {
  it("is one client per process, talking to PLATFORM_BASE_URL with PLATFORM_TOKEN", async () => {
    expect(await client()).toBe(await client());
    const trace = randomUUID();
    fake.route("GET", `/api/operation/operation/platform/${OP_ID}`, {
      body: specOk(operationJson({ idTransactionMerchant: `"order-env"` })).replace(TRACE, trace),
    });
    const user = await createStaff("support");
    const { operation } = await (await client()).getOperation(OP_ID, { actorUserId: user.id });
    expect(operation?.idTransactionMerchant).toBe("order-env");
    expect(fake.received[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);

    const [row] = await callsWith(trace);
    expect(row).toMatchObject({
      method: "GET",
      path: `/operation/operation/platform/${OP_ID}`,
      requestBody: null,
      httpStatus: 200,
      envelopeStatus: "Success",
      codeError: null,
      message: null,
      traceID: trace,
      error: null,
      dialect: "spec",
      actorUserId: user.id,
      operationId: OP_ID,
      idTransactionMerchant: "order-env",
    });
    expect(row!.responseBody).toContain('"number":"********4567"');
    expect(row!.responseBody).not.toContain("+79001234567");
    expect(Number.isInteger(row!.latencyMs)).toBe(true);
    expect(row!.startedAt).toBeInstanceOf(Date);

    expect(log.info).toHaveBeenCalledWith(
      {
        platformCall: {
          method: "GET",
          path: `/operation/operation/platform/${OP_ID}`,
          httpStatus: 200,
          envelopeStatus: "Success",
          codeError: null,
          traceID: trace,
          latencyMs: row!.latencyMs,
          attempt: 1,
          error: null,
        },
      },
      "platform call",
    );
    expect(JSON.stringify(log.info.mock.calls)).not.toContain(TOKEN);
  });

  it("a call that cannot be recorded is logged as such and still answers", async () => {
    const trace = randomUUID();
    fake.route("GET", "/api/masterdata/bank/list", { body: specOk(`["Sber"]`).replace(TRACE, trace) });
    // a well-formed user id that is no user: the ApiCall row's foreign key refuses it
    const { banks } = await (await client()).getBanks({ actorUserId: randomUUID() });
    expect(banks).toEqual([{ id: null, name: "Sber" }]);
    expect(await callsWith(trace)).toHaveLength(0);
    expect(log.error).toHaveBeenCalledWith({ err: expect.any(Error) }, "could not record a platform call");
  });
});

describe("databaseRecorder", () => {
  const base: ApiCallRecord = {
    method: "POST",
    path: "/host2host/payout",
    requestBody: '{"number":"************1234"}',
    responseBody: '{"status":"Warning"}',
    httpStatus: 200,
    envelopeStatus: "Warning",
    codeError: "fraud",
    message: "too fast",
    traceID: "t",
    latencyMs: 12.6,
    actorUserId: null,
    operationId: null,
    idTransactionMerchant: "po-1",
    error: null,
    startedAt: new Date("2030-01-02T03:04:05.678Z"),
    dialect: "nested",
    attempt: 1,
  };

  it("stores every field; latency rounded", async () => {
    const { databaseRecorder } = await import("@/lib/platform/record-to-db");
    const traceID = randomUUID();
    const user = await createStaff("finance");
    await databaseRecorder.record({ ...base, traceID, actorUserId: user.id, operationId: OP_ID, error: "e" });
    const [row] = await callsWith(traceID);
    expect(row).toMatchObject({
      startedAt: base.startedAt,
      method: "POST",
      path: "/host2host/payout",
      requestBody: base.requestBody,
      responseBody: base.responseBody,
      httpStatus: 200,
      envelopeStatus: "Warning",
      codeError: "fraud",
      message: "too fast",
      latencyMs: 13,
      error: "e",
      dialect: "nested",
      actorUserId: user.id,
      operationId: OP_ID,
      idTransactionMerchant: "po-1",
    });
  });

  it.each([
    ["not UUIDs", "cli", "order-1"],
    ["empty", "", ""],
  ])("an actor or operation id that is %s is stored as null", async (_name, actor, operation) => {
    const { databaseRecorder } = await import("@/lib/platform/record-to-db");
    const traceID = randomUUID();
    await databaseRecorder.record({ ...base, traceID, actorUserId: actor, operationId: operation });
    const [row] = await callsWith(traceID);
    expect(row).toMatchObject({ actorUserId: null, operationId: null });
  });
});
