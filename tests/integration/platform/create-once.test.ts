import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import { getDb } from "@/lib/db";
import {
  createOnce,
  IdempotencyConflictError,
  resolvePendingIntent,
  type Creation,
} from "@/lib/operations/mirror/create-once";
import type { PlatformClient } from "@/lib/platform/client";
import { clientFor, control, startSandbox } from "../../support/sandbox";
import { payoutCreation } from "../../support/scripted-platform";

let sandbox: Sandbox;
let platform: PlatformClient;
const db = getDb();

beforeAll(async () => {
  sandbox = await startSandbox({ seedDemoHistory: false });
  platform = clientFor(sandbox).platform;
  await control(sandbox, "POST", "/merchants/demo/balance", { amount: "100000" });
});
afterAll(() => sandbox.stop());
beforeEach(() => control(sandbox, "DELETE", "/faults"));

async function platformCount(idTransactionMerchant: string): Promise<number> {
  const { operations } = await platform.getOperationsByMerchantIdDeprecated(idTransactionMerchant);
  return operations.length;
}

describe("exactly-once creation (spec: Errors › duplicateIdentifier)", () => {
  it("stores the intent, creates the operation and mirrors it with the creation's traceID", async () => {
    const creation = payoutCreation();
    const outcome = await createOnce(platform, creation, {}, { resendDelayMs: 5 });
    expect(outcome.status).toBe("created");
    const intent = await db.creationIntent.findUniqueOrThrow({
      where: { idTransactionMerchant: creation.request.idTransactionMerchant },
    });
    expect(intent).toMatchObject({ state: "confirmed", attempts: 1 });
    const mirrored = await db.operation.findUniqueOrThrow({ where: { id: intent.operationId! } });
    expect(mirrored).toMatchObject({
      status: "created",
      typeOperation: "payOut",
      paymentMethod: "toCard",
      lastSource: "creation",
    });
    expect(mirrored.amount.toFixed()).toBe("1500.25");
    expect(await platformCount(creation.request.idTransactionMerchant)).toBe(1);
  });

  it("a lost response (commit then drop) is resolved by resending the same id and finding the operation", async () => {
    await control(sandbox, "PUT", "/faults", { commitThenDropRate: 1 });
    const creation = payoutCreation();
    const first = await createOnce(platform, creation, {}, { resendDelayMs: 5 });
    await control(sandbox, "DELETE", "/faults");
    // every send was committed and dropped: still exactly one platform operation
    expect(await platformCount(creation.request.idTransactionMerchant)).toBe(1);
    const outcome =
      first.status === "created"
        ? first
        : await resolvePendingIntent(platform, creation.request.idTransactionMerchant);
    expect(outcome.status).toBe("created");
    expect(await platformCount(creation.request.idTransactionMerchant)).toBe(1);
    const intent = await db.creationIntent.findUniqueOrThrow({
      where: { idTransactionMerchant: creation.request.idTransactionMerchant },
    });
    expect(intent.state).toBe("confirmed");
    expect(intent.attempts).toBeGreaterThanOrEqual(2);
  });

  it("double clicks and concurrent retries give one platform operation", async () => {
    const creation = payoutCreation();
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => createOnce(platform, creation, {}, { resendDelayMs: 5 })),
    );
    expect(outcomes.every((o) => o.status === "created")).toBe(true);
    expect(new Set(outcomes.map((o) => (o.status === "created" ? o.operationId : null))).size).toBe(1);
    expect(await platformCount(creation.request.idTransactionMerchant)).toBe(1);
  });

  it("a business error is final: the intent is rejected, nothing is created, nothing is resent", async () => {
    const creation = payoutCreation("99999999");
    const outcome = await createOnce(platform, creation, {}, { resendDelayMs: 5 });
    expect(outcome).toMatchObject({ status: "rejected", codeError: "notEnoughMoneyOnBalance" });
    expect(await platformCount(creation.request.idTransactionMerchant)).toBe(0);
    const again = await createOnce(platform, creation, {}, { resendDelayMs: 5 });
    expect(again).toMatchObject({ status: "rejected", codeError: "notEnoughMoneyOnBalance" });
    const intent = await db.creationIntent.findUniqueOrThrow({
      where: { idTransactionMerchant: creation.request.idTransactionMerchant },
    });
    expect(intent.attempts).toBe(1);
  });

  it("refuses to reuse an idTransactionMerchant for a different request", async () => {
    const creation = payoutCreation();
    await createOnce(platform, creation, {}, { resendDelayMs: 5 });
    const changed = { ...creation, request: { ...creation.request, amount: "1.00" } } as Creation;
    await expect(createOnce(platform, changed)).rejects.toThrow(IdempotencyConflictError);
  });
});
