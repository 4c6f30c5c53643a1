// Audit finding: retention deletes platform call records (ApiCall) and webhook deliveries older than
// their retention (settings, 90 days by default, failed calls and refused webhooks longer), and the
// operation page then said "No API calls recorded." / "No webhooks received." for an old operation:
// false, and support may pass it on to the platform. When the operation is older than a record kind's
// retention (its dateAdded, firstSeenAt or oldest history entry before now minus those days), the empty
// list says such records are deleted after that many days, and a list that still has rows says it may
// be incomplete. A recent operation reads as before. A database of its own: the test sets retention.
import { randomUUID } from "node:crypto";
import { NextIntlClientProvider } from "next-intl";
import { createElement, type ComponentProps, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ApiCalls } from "@/components/operations/api-calls";
import { WebhookDeliveries } from "@/components/operations/webhook-deliveries";
import { getDb } from "@/lib/db";
import type { Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { getOperationDetail, type OperationDetail } from "@/lib/operations/detail/operation-detail";
import { forgetCachedSettings } from "@/lib/settings/settings";
import { isolateDatabase } from "../../support/database";
import { createStaff, insertOperations } from "../../support/mirror";
import { propsOf } from "../../support/page-text";
import { storedPayoutRequest } from "../../support/payouts";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.78" }),
}));

type ProviderProps = ComponentProps<typeof NextIntlClientProvider>;

const DAY = 24 * 60 * 60 * 1000;
// Real time: the page asks with the clock of the moment.
const now = new Date();
const daysAgo = (d: number) => new Date(now.getTime() - d * DAY);

const oldEmpty = randomUUID(); // 200 days old, every record pruned
const oldWithSome = randomUUID(); // 200 days old, a failed call and a refused webhook remain
const recent = randomUUID(); // 5 days old, nothing recorded
const seenLongAgo = randomUUID(); // dateAdded recent (as the platform says) but first seen 120 days ago
const historyOld = randomUUID(); // 40 days old, its oldest status change 40 days ago
const oldPayout = randomUUID(); // 200 days old, the operation of a pay-out request: nothing pruned
const oldDriftEarly = randomUUID(); // 200 days old, a drift item unresolved since it was 10 days old
const oldDriftLate = randomUUID(); // 200 days old, a drift item unresolved since 5 days ago

let restore: () => Promise<void>;

beforeAll(async () => {
  restore = await isolateDatabase();
  forgetCachedSettings();
  const db = getDb();
  await insertOperations([
    { id: oldEmpty, dateAdded: daysAgo(200) },
    { id: oldWithSome, dateAdded: daysAgo(200) },
    { id: recent, dateAdded: daysAgo(5) },
    { id: seenLongAgo, dateAdded: daysAgo(3) },
    { id: historyOld, dateAdded: daysAgo(20) },
    {
      id: oldPayout,
      dateAdded: daysAgo(200),
      typeOperation: "payOut",
      idTransactionMerchant: "po-old-payout",
    },
    { id: oldDriftEarly, dateAdded: daysAgo(200) },
    { id: oldDriftLate, dateAdded: daysAgo(200) },
  ]);
  await db.operation.updateMany({
    where: { id: { in: [oldEmpty, oldWithSome, oldPayout, oldDriftEarly, oldDriftLate] } },
    data: { firstSeenAt: daysAgo(200) },
  });
  await db.operation.updateMany({
    where: { id: { in: [recent, historyOld] } },
    data: { firstSeenAt: daysAgo(5) },
  });
  await db.operation.update({ where: { id: seenLongAgo }, data: { firstSeenAt: daysAgo(120) } });
  await db.operationStatusChange.create({
    data: { operationId: historyOld, toStatus: "created", source: "creation", recordedAt: daysAgo(40) },
  });
  await db.apiCall.create({
    data: {
      startedAt: daysAgo(199),
      method: "GET",
      path: `/operation/operation/platform/${oldWithSome}`,
      httpStatus: 502,
      error: "upstream 502",
      traceID: "trace-kept-failed",
      latencyMs: 5,
      operationId: oldWithSome,
    },
  });
  await db.webhookDelivery.create({
    data: {
      receivedAt: daysAgo(199),
      headers: {},
      body: "{}",
      bodyBytes: 2,
      operationId: oldWithSome,
      outcome: "rejected",
      processedAt: daysAgo(199),
    },
  });
});

