// Handing an approved pay-out to the worker (lib/payouts/hand-off.ts): the job queued, its key, the
// queue unreachable answered false, and the worker refusing a payload that is not a submission job.
import { beforeEach, describe, expect, it, test, vi } from "vitest";

const enqueued = vi.hoisted(() => ({ calls: [] as unknown[][], fail: false }));
vi.mock("@/lib/queue/enqueue", () => ({
  enqueueTask: async (...args: unknown[]) => {
    enqueued.calls.push(args);
    if (enqueued.fail) throw new Error("queue down");
    return "job-1";
  },
}));
const submitted = vi.hoisted(() => [] as unknown[][]);
vi.mock("@/lib/payouts/submit", () => ({
  submitPayout: async (...args: unknown[]) => {
    submitted.push(args);
    return { ok: true, status: "submitted" };
  },
}));

const { handOffSubmission, runSubmissionJob, submissionJobSchema } = await import("@/lib/payouts/hand-off");

const REQUEST = "00000000-0000-4000-8000-0000000000c1";
const ACTOR = "00000000-0000-4000-8000-0000000000c2";

beforeEach(() => {
  enqueued.calls.length = 0;
  enqueued.fail = false;
  submitted.length = 0;
});

describe("handOffSubmission", () => {
  it("queues one submitPayout job keyed by the request, in the approver's name", async () => {
    expect(await handOffSubmission(REQUEST, { id: ACTOR, email: "a@x.test", ip: "198.51.100.7" })).toBe(true);
    expect(enqueued.calls).toEqual([
      [
        "submitPayout",
        { payoutRequestId: REQUEST, actor: { id: ACTOR, email: "a@x.test", ip: "198.51.100.7" } },
        { singletonKey: REQUEST },
      ],
    ]);
  });

  it("no IP: null in the job", async () => {
    await handOffSubmission(REQUEST, { id: ACTOR, email: "a@x.test" });
    expect(enqueued.calls[0]?.[1]).toEqual({
      payoutRequestId: REQUEST,
      actor: { id: ACTOR, email: "a@x.test", ip: null },
    });
  });

  it("the queue unreachable: false, nothing thrown (the sweep sends it)", async () => {
    enqueued.fail = true;
    expect(await handOffSubmission(REQUEST, { id: ACTOR, email: "a@x.test" })).toBe(false);
  });
});

describe("runSubmissionJob", () => {
  it("runs the submission of the job's request in the job's actor's name", async () => {
    const platform = { marker: true };
    const job = { payoutRequestId: REQUEST, actor: { id: ACTOR, email: "a@x.test", ip: null } };
    expect(await runSubmissionJob(job, platform as never)).toEqual({ ok: true, status: "submitted" });
    expect(submitted).toEqual([[REQUEST, { id: ACTOR, email: "a@x.test", ip: null }, platform]]);
  });

  test.each([
    ["not an object", "x"],
    ["no request id", { actor: { id: null, email: null } }],
    ["a request id that is not a uuid", { payoutRequestId: "r1", actor: { id: null, email: null } }],
    ["no actor", { payoutRequestId: REQUEST }],
    ["an actor id that is not a uuid", { payoutRequestId: REQUEST, actor: { id: "u1", email: null } }],
    [
      "an email over 320 characters",
      { payoutRequestId: REQUEST, actor: { id: null, email: "e".repeat(321) } },
    ],
    [
      "an IP over 64 characters",
      { payoutRequestId: REQUEST, actor: { id: null, email: null, ip: "1".repeat(65) } },
    ],
  ])("refuses %s and submits nothing", async (_what, data) => {
    await expect(runSubmissionJob(data, {} as never)).rejects.toThrow();
    expect(submitted).toEqual([]);
  });

  it("the edges the schema accepts: a system actor (no id, no email), 320 and 64 characters", () => {
    expect(
      submissionJobSchema.safeParse({ payoutRequestId: REQUEST, actor: { id: null, email: null } }).success,
    ).toBe(true);
    expect(
      submissionJobSchema.safeParse({
        payoutRequestId: REQUEST,
        actor: { id: ACTOR, email: "e".repeat(320), ip: "1".repeat(64) },
      }).success,
    ).toBe(true);
  });
});
