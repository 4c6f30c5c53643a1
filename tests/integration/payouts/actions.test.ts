// The pay-out server actions and pages as each role sees them (session mocked), bad input through the
// actions, and the whole maker-checker flow through the actions against the sandbox.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, test, vi } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import { roles, type Role } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db";
import type { InMemoryRecorder } from "../../support/in-memory-recorder";
import type { PlatformClient } from "@/lib/platform/client";
import { runSubmissionJob } from "@/lib/payouts/hand-off";
import { freshCard } from "../../support/cards";
import { createStaff } from "../../support/mirror";
import { clientFor, control, startSandbox } from "../../support/sandbox";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
// The request's language: the user's choice, else this header (none here: DEFAULT_LOCALE, en in tests).
const acceptLanguage = vi.hoisted(() => ({ current: null as string | null }));
vi.mock("next/headers", () => ({
  headers: async () =>
    new Headers(acceptLanguage.current ? { "accept-language": acceptLanguage.current } : {}),
}));
// Approving hands the submission to the worker's queue: recorded here and run as the worker would.
const queued = vi.hoisted(() => [] as unknown[]);
vi.mock("@/lib/queue/enqueue", () => ({
  enqueueTask: async (_name: string, data: unknown) => {
    queued.push(data);
    return "job";
  },
}));

let sandbox: Sandbox;
let platform: PlatformClient;
let recorder: InMemoryRecorder;
const db = getDb();
const users = {} as Record<Role, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ seedDemoHistory: false });
  const client = clientFor(sandbox);
  recorder = client.recorder;
  platform = client.platform;
  (globalThis as { paydeskPlatform?: unknown }).paydeskPlatform = client.platform;
  await control(sandbox, "POST", "/merchants/demo/balance", { amount: "1000000" });
  for (const role of roles) users[role] = (await createStaff(role)).id;
});
afterAll(() => sandbox.stop());
beforeEach(() => recorder.clear());

function signInAs(role: Role | null) {
  session.current = role ? { userId: users[role], sessionVersion: 0 } : null;
}

function validInput(overrides: Record<string, unknown> = {}) {
  return {
    paymentMethod: "toCard",
    bankName: "Сбербанк",
    recipientNumber: freshCard(),
    recipientName: "Ivan Petrov",
    // unique per test so that the duplicate guard never sees another test's request
    amount: `${Math.floor(1000 + Math.random() * 8000)}.${Math.floor(Math.random() * 9000 + 1000)}`,
    clientID: `client-${randomUUID()}`,
    clientIP: "85.143.12.7",
    clientDateCreated: "2023-04-17",
    webhookUrl: "",
    ...overrides,
  };
}

const actions = () => import("@/lib/actions/payouts");
const payoutCalls = () => recorder.calls.filter((c) => c.path.includes("/host2host/payout"));
const requestsBy = (role: Role) => db.payoutRequest.count({ where: { makerId: users[role] } });

describe("support (and anyone without the permission) is refused and nothing happens", () => {
  it("every pay-out action answers forbidden to support, creates nothing and calls nothing", async () => {
    const a = await actions();
    const existing = await db.payoutRequest.findFirst({ select: { id: true } });
    const id = existing?.id ?? randomUUID();
    signInAs("support");
    const before = await db.payoutRequest.count();
    const results = await Promise.all([
      a.reviewPayoutAction(validInput()),
      a.createPayoutRequestAction(validInput()),
      a.approvePayoutAction({ id, comment: "ok" }),
      a.rejectPayoutAction({ id, comment: "no" }),
      a.cancelPayoutAction({ id }),
      a.submitPayoutAction({ id }),
    ]);
    for (const r of results) expect(r).toMatchObject({ ok: false, code: "forbidden" });
    expect(await requestsBy("support")).toBe(0);
    expect(await db.payoutApproval.count({ where: { approverId: users.support } })).toBe(0);
    expect(await db.payoutRequest.count()).toBeGreaterThanOrEqual(before);
    expect(recorder.calls).toHaveLength(0);
  });

  it("signed out: unauthenticated", async () => {
    const a = await actions();
    signInAs(null);
    expect(await a.createPayoutRequestAction(validInput())).toMatchObject({
      ok: false,
      code: "unauthenticated",
    });
  });

  it("an approver cannot create; a finance user cannot approve", async () => {
    const a = await actions();
    signInAs("approver");
    expect(await a.createPayoutRequestAction(validInput())).toMatchObject({ ok: false, code: "forbidden" });
    signInAs("finance");
    expect(await a.approvePayoutAction({ id: randomUUID(), comment: "ok" })).toMatchObject({
      ok: false,
      code: "forbidden",
    });
    expect(await requestsBy("approver")).toBe(0);
  });

  const pages: Array<[string, () => Promise<unknown>]> = [
    [
      "/payouts",
      async () =>
        (await import("@/app/(console)/payouts/page")).default({ searchParams: Promise.resolve({}) }),
    ],
    ["/payouts/new", async () => (await import("@/app/(console)/payouts/new/page")).default()],
    [
      "/payouts/[id]",
      async () =>
        (await import("@/app/(console)/payouts/[id]/page")).default({
          params: Promise.resolve({ id: randomUUID() }),
        }),
    ],
  ];
  test.each(pages)("support cannot reach %s (redirect to /forbidden)", async (_name, render) => {
    signInAs("support");
    const error = await render().then(
      () => null,
      (e: unknown) => e,
    );
    expect(String((error as { digest?: string } | null)?.digest ?? "")).toContain("/forbidden");
  });
});

const MB = "x".repeat(1024 * 1024);