afterAll(async () => {
  await restore();
});

async function detail(id: string): Promise<OperationDetail> {
  const d = await getOperationDetail(id, now);
  if (!d) throw new Error("not mirrored");
  return d;
}

function render(locale: Locale, element: ReactElement): string {
  return renderToStaticMarkup(
    createElement(
      NextIntlClientProvider,
      { locale, timeZone: "UTC", messages: messagesFor(locale) } as ProviderProps,
      element,
    ),
  ).replace(/<[^>]+>/g, " ");
}

const calls = (d: OperationDetail, locale: Locale = "en") =>
  render(locale, createElement(ApiCalls, { calls: d.apiCalls, tz: "UTC", retention: d.retention.apiCalls }));
const webhooks = (d: OperationDetail, locale: Locale = "en") =>
  render(
    locale,
    createElement(WebhookDeliveries, { webhooks: d.webhooks, tz: "UTC", retention: d.retention.webhooks }),
  );

describe("an operation older than the retention of its records", () => {
  it("knows each kind's retention from the settings and that its records may have been deleted", async () => {
    const d = await detail(oldEmpty);
    expect(d.retention).toEqual({
      apiCalls: { days: 90, longerDays: 365, mayBeIncomplete: true },
      webhooks: { days: 90, longerDays: 365, mayBeIncomplete: true },
    });
  });

  it("says the empty lists are empty because records older than 90 days are deleted, in both languages", async () => {
    const d = await detail(oldEmpty);
    const en = calls(d);
    expect(en).toContain("No API calls are stored for this operation.");
    expect(en).toContain("Call records older than 90 days are deleted (failed calls: older than 365 days)");
    expect(en).toContain("This does not mean no calls were made.");
    expect(en).not.toContain("No API calls recorded.");
    const enHooks = webhooks(d);
    expect(enHooks).toContain("No webhooks are stored for this operation.");
    expect(enHooks).toContain("Webhooks older than 90 days are deleted");
    expect(enHooks).toContain("This does not mean none were received.");
    expect(enHooks).not.toContain("No webhooks received.");

    const ru = calls(d, "ru");
    expect(ru).toContain("Для этой операции не сохранилось ни одного запроса к API.");
    expect(ru).toContain("Записи о запросах старше 90 дней удаляются (неудачные — старше 365 дней)");
    expect(ru).toContain("Это не значит, что запросов не было.");
    expect(ru).not.toContain("Запросов к API не записано.");
    const ruHooks = webhooks(d, "ru");
    expect(ruHooks).toContain("Для этой операции не сохранилось ни одного вебхука.");
    expect(ruHooks).toContain("Вебхуки старше 90 дней удаляются");
    expect(ruHooks).toContain("Это не значит, что вебхуков не было.");
    expect(ruHooks).not.toContain("Вебхуков не поступало.");
  });

  it("shows what remains and says the list may be incomplete", async () => {
    const d = await detail(oldWithSome);
    expect(d.apiCalls.map((c) => c.traceID)).toEqual(["trace-kept-failed"]);
    expect(d.webhooks).toHaveLength(1);
    const en = calls(d);
    expect(en).toContain("trace-kept-failed");
    expect(en).toContain("The list may be incomplete: call records older than 90 days are deleted");
    expect(webhooks(d)).toContain("The list may be incomplete: webhooks older than 90 days are deleted");
    expect(calls(d, "ru")).toContain(
      "Список может быть неполным: записи о запросах старше 90 дней удаляются",
    );
    expect(webhooks(d, "ru")).toContain("Список может быть неполным: вебхуки старше 90 дней удаляются");
  });

  it("counts from when the operation was first seen or its oldest status change, not only dateAdded", async () => {
    expect((await detail(seenLongAgo)).retention.apiCalls.mayBeIncomplete).toBe(true);
    expect((await detail(historyOld)).retention.apiCalls.mayBeIncomplete).toBe(false);
  });

  it("follows the retention settings of each kind", async () => {
    const db = getDb();
    await db.setting.createMany({
      data: [
        { key: "webhookRetentionDays", value: 30 },
        { key: "refusedWebhookRetentionDays", value: 60 },
      ],
    });
    forgetCachedSettings();
    try {
      const d = await detail(historyOld);
      expect(d.retention).toEqual({
        apiCalls: { days: 90, longerDays: 365, mayBeIncomplete: false },
        webhooks: { days: 30, longerDays: 60, mayBeIncomplete: true },
      });
      expect(webhooks(d)).toContain(
        "Webhooks older than 30 days are deleted (refused ones: older than 60 days)",
      );
      expect(calls(d)).toContain("No API calls recorded.");
    } finally {
      await db.setting.deleteMany({
        where: { key: { in: ["webhookRetentionDays", "refusedWebhookRetentionDays"] } },
      });
      forgetCachedSettings();
    }
  });
});

