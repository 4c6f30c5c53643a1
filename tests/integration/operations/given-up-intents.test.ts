// Creations Paydesk stopped resending (given-up intents): settled from the mirror once a webhook or a
// reconciliation brings their operation (a pay-out then settles as submitted), listed on the
// reconciliation page with what the mirror holds, and looked up on the platform when a person asks.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import { getDb } from "@/lib/db";
import type { CreationKind } from "@/lib/generated/prisma/enums";
import { getLog } from "@/lib/log";
import { applySnapshot } from "@/lib/operations/mirror/apply-snapshot";
import type { PlatformClient } from "@/lib/platform/client";
import { PlatformError } from "@/lib/platform/errors";
import { isolateDatabase } from "../../support/database";
import { createStaff } from "../../support/mirror";
import { snapshot } from "../../support/operations";
import { pageText, propsOf } from "../../support/page-text";
import { storedPayoutRequest } from "../../support/payouts";
import { clientFor, startSandbox } from "../../support/sandbox";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
const platformHolder = vi.hoisted(() => ({ current: null as unknown }));
const settling = vi.hoisted(() => ({ fails: false }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.44" }),
}));
vi.mock("@/lib/platform/from-env", () => ({ getPlatformClient: () => platformHolder.current }));
// What the minute job imports: made to fail on demand (the module's own look-up keeps the real one).
vi.mock("@/lib/operations/mirror/given-up-intents", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/operations/mirror/given-up-intents")>();
  return {
    ...real,
    settleGivenUpFromMirror: () =>
      settling.fails ? Promise.reject(new Error("database gone")) : real.settleGivenUpFromMirror(),
  };
});

const { jobHandlers } = await import("@/lib/jobs/handlers");
const { listGivenUpIntents, lookUpRateLimit, settleGivenUpFromMirror, LOOK_UPS_PER_MINUTE } =
  await import("@/lib/operations/mirror/given-up-intents");
const { lookUpGivenUpAction } = await import("@/lib/actions/reconcile");
const { UnansweredCreations } = await import("@/components/reconciliation/unanswered-creations");

let restore: () => Promise<void>;
let sandbox: Sandbox;
let platform: PlatformClient;
let finance: { id: string };
beforeAll(async () => {
  restore = await isolateDatabase();
  sandbox = await startSandbox({ seedDemoHistory: false });
  ({ platform } = clientFor(sandbox));
  platformHolder.current = platform;
  finance = await createStaff("finance");
});
afterAll(async () => {
  await sandbox.stop();
  await restore();
});
beforeEach(() => {
  session.current = { userId: finance.id, sessionVersion: 0 };
  lookUpRateLimit.reset();
});

const db = () => getDb();
const intent = (id: string) =>
  db().creationIntent.findUniqueOrThrow({ where: { idTransactionMerchant: id } });

const payInRequest = (id: string, amount = "100") => ({
  paymentMethod: "toCard",
  idTransactionMerchant: id,
  amount,
  clientID: `shop-client-${randomUUID().slice(0, 8)}`,
  clientIP: "85.143.12.7",
  clientDateCreated: "2023-04-01T00:00:00.000Z",
});

/** An intent stored as createOnce stores it, a day old and given up on (or still resent: `gaveUp` false). */
async function givenUp(kind: CreationKind, id: string, amount: string, gaveUp = true) {
  await db().creationIntent.create({
    data: {
      idTransactionMerchant: id,
      kind,
      request: payInRequest(id, amount),
      attempts: 12,
      lastMessage: "fetch failed",
      lastTraceID: `trace-${id}`,
      gaveUpAt: gaveUp ? new Date() : null,
      createdAt: new Date(Date.now() - 25 * 60 * 60_000),
    },
  });
  return id;
}

const mirror = (id: string, typeOperation: "payIn" | "payOut", amount: string) =>
  applySnapshot(snapshot({ idTransactionMerchant: id, typeOperation, amount }), "reconciliation");

