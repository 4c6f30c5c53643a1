// Audit of pay-outs, F4: a platform refusal whose text holds U+0000 was written to the request as it
// came, PostgreSQL refused the write and the request stayed submitting for good (not cancellable, sent
// again every minute). submit.ts now makes the platform's text storable (lib/storable-text.ts) before
// any write. createOnce is replaced here so that only submit.ts's writes are under test (it stores the
// intent itself: lib/operations/mirror/create-once.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import type { CreationOutcome } from "@/lib/operations/mirror/create-once";
import { submitPayout, type SubmitPlatform } from "@/lib/payouts/submit";
import { isolateDatabase } from "../../support/database";
import { createStaff } from "../../support/mirror";
import { auditTrail, storedPayoutRequest } from "../../support/payouts";

const next = vi.hoisted(() => ({ outcome: null as unknown }));
vi.mock("@/lib/operations/mirror/create-once", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/operations/mirror/create-once")>()),
  createOnce: async () => next.outcome,
}));

const platform = {} as SubmitPlatform;
let restore: () => Promise<void>;
let maker = { id: "", email: "" };

beforeAll(async () => {
  restore = await isolateDatabase();
  const m = await createStaff("finance");
  maker = { id: m.id, email: m.email };
});
afterAll(async () => {
  await restore();
});
beforeEach(() => {
  next.outcome = null;
});

const stored = (id: string) =>
  getDb().payoutRequest.findUniqueOrThrow({
    where: { id },
    select: { status: true, lastCodeError: true, lastMessage: true, lastTraceID: true },
  });

describe("the platform's text with characters the database cannot store", () => {
  it("a refusal with U+0000 and a lone surrogate: failed to submit like any refusal, the text kept with U+FFFD", async () => {
    const row = await storedPayoutRequest(maker.id, { status: "approved" });
    next.outcome = {
      status: "rejected",
      codeError: "invalid\u0000Parameters",
      message: "Field 'nameMediator' is invalid: \u0000 \ud800",
      traceID: "trace-\u0000",
    } satisfies CreationOutcome;
    expect(await submitPayout(row.id, maker, platform)).toMatchObject({
      ok: false,
      code: "failed_to_submit",
    });
    expect(await stored(row.id)).toEqual({
      status: "failed_to_submit",
      lastCodeError: "invalid\uFFFDParameters",
      lastMessage: "Field 'nameMediator' is invalid: \uFFFD \uFFFD",
      lastTraceID: "trace-\uFFFD",
    });
    expect((await auditTrail(row.id)).at(-1)).toMatchObject({
      action: "payout.failed_to_submit",
      after: { status: "failed_to_submit", codeError: "invalid\uFFFDParameters", traceID: "trace-\uFFFD" },
    });
  });

  it("a lost answer whose text holds U+0000: still submitting, the note stored", async () => {
    const row = await storedPayoutRequest(maker.id, { status: "approved" });
    next.outcome = {
      status: "pending",
      message: "The platform's answer was lost (bad \u0000 byte); it will be checked again.",
      traceID: "trace-\u0000",
    } satisfies CreationOutcome;
    expect(await submitPayout(row.id, maker, platform)).toMatchObject({ ok: true, status: "submitting" });
    expect(await stored(row.id)).toMatchObject({
      status: "submitting",
      lastMessage: "The platform's answer was lost (bad \uFFFD byte); it will be checked again.",
      lastTraceID: "trace-\uFFFD",
    });
  });
});