describe("an old operation whose records retention keeps", () => {
  it("a pay-out's: its calls and webhooks are never deleted, so no list says they may be", async () => {
    const maker = await createStaff("finance");
    await storedPayoutRequest(maker.id, { createdAt: daysAgo(201), operationId: oldPayout });
    const d = await detail(oldPayout);
    expect(d.retention).toEqual({
      apiCalls: { days: 90, longerDays: 365, mayBeIncomplete: false },
      webhooks: { days: 90, longerDays: 365, mayBeIncomplete: false },
    });
    expect(calls(d)).toContain("No API calls recorded.");
    expect(webhooks(d)).toContain("No webhooks received.");
    expect(calls(d, "ru")).toContain("Запросов к API не записано.");
    expect(webhooks(d, "ru")).toContain("Вебхуков не поступало.");
  });

  it("an unresolved drift item's: its webhooks are kept since the item was opened", async () => {
    const db = getDb();
    const run = await db.reconciliationRun.create({ data: { kind: "full", status: "completed" } });
    await db.driftItem.createMany({
      data: [
        { runId: run.id, operationId: oldDriftEarly, kind: "statusMismatch", createdAt: daysAgo(190) },
        { runId: run.id, operationId: oldDriftLate, kind: "statusMismatch", createdAt: daysAgo(5) },
      ],
    });
    // Opened before any of its webhooks was old enough to go: none went. Its calls: a call recorded before
    // the operation's id was known (by idTransactionMerchant only) is not kept by a drift item.
    expect((await detail(oldDriftEarly)).retention).toEqual({
      apiCalls: { days: 90, longerDays: 365, mayBeIncomplete: true },
      webhooks: { days: 90, longerDays: 365, mayBeIncomplete: false },
    });
    // Opened when webhooks older than 90 days may already have gone.
    expect((await detail(oldDriftLate)).retention.webhooks.mayBeIncomplete).toBe(true);
  });
});

describe("the operation page", () => {
  it("hands each list its retention note", async () => {
    session.current = { userId: (await createStaff("support")).id, sessionVersion: 0 };
    const { default: Page } = await import("@/app/(console)/operations/[id]/page");
    const page = (id: string) => Page({ params: Promise.resolve({ id }), searchParams: Promise.resolve({}) });
    const old = await page(oldEmpty);
    const [callList] = propsOf<ComponentProps<typeof ApiCalls>>(old, ApiCalls);
    const [hookList] = propsOf<ComponentProps<typeof WebhookDeliveries>>(old, WebhookDeliveries);
    expect(callList?.retention).toEqual({ days: 90, longerDays: 365, mayBeIncomplete: true });
    expect(hookList?.retention).toEqual({ days: 90, longerDays: 365, mayBeIncomplete: true });
    const fresh = await page(recent);
    expect(propsOf<ComponentProps<typeof ApiCalls>>(fresh, ApiCalls)[0]?.retention.mayBeIncomplete).toBe(
      false,
    );
  });
});

describe("a recent operation", () => {
  it("says as before that nothing was recorded", async () => {
    const d = await detail(recent);
    expect(d.retention.apiCalls.mayBeIncomplete).toBe(false);
    expect(d.retention.webhooks.mayBeIncomplete).toBe(false);
    expect(calls(d)).toContain("No API calls recorded.");
    expect(webhooks(d)).toContain("No webhooks received.");
    expect(calls(d, "ru")).toContain("Запросов к API не записано.");
    expect(webhooks(d, "ru")).toContain("Вебхуков не поступало.");
    expect(calls(d)).not.toContain("incomplete");
  });
});