describe("settled from the mirror", () => {
  it("a given-up pay-out whose operation a webhook brought is confirmed, and the pay-out is then submitted", async () => {
    const maker = await createStaff("finance");
    const row = await storedPayoutRequest(maker.id, { status: "submitting" });
    await givenUp("payOut", row.idTransactionMerchant, "1500.25");
    const operation = snapshot({
      idTransactionMerchant: row.idTransactionMerchant,
      typeOperation: "payOut",
      amount: "1500.25",
    });
    await applySnapshot(operation, "readBack");

    await jobHandlers(platform).pendingIntents();
    expect(await intent(row.idTransactionMerchant)).toMatchObject({
      state: "confirmed",
      operationId: operation.id,
      lastMessage: null,
    });
    await jobHandlers(platform).submittingPayouts();
    expect(await db().payoutRequest.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      status: "submitted",
      operationId: operation.id,
    });
    expect((await listGivenUpIntents()).rows.map((r) => r.idTransactionMerchant)).not.toContain(
      row.idTransactionMerchant,
    );
  });

  it("an operation of another type or amount, two operations with the id, or an intent not given up: not confirmed", async () => {
    const otherAmount = await givenUp("payIn", `pi-${randomUUID()}`, "100");
    await mirror(otherAmount, "payIn", "100.01");
    const otherType = await givenUp("formPrepare", `link-${randomUUID()}`, "250");
    await mirror(otherType, "payOut", "250");
    const twice = await givenUp("payIn", `pi-${randomUUID()}`, "300");
    await mirror(twice, "payIn", "300");
    await mirror(twice, "payIn", "300");
    // a caller may still be waiting for this one's answer: it is the one that confirms it
    const stillSent = await givenUp("payIn", `pi-${randomUUID()}`, "400", false);
    await mirror(stillSent, "payIn", "400");

    expect(await settleGivenUpFromMirror()).toEqual([]);
    for (const id of [otherAmount, otherType, twice, stillSent])
      expect(await intent(id)).toMatchObject({ state: "pending", operationId: null });

    const rows = (await listGivenUpIntents()).rows;
    expect(rows.find((r) => r.idTransactionMerchant === otherAmount)).toMatchObject({
      kind: "payIn",
      amount: "100",
      attempts: 12,
      lastTraceID: `trace-${otherAmount}`,
      mirrorDiffers: [{ typeOperation: "payIn", amountInitial: "100.01" }],
    });
    expect(rows.find((r) => r.idTransactionMerchant === otherType)?.mirrorDiffers).toMatchObject([
      { typeOperation: "payOut", amountInitial: "250" },
    ]);
    expect(rows.find((r) => r.idTransactionMerchant === twice)?.mirrorDiffers).toHaveLength(2);
    expect(rows.map((r) => r.idTransactionMerchant)).not.toContain(stillSent);
  });
});

