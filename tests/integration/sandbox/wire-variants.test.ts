// Wire notes › "More seen in public documentation and clients": the sandbox produces each variant,
// and Paydesk's client, creation and mirror keep working against it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import { getDb } from "@/lib/db";
import { createOnce, type Creation } from "@/lib/operations/mirror/create-once";
import { refreshOperation } from "@/lib/operations/mirror/refresh";
import type { PlatformClient } from "@/lib/platform/client";
import { isPlatformError } from "@/lib/platform/errors";
import { clientFor } from "../../support/sandbox";
import { CLIENT, client, control, startSandbox, uniqueId } from "./helpers";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ seedDemoHistory: false });
});
afterAll(() => sandbox.stop());
beforeEach(async () => {
  await control(sandbox, "DELETE", "/faults");
  await control(sandbox, "PATCH", "/merchants/other", { dialect: "nested", literalRequestId: false });
});

function payinBody(overrides: Record<string, unknown> = {}) {
  return {
    paymentMethod: "toCard",
    idTransactionMerchant: uniqueId(),
    amount: 5000,
    ...CLIENT,
    ...overrides,
  };
}

describe("the sandbox produces each variant", () => {
  it("nested dialect: a pay-in is created in_progress; a pay-out and a prepared form keep the spec's status", async () => {
    const api = client(sandbox, "other");
    await control(sandbox, "POST", "/merchants/other/balance", { amount: "1000" });
    const payin = await api.post("/host2host/payin", payinBody());
    expect(payin.body.data).toMatchObject({ typeOperation: "payIn", status: "in_progress" });
    const full = await api.post("/paymentform/full", payinBody({ paymentMethod: "sbp" }));
    expect(full.body.data).toMatchObject({ status: "in_progress" });
    const payout = await api.post("/host2host/payout", {
      ...payinBody({ amount: 1000 }),
      number: "2200700012345678",
      bankName: "Т-Банк",
    });
    expect(payout.body.data).toMatchObject({ typeOperation: "payOut", status: "created" });
    const prepared = await api.post("/paymentform/prepare", payinBody({ paymentMethod: undefined }));
    expect(prepared.body.data).toMatchObject({ status: "precreated" });

    await control(sandbox, "PATCH", "/merchants/other", { dialect: "spec" });
    const spec = await api.post("/host2host/payin", payinBody());
    expect(spec.body.data).toMatchObject({ status: "created" });
  });

  it("a merchant setting makes x-request-id the literal text `uuid` (nested dialect only)", async () => {
    const api = client(sandbox, "other");
    await control(sandbox, "PATCH", "/merchants/other", { literalRequestId: true });
    const nested = await api.get("/balance");
    expect(nested.body.result?.["x-request-id"]).toBe("uuid");
    await control(sandbox, "PATCH", "/merchants/other", { dialect: "spec" });
    const spec = await api.get("/balance");
    expect(spec.body.traceID).toMatch(/^[0-9a-f-]{36}$/);
    expect(await control(sandbox, "PATCH", "/merchants/other", { literalRequestId: "yes" })).toMatchObject({
      status: 400,
    });
  });

  it("nested dialect: the by-id read of a pay-in has no paymentDetailsData key; the list keeps it", async () => {
    const api = client(sandbox, "other");
    const created = await api.post("/host2host/payin", payinBody());
    const id = String(created.body.data?.id);
    expect(created.body.data && "paymentDetailsData" in created.body.data).toBe(true);
    for (const path of [`/operation/operation/platform/${id}`, `/operation/operation/platform/payin/${id}`]) {
      const read = await api.get(path);
      expect(read.body.data?.id).toBe(id);
      expect("paymentDetailsData" in (read.body.data ?? {})).toBe(false);
    }
    const listed = await api.post("/operation/operation/list", { skip: 0, take: 1 });
    expect(listed.body.data?.[0]?.paymentDetailsData).toMatchObject({ paymentMethod: "toCard" });
  });

  it("the internalError fault answers codeErrorExt internalError and applies nothing", async () => {
    const api = client(sandbox, "other");
    const before = await api.post("/operation/operation/list", { skip: 0, take: 1 });
    await control(sandbox, "PUT", "/faults", { internalErrorRate: 1 });
    const refused = await api.post("/host2host/payin", payinBody());
    expect(refused.httpStatus).toBe(200);
    expect(refused.body.result).toMatchObject({
      status: "warning",
      codeError: "internalError",
      codeErrorExt: "internalError",
    });
    expect(refused.body.data).toBeNull();
    await control(sandbox, "DELETE", "/faults");
    const after = await api.post("/operation/operation/list", { skip: 0, take: 1 });
    expect(after.body.totalNumberRecords).toBe(before.body.totalNumberRecords);
    await control(sandbox, "PATCH", "/merchants/other", { dialect: "spec" });
    await control(sandbox, "PUT", "/faults", { internalErrorRate: 1 });
    expect((await api.get("/balance")).body).toMatchObject({ status: "Warning", codeError: "internalError" });
  });

  it("the by-id read tolerates ?idPlatform=", async () => {
    const api = client(sandbox, "other");
    const created = await api.post("/host2host/payin", payinBody());
    const id = String(created.body.data?.id);
    const read = await api.get(`/operation/operation/platform/${id}?idPlatform=${id}`);
    expect(read.body.data?.id).toBe(id);
  });
});