describe("bad input through the create action: a clear message, nothing created, nothing sent", () => {
  test.each([
    ["amount", "5 decimals", "12.34567", /At most 4 digits/],
    ["amount", "1e3", "1e3", /without an exponent/],
    ["amount", "negative", "-5", /greater than zero/],
    ["amount", "empty", "", /Enter the amount/],
    ["amount", "a number instead of text", 1000, /must be text/],
    ["recipientNumber", "Luhn-invalid card", "2200700012345670", /Luhn/],
    ["bankName", "unknown bank", "Bank of Nowhere", /not in the platform's bank directory/],
    ["bankName", "legacy synonym (not canonical)", "Сбербанк России", /not in the platform's bank directory/],
    ["recipientName", "null recipient name", null, /cannot be null/],
    ["recipientName", "a 1 MB field", MB, /too long/],
    ["clientID", "dummy client id", "test", /placeholder/],
    ["clientIP", "dummy IP", "0.0.0.0", /not a real address/],
    ["clientDateCreated", "future registration", "2999-01-01", /in the future/],
    ["paymentMethod", "pay-in method", "ecom", /not available for pay-outs/],
    ["paymentMethod", "wrong type", { method: "toCard" }, /must be text/],
    ["webhookUrl", "not a URL", "javascript:alert(1)", /http\(s\) URL/],
  ])("%s: %s", async (field, _case, value, message) => {
    const a = await actions();
    signInAs("finance");
    const before = await requestsBy("finance");
    for (const action of [a.reviewPayoutAction, a.createPayoutRequestAction]) {
      const r = (await action(validInput({ [field]: value }))) as {
        ok: boolean;
        code: string;
        message: string;
        fieldErrors: Record<string, string[]>;
      };
      expect(r).toMatchObject({ ok: false, code: "invalid", message: "Check the highlighted fields." });
      expect(r.fieldErrors[field]?.join(" ")).toMatch(message);
    }
    expect(await requestsBy("finance")).toBe(before);
    expect(payoutCalls()).toHaveLength(0);
  });

  test.each([
    ["null", null],
    ["a string", "amount=5"],
    ["an array", [1, 2]],
  ])("the whole input is %s", async (_case, input) => {
    const a = await actions();
    signInAs("finance");
    expect(await a.createPayoutRequestAction(input)).toMatchObject({ ok: false, code: "invalid" });
    expect(await a.approvePayoutAction(input)).toMatchObject({ ok: false, code: "forbidden" });
    signInAs("approver");
    expect(await a.approvePayoutAction(input)).toMatchObject({ ok: false, code: "invalid" });
    expect(await a.approvePayoutAction({ id: "not-a-uuid", comment: "x" })).toMatchObject({
      ok: false,
      code: "invalid",
      fieldErrors: { id: ["Not a pay-out request id."] },
    });
    expect(payoutCalls()).toHaveLength(0);
  });
});

describe("the flow through the actions", () => {
  it("finance reviews (FormData), creates (twice: one request), an approver approves: one platform operation", async () => {
    const a = await actions();
    signInAs("finance");
    const requestsBefore = await requestsBy("finance");
    const input = validInput();
    const formData = new FormData();
    for (const [k, v] of Object.entries(input)) formData.set(k, String(v));
    const reviewed = await a.reviewPayoutAction(formData);
    if (!("review" in reviewed)) throw new Error(`review failed: ${JSON.stringify(reviewed)}`);
    const { review } = reviewed;
    expect(review.form.idTransactionMerchant).toMatch(/^po-/);
    expect(review.form.recipientNumber).toBe(input.recipientNumber);
    expect(review.balance ?? review.balanceProblem).toBeTruthy();
    expect(await requestsBy("finance")).toBe(requestsBefore); // a review creates nothing
    expect(payoutCalls()).toHaveLength(0);

    const confirm = { ...input, idTransactionMerchant: review.form.idTransactionMerchant };
    const [first, second] = await Promise.all([
      a.createPayoutRequestAction(confirm),
      a.createPayoutRequestAction(confirm),
    ]);
    if (!("id" in first) || !("id" in second)) throw new Error(JSON.stringify([first, second]));
    expect(second.id).toBe(first.id);
    expect(first.idTransactionMerchant).toBe(review.form.idTransactionMerchant);

    signInAs("approver");
    const approved = await a.approvePayoutAction({ id: first.id, comment: "matches invoice 17" });
    if (first.status === "awaiting_approval") {
      expect(approved).toMatchObject({ ok: true, status: "approved", queued: true });
    }
    expect(payoutCalls()).toHaveLength(0); // approving does not wait for the platform
    for (const job of queued.splice(0)) await runSubmissionJob(job, platform);
    const row = await db.payoutRequest.findUniqueOrThrow({ where: { id: first.id } });
    expect(row.status).toBe("submitted");
    expect(payoutCalls()).toHaveLength(1);
    const audits = await db.auditLog.findMany({ where: { targetId: first.id } });
    expect(audits.map((e) => e.actorUserId)).toContain(users.approver);
  });

  it("an admin maker cannot approve their own request through the action", async () => {
    const a = await actions();
    signInAs("admin");
    const created = await a.createPayoutRequestAction(validInput());
    if (!("id" in created)) throw new Error(JSON.stringify(created));
    if (created.status !== "awaiting_approval") return; // auto-approved by a threshold set elsewhere
    expect(await a.approvePayoutAction({ id: created.id, comment: "mine" })).toMatchObject({
      ok: false,
      code: "own_request",
    });
    expect(await a.cancelPayoutAction({ id: created.id })).toEqual({ ok: true, status: "cancelled" });
  });
});