describe("a person's look-up", () => {
  it("finds the operation on the platform, mirrors it and confirms the intent; audited", async () => {
    const id = await givenUp("payIn", `pi-${randomUUID()}`, "777.5");
    const created = await platform.createPayIn({ ...payInRequest(id, "777.5"), paymentMethod: "toCard" });
    expect(await db().operation.count({ where: { idTransactionMerchant: id } })).toBe(0);

    const result = await lookUpGivenUpAction({ idTransactionMerchant: id });
    expect(result).toMatchObject({ ok: true, outcome: "confirmed", operationId: created.operation.id });
    expect(await intent(id)).toMatchObject({ state: "confirmed", operationId: created.operation.id });
    expect(await db().operation.findUnique({ where: { id: created.operation.id } })).toMatchObject({
      idTransactionMerchant: id,
    });
    const entry = await db().auditLog.findFirstOrThrow({
      where: { action: "creation.lookUp", targetId: id },
    });
    expect(entry).toMatchObject({
      actorUserId: finance.id,
      after: { outcome: "confirmed", operationId: created.operation.id },
    });
    // settled: a second look-up is refused, nothing more is read
    expect(await lookUpGivenUpAction({ idTransactionMerchant: id })).toMatchObject({
      ok: false,
      code: "notGivenUp",
    });
  });

  it("an id the platform never created is told so and stays listed", async () => {
    const id = await givenUp("payIn", `pi-${randomUUID()}`, "12");
    expect(await lookUpGivenUpAction({ idTransactionMerchant: id })).toMatchObject({
      ok: true,
      outcome: "notFound",
      operationId: null,
      message: expect.stringContaining("no operation with this id"),
    });
    expect(await intent(id)).toMatchObject({ state: "pending", gaveUpAt: expect.any(Date) });
    expect(
      (await db().auditLog.findFirstOrThrow({ where: { action: "creation.lookUp", targetId: id } })).after,
    ).toEqual({ outcome: "notFound", operationId: null });
  });

  it("an operation on the platform of another amount is mirrored but not confirmed", async () => {
    const id = await givenUp("payIn", `pi-${randomUUID()}`, "50");
    await platform.createPayIn({ ...payInRequest(id, "51"), paymentMethod: "toCard" });
    expect(await lookUpGivenUpAction({ idTransactionMerchant: id })).toMatchObject({
      ok: true,
      outcome: "differs",
    });
    expect(await intent(id)).toMatchObject({ state: "pending" });
    const row = (await listGivenUpIntents()).rows.find((r) => r.idTransactionMerchant === id);
    expect(row?.mirrorDiffers).toMatchObject([{ typeOperation: "payIn", amountInitial: "51" }]);
  });

  it.each(["support", "approver"] as const)(
    "%s may not look up: refused, nothing read or audited",
    async (role) => {
      const id = await givenUp("payIn", `pi-${randomUUID()}`, "13");
      const user = await createStaff(role);
      session.current = { userId: user.id, sessionVersion: 0 };
      expect(await lookUpGivenUpAction({ idTransactionMerchant: id })).toMatchObject({
        ok: false,
        code: "forbidden",
      });
      expect(await db().auditLog.count({ where: { action: "creation.lookUp", targetId: id } })).toBe(0);
    },
  );

  it.each([
    ["a NUL byte", "pi-\u0000x"],
    ["a bidi override", "pi-\u202Ex"],
    ["nothing", ""],
    ["too long", "x".repeat(129)],
  ])("an id with %s is refused with a clear error; nothing is audited", async (_, id) => {
    const before = await db().auditLog.count({ where: { action: "creation.lookUp" } });
    const result = await lookUpGivenUpAction({ idTransactionMerchant: id });
    expect(result).toMatchObject({ ok: false, code: "invalid" });
    expect(
      result.ok === false && "fieldErrors" in result && result.fieldErrors.idTransactionMerchant,
    ).toEqual([expect.any(String)]);
    expect(await db().auditLog.count({ where: { action: "creation.lookUp" } })).toBe(before);
  });

  it("extra fields are refused", async () => {
    const id = await givenUp("payIn", `pi-${randomUUID()}`, "14");
    expect(await lookUpGivenUpAction({ idTransactionMerchant: id, state: "confirmed" })).toMatchObject({
      ok: false,
      code: "invalid",
    });
    expect(await intent(id)).toMatchObject({ state: "pending" });
  });

  it(`at most ${LOOK_UPS_PER_MINUTE} look-ups a minute per user`, async () => {
    const id = await givenUp("payIn", `pi-${randomUUID()}`, "15");
    for (let i = 0; i < LOOK_UPS_PER_MINUTE; i++)
      expect(await lookUpGivenUpAction({ idTransactionMerchant: id })).toMatchObject({ ok: true });
    expect(await lookUpGivenUpAction({ idTransactionMerchant: id })).toMatchObject({
      ok: false,
      code: "rate_limited",
    });
  });
});

