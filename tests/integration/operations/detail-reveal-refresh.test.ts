import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { applySnapshot } from "@/lib/operations/mirror/apply-snapshot";
import { getOperationDetail } from "@/lib/operations/detail/operation-detail";
import { refreshOperation } from "@/lib/operations/mirror/refresh";
import { PlatformError } from "@/lib/platform/errors";
import { snapshot } from "../../support/operations";
import { createStaff } from "../../support/mirror";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));

const id = randomUUID();
const merchantId = `detail-${randomUUID()}`;
const readTrace = randomUUID();

beforeAll(async () => {
  await applySnapshot(
    snapshot({
      id,
      idTransactionMerchant: merchantId,
      status: "created",
      dateAdded: "2006-01-01T10:00:00.000Z",
    }),
    "creation",
    { sourceRef: "trace-create" },
  );
  await applySnapshot(
    snapshot({
      id,
      idTransactionMerchant: merchantId,
      status: "in_progress",
      dateAdded: "2006-01-01T10:00:00.000Z",
      dateUpdated: "2006-01-01T10:02:00.000Z",
    }),
    "webhook",
    { sourceRef: "webhook:1" },
  );
  const db = getDb();
  await db.webhookDelivery.createMany({
    data: [
      {
        headers: {},
        body: "{}",
        bodyBytes: 2,
        operationId: id,
        operationStatus: "in_progress",
        outcome: "applied",
      },
      {
        headers: {},
        body: "{}",
        bodyBytes: 2,
        operationId: id,
        operationStatus: "in_progress",
        outcome: "duplicate",
      },
    ],
  });
  await db.apiCall.create({
    data: {
      method: "POST",
      path: "/host2host/payin",
      traceID: "trace-create",
      latencyMs: 40,
      idTransactionMerchant: merchantId,
      requestBody: '{"amount":1500.5}',
    },
  });
});

describe("operation detail", () => {
  it("has amounts as strings in both currencies, the timeline with sources, webhooks and API calls", async () => {
    const d = await getOperationDetail(id, new Date("2006-01-01T10:05:00.000Z"));
    expect(d).not.toBeNull();
    expect(d).toMatchObject({
      amount: "1500.5",
      amountComission: "45.015",
      amountInCurrencyBalance: "15.7",
      amountComissionInCurrencyBalance: "0.4714",
      exchangeRate: "95.5",
      currency: "RUB",
      numberMasked: "************0001",
    });
    expect(d!.timeline.map((t) => [t.status, t.source, t.durationMs])).toEqual([
      ["created", "creation", 120_000],
      ["in_progress", "webhook", 180_000],
    ]);
    expect(d!.webhooks.map((w) => w.outcome)).toEqual(["applied", "duplicate"]);
    expect(d!.apiCalls.map((c) => c.traceID)).toContain("trace-create");
    const text = JSON.stringify(d);
    expect(text).not.toContain("4276000000000001");
  });
});

describe("revealing a recipient number", () => {
  it("shows the number to finance and writes an audit entry", async () => {
    const finance = await createStaff("finance");
    session.current = { userId: finance.id, sessionVersion: 0 };
    const { revealRecipientNumberAction } = await import("@/lib/actions/operations");
    expect(await revealRecipientNumberAction({ id })).toEqual({ ok: true, number: "4276000000000001" });
    const entries = await getDb().auditLog.findMany({
      where: { actorUserId: finance.id, action: "recipient.reveal" },
    });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ targetType: "operation", targetId: id, actorEmail: finance.email });
  });

  it("refuses support and audits nothing", async () => {
    const support = await createStaff("support");
    session.current = { userId: support.id, sessionVersion: 0 };
    const { revealRecipientNumberAction } = await import("@/lib/actions/operations");
    expect(await revealRecipientNumberAction({ id })).toMatchObject({ ok: false, code: "forbidden" });
    expect(await getDb().auditLog.count({ where: { actorUserId: support.id } })).toBe(0);
  });

  it("rejects input that is not an operation id", async () => {
    const finance = await createStaff("finance");
    session.current = { userId: finance.id, sessionVersion: 0 };
    const { revealRecipientNumberAction } = await import("@/lib/actions/operations");
    expect(await revealRecipientNumberAction({ id: "x" })).toMatchObject({ ok: false, code: "invalid" });
  });
});

