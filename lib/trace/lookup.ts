import "server-only";
import type { Messages } from "next-intl";
import { createTranslator } from "use-intl/core";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { maskNumbersInJsonText } from "@/lib/recipients/mask";
import {
  presentApiCall,
  presentWebhook,
  SHOWN_WEBHOOK_SELECT,
  type ApiCallItem,
  type OperationDetail,
  type WebhookItem,
} from "@/lib/operations/detail/operation-detail";
import { buildTimeline } from "@/lib/operations/detail/timeline";
import type { Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { parseLocalized } from "@/lib/i18n/validation";
import { isUuid } from "@/lib/uuid";
import { isUsableFilterText } from "@/lib/validation/text";

const LIMIT = 100;

const traceQuerySchema = z
  .string()
  .trim()
  .max(200, "trace.queryTooLong")
  .refine(isUsableFilterText, "trace.invisibleCharacters");

/**
 * The lookup text as typed (empty: nothing to look up), or the reason it cannot be looked up in the
 * reader's language (English when none is given).
 */
export function parseTraceQuery(
  raw: string,
  locale: Locale = "en",
): { ok: true; q: string } | { ok: false; q: string; message: string } {
  const parsed = parseLocalized(traceQuerySchema, raw, locale);
  if (parsed.success) return { ok: true, q: parsed.data };
  const t = createTranslator({ locale, messages: messagesFor(locale) as Messages, namespace: "trace" });
  return {
    ok: false,
    q: raw.trim(),
    message: Object.values(parsed.fieldErrors).flat()[0] ?? t("cannotLookUp"),
  };
}

/** One recorded platform call, as on the operation page, plus who made it and the redacted bodies. */
export type TraceCall = Omit<ApiCallItem, "actorEmail"> & {
  actor: { email: string; role: string } | null;
  operationId: string | null;
  idTransactionMerchant: string | null;
  /** Request and response bodies, recipient numbers masked (the token is never stored). */
  request: unknown;
  response: unknown;
};

/** An operation found by the lookup: the head of its detail page and its timeline. */
export type TraceOperation = Pick<
  OperationDetail,
  | "id"
  | "typeOperation"
  | "status"
  | "idTransactionMerchant"
  | "dateAdded"
  | "dateUpdated"
  | "amount"
  | "currency"
  | "amountInCurrencyBalance"
  | "exchangeRate"
  | "timeline"
>;

export type TraceLookup = {
  query: string;
  /** What the text was recognised as; null when nothing matched. */
  matchedBy: "traceID" | "operationId" | "idTransactionMerchant" | null;
  calls: TraceCall[];
  webhooks: WebhookItem[];
  operations: TraceOperation[];
};

/**
 * Support's lookup: a traceID (of an API call or a webhook), an operation id or an idTransactionMerchant
 * gives the calls with who made them, the webhook deliveries, and the operations with their timeline.
 */
export async function lookupTrace(query: string, now = new Date()): Promise<TraceLookup> {
  const q = query.trim();
  const db = getDb();
  const variants = isUuid(q) ? [...new Set([q, q.toLowerCase()])] : [q];

  // Every reading of the text is asked at once (one round trip's wait, not five in a row): each is an
  // index probe, and which one counts is decided below in the same order as before.
  const [tracedCalls, tracedWebhooks, byId, opByMerchant, callByMerchant] = await Promise.all([
    db.apiCall.findMany({
      where: { traceID: { in: variants } },
      select: { id: true, operationId: true, idTransactionMerchant: true },
      take: LIMIT,
    }),
    db.webhookDelivery.findMany({
      where: { OR: [{ traceID: { in: variants } }, { readBackTraceID: { in: variants } }] },
      select: { id: true, operationId: true },
      take: LIMIT,
    }),
    isUuid(q) ? db.operation.findUnique({ where: { id: q.toLowerCase() }, select: { id: true } }) : null,
    db.operation.findFirst({ where: { idTransactionMerchant: q }, select: { id: true } }),
    db.apiCall.findFirst({ where: { idTransactionMerchant: q }, select: { id: true } }),
  ]);

  let matchedBy: TraceLookup["matchedBy"] = null;
  let operationFilter: { id?: { in: string[] }; idTransactionMerchant?: string } | null = null;
  let callIds = tracedCalls.map((c) => c.id);
  let webhookIds = tracedWebhooks.map((w) => w.id);

  if (callIds.length || webhookIds.length) {
    matchedBy = "traceID";
    const ids = new Set<string>();
    for (const c of tracedCalls) if (c.operationId) ids.add(c.operationId);
    for (const w of tracedWebhooks) if (w.operationId) ids.add(w.operationId);
    const merchantIds = tracedCalls
      .map((c) => c.idTransactionMerchant)
      .filter((m): m is string => m !== null);
    const ops = await db.operation.findMany({
      where: { OR: [{ id: { in: [...ids] } }, { idTransactionMerchant: { in: merchantIds } }] },
      select: { id: true },
      take: LIMIT,
    });
    operationFilter = { id: { in: ops.map((o) => o.id) } };
  } else if (byId) {
    matchedBy = "operationId";
    operationFilter = { id: { in: [byId.id] } };
  } else if (opByMerchant) {
    matchedBy = "idTransactionMerchant";
    operationFilter = { idTransactionMerchant: q };
  } else if (callByMerchant) {
    // A creation the platform refused: calls exist, the operation does not.
    matchedBy = "idTransactionMerchant";
  }

  const operations = operationFilter
    ? await db.operation.findMany({
        where: operationFilter,
        include: { history: { orderBy: [{ recordedAt: "asc" }, { id: "asc" }] } },
        orderBy: { dateAdded: "desc" },
        take: LIMIT,
      })
    : [];

  if (matchedBy === "operationId" || matchedBy === "idTransactionMerchant") {
    const ids = operations.map((o) => o.id);
    const merchantIds = [...new Set([...operations.map((o) => o.idTransactionMerchant), q])];
    const [calls, webhooks] = await Promise.all([
      db.apiCall.findMany({
        where: { OR: [{ operationId: { in: ids } }, { idTransactionMerchant: { in: merchantIds } }] },
        select: { id: true },
        take: LIMIT,
      }),
      ids.length
        ? db.webhookDelivery.findMany({
            where: { operationId: { in: ids } },
            select: { id: true },
            take: LIMIT,
          })
        : [],
    ]);
    callIds = calls.map((c) => c.id);
    webhookIds = webhooks.map((w) => w.id);
  }

  const [calls, webhooks] = await Promise.all([
    callIds.length
      ? db.apiCall.findMany({
          where: { id: { in: callIds } },
          include: { actor: { select: { email: true, role: true } } },
          orderBy: { startedAt: "asc" },
        })
      : [],
    webhookIds.length
      ? db.webhookDelivery.findMany({
          where: { id: { in: webhookIds } },
          select: SHOWN_WEBHOOK_SELECT,
          orderBy: { receivedAt: "asc" },
        })
      : [],
  ]);

  return {
    query: q,
    matchedBy,
    calls: calls.map((c) => ({
      ...presentApiCall(c),
      actor: c.actor ? { email: c.actor.email, role: c.actor.role } : null,
      operationId: c.operationId,
      idTransactionMerchant: c.idTransactionMerchant,
      request: maskNumbersInJsonText(c.requestBody),
      response: maskNumbersInJsonText(c.responseBody),
    })),
    webhooks: webhooks.map(presentWebhook),
    operations: operations.map((o) => ({
      id: o.id,
      typeOperation: o.typeOperation,
      status: o.status,
      idTransactionMerchant: o.idTransactionMerchant,
      dateAdded: o.dateAdded.toISOString(),
      dateUpdated: o.dateUpdated?.toISOString() ?? null,
      amount: o.amount.toFixed(),
      currency: o.currency,
      amountInCurrencyBalance: o.amountInCurrencyBalance?.toFixed() ?? null,
      exchangeRate: o.exchangeRate?.toFixed() ?? null,
      timeline: buildTimeline(o.dateAdded, o.history, now),
    })),
  };
}
