// A pay-out whose creation the platform answers with its generic internalError (either dialect), against
// the in-process sandbox: the request stays submitting (the operation may exist), never failed_to_submit
// with "the token"; the pending intent, resent later with the same id, creates exactly one operation.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import { getDb } from "@/lib/db";
import { resolvePendingIntent } from "@/lib/operations/mirror/create-once";
import type { PlatformClient } from "@/lib/platform/client";
import { submitPayout, syncSubmittingPayouts } from "@/lib/payouts/submit";
import { isolateDatabase } from "../../support/database";
import { payoutActor, storedPayoutRequest } from "../../support/payouts";
import { clientFor, control, startSandbox } from "../../support/sandbox";

let restore: () => Promise<void>;
let sandbox: Sandbox;
let platform: PlatformClient;
let maker: Awaited<ReturnType<typeof payoutActor>>;

beforeAll(async () => {
  restore = await isolateDatabase();
  sandbox = await startSandbox({ seedDemoHistory: false });
  platform = clientFor(sandbox).platform;
  await control(sandbox, "POST", "/merchants/demo/balance", { amount: "1000000" });
  maker = await payoutActor("finance");
});
afterAll(async () => {
  await sandbox.stop();
  await restore();
});
beforeEach(() => control(sandbox, "DELETE", "/faults"));

describe.each(["spec", "nested"] as const)("%s dialect", (dialect) => {
  beforeEach(() => control(sandbox, "PATCH", "/merchants/demo", { dialect }));

  it("internalError on the creation: submitting, then created once by the resend", async () => {
    const row = await storedPayoutRequest(maker.id, { status: "approved" });
    await control(sandbox, "PUT", "/faults", { internalErrorRate: 1 });
    const result = await submitPayout(row.id, maker, platform);
    expect(result).toMatchObject({ ok: true, status: "submitting" });
    const db = getDb();
    expect(await db.payoutRequest.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      status: "submitting",
    });
    expect(
      await db.creationIntent.findUniqueOrThrow({
        where: { idTransactionMerchant: row.idTransactionMerchant },
      }),
    ).toMatchObject({ state: "pending", lastCodeError: "internalError" });

    await control(sandbox, "DELETE", "/faults");
    expect(await resolvePendingIntent(platform, row.idTransactionMerchant)).toMatchObject({
      status: "created",
    });
    await syncSubmittingPayouts(platform);
    expect(await db.payoutRequest.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      status: "submitted",
    });
    const { operations } = await platform.getOperationsByMerchantIdDeprecated(row.idTransactionMerchant);
    expect(operations).toHaveLength(1);
  });
});