describe("refresh from platform", () => {
  it("applies the read-back as a manual refresh with its traceID", async () => {
    const user = await createStaff("support");
    const calls: unknown[] = [];
    const platform = {
      getOperation: async (opId: string, context?: { actorUserId?: string }) => {
        calls.push([opId, context?.actorUserId]);
        return {
          operation: snapshot({
            id,
            idTransactionMerchant: merchantId,
            status: "success",
            dateAdded: "2006-01-01T10:00:00.000Z",
            dateUpdated: "2006-01-01T10:09:00.000Z",
          }),
          traceID: readTrace,
        };
      },
    };
    expect(await refreshOperation(id, user.id, platform)).toEqual({
      ok: true,
      outcome: "updated",
      status: "success",
      traceID: readTrace,
    });
    expect(calls).toEqual([[id, user.id]]);
    const last = await getDb().operationStatusChange.findFirst({
      where: { operationId: id },
      orderBy: { id: "desc" },
    });
    expect(last).toMatchObject({ toStatus: "success", source: "manualRefresh", sourceRef: readTrace });
  });

  it("reports an unknown operation and a platform failure with typed codes", async () => {
    const user = await createStaff("support");
    expect(
      await refreshOperation(id, user.id, {
        getOperation: async () => ({ operation: null, traceID: "t-1" }),
      }),
    ).toMatchObject({
      ok: false,
      code: "not_found",
      missingFrom: "platform",
      traceID: "t-1",
    });
    const failing = {
      getOperation: async () => {
        throw new PlatformError({
          kind: "timeout",
          method: "GET",
          path: "/x",
          description: "slow",
          traceID: "t-2",
        });
      },
    };
    expect(await refreshOperation(id, user.id, failing)).toMatchObject({
      ok: false,
      code: "platform_error",
      traceID: "t-2",
    });
  });
});

describe("refresh from platform: what each click may cost", () => {
  const holder = globalThis as { paydeskPlatform?: unknown };
  let reads = 0;
  const countingPlatform = {
    getOperation: async () => {
      reads += 1;
      return { operation: null, traceID: "t-count" };
    },
  };
  afterEach(() => {
    holder.paydeskPlatform = undefined;
    vi.useRealTimers();
  });

  it("answers an id that is not in the mirror without calling the platform", async () => {
    const support = await createStaff("support");
    session.current = { userId: support.id, sessionVersion: 0 };
    holder.paydeskPlatform = countingPlatform;
    reads = 0;
    const { refreshOperationAction } = await import("@/lib/actions/operations");
    expect(await refreshOperationAction({ id: randomUUID() })).toMatchObject({
      ok: false,
      code: "not_found",
      message: "Paydesk has no operation with this id, so it was not read from the platform.",
    });
    expect(reads).toBe(0);
  });

  it("reads at most 30 times a minute per user, then refuses in words until the next minute", async () => {
    const now = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now - (now % 60_000) + 30_000);
    const [support, other] = [await createStaff("support"), await createStaff("support")];
    holder.paydeskPlatform = countingPlatform;
    reads = 0;
    const { refreshOperationAction } = await import("@/lib/actions/operations");
    session.current = { userId: support.id, sessionVersion: 0 };
    for (let i = 0; i < 30; i++) {
      expect(await refreshOperationAction({ id })).toMatchObject({ code: "not_found", traceID: "t-count" });
    }
    expect(await refreshOperationAction({ id })).toEqual({
      ok: false,
      code: "rate_limited",
      message: "At most 30 refreshes a minute; wait a minute and try again.",
    });
    expect(reads).toBe(30);

    session.current = { userId: other.id, sessionVersion: 0 };
    expect(await refreshOperationAction({ id })).toMatchObject({ code: "not_found", traceID: "t-count" });
    vi.setSystemTime(Date.now() + 60_000);
    session.current = { userId: support.id, sessionVersion: 0 };
    expect(await refreshOperationAction({ id })).toMatchObject({ code: "not_found", traceID: "t-count" });
    expect(reads).toBe(32);
  });
});