describe("when things go wrong", () => {
  it("the minute job logs a failure to settle from the mirror and still checks the pending intents", async () => {
    const id = `pi-${randomUUID()}`;
    await db().creationIntent.create({
      data: { idTransactionMerchant: id, kind: "payIn", request: payInRequest(id, "21") },
    });
    await db()
      .$executeRaw`UPDATE "CreationIntent" SET "updatedAt" = now() - interval '5 minutes' WHERE "idTransactionMerchant" = ${id}`;
    const errors = vi.spyOn(getLog(), "error");
    settling.fails = true;
    try {
      expect(await jobHandlers(platform).pendingIntents()).toBeGreaterThanOrEqual(1);
      expect(errors).toHaveBeenCalledWith(
        { err: expect.objectContaining({ message: "database gone" }) },
        "given-up creation intents could not be settled from the mirror",
      );
    } finally {
      settling.fails = false;
      errors.mockRestore();
    }
    expect(await intent(id)).toMatchObject({ state: "confirmed" });
  });

  it("a look-up the platform does not answer is told so, and audited", async () => {
    const id = await givenUp("payIn", `pi-${randomUUID()}`, "22");
    const down = Object.create(platform) as PlatformClient;
    down.listOperations = () =>
      Promise.reject(
        new PlatformError({ kind: "transport", method: "POST", path: "/list", description: "down" }),
      );
    platformHolder.current = down;
    try {
      expect(await lookUpGivenUpAction({ idTransactionMerchant: id })).toMatchObject({
        ok: false,
        code: "unavailable",
      });
    } finally {
      platformHolder.current = platform;
    }
    expect(
      (await db().auditLog.findFirstOrThrow({ where: { action: "creation.lookUp", targetId: id } })).after,
    ).toEqual({ outcome: "unavailable", operationId: null });
  });

  it("an operation of this type and amount that cannot be confirmed (the id twice) is told apart from one that differs", async () => {
    const id = await givenUp("payIn", `pi-${randomUUID()}`, "23");
    await mirror(id, "payIn", "23"); // already mirrored under another operation id
    const created = await platform.createPayIn({ ...payInRequest(id, "23"), paymentMethod: "toCard" });
    expect(await lookUpGivenUpAction({ idTransactionMerchant: id })).toMatchObject({
      ok: true,
      outcome: "notConfirmed",
      operationId: created.operation.id,
      message: expect.stringContaining("another operation or creation in Paydesk has the same id"),
    });
    expect(await intent(id)).toMatchObject({ state: "pending" });
  });
});

describe("the reconciliation page", () => {
  it("lists them in both languages, with the look-up only for those who may run one", async () => {
    const id = await givenUp("formPrepare", `link-${randomUUID()}`, "1234.5");
    const { default: Page } = await import("@/app/(console)/reconciliation/page");
    const tree = await Page({ searchParams: Promise.resolve({}) });
    const [props] = propsOf<Parameters<typeof UnansweredCreations>[0]>(tree, UnansweredCreations);
    expect(props?.mayLookUp).toBe(true);
    expect(props?.list.rows.map((r) => r.idTransactionMerchant)).toContain(id);

    const text = async (locale: "en" | "ru", mayLookUp: boolean) =>
      pageText(await UnansweredCreations({ ...props!, locale, when: (iso) => iso, mayLookUp })).join(" | ");
    const en = await text("en", true);
    expect(en).toContain("Creations the platform never answered");
    expect(en).toContain("payment link");
    expect(en).toContain("1,234.5");
    expect(en).toContain("Look-up");
    const ru = await text("ru", false);
    expect(ru).toContain("Создания без ответа платформы");
    expect(ru).toContain("платёжная ссылка");
    expect(ru).toContain("1\u00A0234,5");
    expect(ru).not.toContain("Проверка");
  });
});
