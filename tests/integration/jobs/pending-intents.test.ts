// The minute job `pendingIntents` (lib/jobs/handlers.ts) against the in-process sandbox, on a database of
// its own: an intent the request schema refuses (nothing can be sent) is settled as rejected, not checked
// again every minute; an intent whose check fails is logged and the intents after it are still checked.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import { getDb } from "@/lib/db";
import { getLog } from "@/lib/log";
import type { PlatformClient } from "@/lib/platform/client";
import { isolateDatabase } from "../../support/database";
import { clientFor, startSandbox } from "../../support/sandbox";

const { jobHandlers } = await import("@/lib/jobs/handlers");

let restore: () => Promise<void>;
let sandbox: Sandbox;
let platform: PlatformClient;
let recorder: ReturnType<typeof clientFor>["recorder"];
beforeAll(async () => {
  restore = await isolateDatabase();
  sandbox = await startSandbox({ seedDemoHistory: false });
  ({ platform, recorder } = clientFor(sandbox));
});
afterAll(async () => {
  await sandbox.stop();
  await restore();
});

/** A pay-in intent stored as createOnce stores it, old enough for the job to pick it up. */
async function pendingPayIn(clientIP = "85.143.12.7"): Promise<string> {
  const id = `payin-${randomUUID()}`;
  const db = getDb();
  await db.creationIntent.create({
    data: {
      idTransactionMerchant: id,
      kind: "payIn",
      request: {
        paymentMethod: "toCard",
        idTransactionMerchant: id,
        amount: "100",
        clientID: `shop-client-${randomUUID().slice(0, 8)}`,
        clientIP,
        clientDateCreated: "2023-04-01T00:00:00.000Z",
      },
    },
  });
  await db.$executeRaw`UPDATE "CreationIntent" SET "updatedAt" = now() - interval '5 minutes' WHERE "idTransactionMerchant" = ${id}`;
  return id;
}

const intent = (id: string) =>
  getDb().creationIntent.findUniqueOrThrow({ where: { idTransactionMerchant: id } });

it("an intent the request schema refuses is settled as rejected with its reason; nothing is sent", async () => {
  const refused = await pendingPayIn("85.143.12.07");
  const good = await pendingPayIn();
  recorder.clear();
  expect(await jobHandlers(platform).pendingIntents()).toBe(2);
  expect(await intent(refused)).toMatchObject({
    state: "rejected",
    lastCodeError: null,
    lastTraceID: null,
    lastMessage: expect.stringMatching(/refused before sending: clientIP/),
  });
  expect(recorder.calls.filter((c) => c.idTransactionMerchant === refused)).toHaveLength(0);
  expect(await intent(good)).toMatchObject({ state: "confirmed" });
  // settled: the next run does not pick it up again
  expect(await jobHandlers(platform).pendingIntents()).toBe(0);
});

it("an intent whose check fails is logged and left pending; the intents after it are still checked", async () => {
  const broken = await pendingPayIn();
  const good = await pendingPayIn();
  // a platform whose pay-in fails with a bug (not a platform error) for one id only
  const faulty = Object.create(platform) as PlatformClient;
  faulty.createPayIn = (request, context) =>
    request.idTransactionMerchant === broken
      ? Promise.reject(new TypeError("a bug in the client"))
      : platform.createPayIn(request, context);
  const errors = vi.spyOn(getLog(), "error");
  try {
    expect(await jobHandlers(faulty).pendingIntents()).toBe(2);
    expect(errors).toHaveBeenCalledWith(
      expect.objectContaining({ idTransactionMerchant: broken, err: expect.any(TypeError) }),
      "pending creation intent could not be checked",
    );
  } finally {
    errors.mockRestore();
  }
  expect(await intent(broken)).toMatchObject({ state: "pending" });
  expect(await intent(good)).toMatchObject({ state: "confirmed" });
});