describe("Paydesk against the variants", () => {
  let platform: PlatformClient;
  beforeAll(() => {
    platform = clientFor(sandbox, "other").platform;
  });

  function payIn(): Creation {
    return {
      kind: "payIn",
      request: {
        paymentMethod: "toCard",
        idTransactionMerchant: `pi-${randomUUID()}`,
        amount: "5000",
        ...CLIENT,
      },
    };
  }

  it("mirrors a pay-in created in_progress, keeps its details through a read without them, traceID `uuid` as text", async () => {
    await control(sandbox, "PATCH", "/merchants/other", { literalRequestId: true });
    const outcome = await createOnce(platform, payIn(), {}, { resendDelayMs: 5 });
    expect(outcome).toMatchObject({ status: "created", traceID: "uuid" });
    if (outcome.status !== "created") throw new Error("not created");
    const db = getDb();
    const mirrored = await db.operation.findUniqueOrThrow({ where: { id: outcome.operationId } });
    expect(mirrored.status).toBe("in_progress");
    expect(mirrored.paymentMethod).toBe("toCard");
    expect(mirrored.detailsNumber).not.toBeNull();

    await control(sandbox, "POST", `/operations/${outcome.operationId}/status`, { status: "success" });
    const refreshed = await refreshOperation(
      outcome.operationId,
      "00000000-0000-4000-8000-000000000001",
      platform,
    );
    expect(refreshed).toMatchObject({ ok: true, status: "success", traceID: "uuid" });
    const after = await db.operation.findUniqueOrThrow({ where: { id: outcome.operationId } });
    expect(after.paymentMethod).toBe("toCard");
    expect(after.detailsNumber).toBe(mirrored.detailsNumber);
  });

  it("internalError: a read is refused with the platform's code, a creation is not resent with a new id", async () => {
    await control(sandbox, "PUT", "/faults", { internalErrorRate: 1 });
    const read = await platform.getBalance().catch((error: unknown) => error);
    expect(isPlatformError(read) && read.codeError).toBe("internalError");
    const creation = payIn();
    const outcome = await createOnce(platform, creation, {}, { resendDelayMs: 5 });
    expect(outcome.status).not.toBe("created");
    await control(sandbox, "DELETE", "/faults");
    const found = await platform.getOperationsByMerchantIdDeprecated(creation.request.idTransactionMerchant);
    expect(found.operations).toHaveLength(0);
  });
});
