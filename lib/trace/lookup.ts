import "server-only";
import type { Messages } from "next-intl";
import { createTranslator } from "use-intl/core";
import { z } from "zod";
import type { Role } from "@/lib/auth/permissions";
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
import { olderThanRetention, retentionPeriods } from "@/lib/settings/retention-periods";
import { buildTimeline } from "@/lib/operations/detail/timeline";
import type { Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { parseLocalized } from "@/lib/i18n/validation";
import { getSettings } from "@/lib/settings/settings";
import { isUuid } from "@/lib/uuid";
import { isUsableFilterText } from "@/lib/validation/text";
import { withholdBalance } from "./withhold";

const LIMIT = 100;
/** How a status change a webhook carried names its delivery in `sourceRef`. */
const WEBHOOK_REF = "webhook:";

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

/**
 * Who looks: what the lookup shows depends on their role's permissions (lib/trace/withhold.ts), its
 * notes are in their language.
 */
export type TraceViewer = { role: Role; locale: Locale };

/** One recorded platform call, as on the operation page, plus who made it and the redacted bodies. */
export type TraceCall = Omit<ApiCallItem, "actorEmail"> & {
  actor: { email: string; role: string } | null;
  operationId: string | null;
  idTransactionMerchant: string | null;
  /** Request and response bodies, recipient numbers masked (the token is never stored). */
  request: unknown;
  /** The response body; the viewer's note in its place (or in place of its message) when withheld. */
  response: unknown;
  /**
   * True when something this call says about the balance was replaced by the note "withheld: needs the
   * balance permission" (response body, platform message, error), for a viewer without `balance.read`.
   */
  withheld: boolean;
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
  /**
   * A traceID an operation's status history or a drift item names (their `sourceRef`) with no call
   * record and no webhook delivery holding it: "retention" when the naming record is older than the
   * call records' retention (`keptDays`), so the record was deleted; "notStored" otherwise. Null when a
   * record was found, or the text was not found as such a traceID.
   */
  missingRecord: MissingRecord | null;
};

export type MissingRecord = { reason: "retention"; keptDays: number } | { reason: "notStored" };

/**
 * Support's lookup: a traceID (of an API call, a webhook, or named by an operation's status history or
 * a drift item), an operation id or an idTransactionMerchant gives the calls with who made them, the
 * webhook deliveries, and the operations with their timeline. Every reading of the text is an equality
 * probe of an index (ApiCall.traceID, WebhookDelivery.traceID and readBackTraceID, Operation.id and
 * idTransactionMerchant, and OperationStatusChange.sourceRef and DriftItem.sourceRef, which need
 * `@@index([sourceRef])` on both models: without it each lookup scans those two tables).
 *
 * What a call says about the merchant's balance (a GET /balance answer, a notEnoughMoneyOnBalance
 * message) is withheld from a viewer without `balance.read`, and from any caller that does not say who
 * looks: the page and the support bundle are built from this result, so neither can show it.
 */
export async function lookupTrace(
  query: string,
  viewer: TraceViewer | null = null,
  now = new Date(),
): Promise<TraceLookup> {
  const q = query.trim();
  const db = getDb();
  const variants = isUuid(q) ? [...new Set([q, q.toLowerCase()])] : [q];

  // Every reading of the text is asked at once (one round trip's wait, not five in a row): each is an
  // index probe, and which one counts is decided below in the same order as before.
  const [tracedCalls, tracedWebhooks, tracedChanges, tracedDrift, byId, opByMerchant, callByMerchant] =
    await Promise.all([
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
      // The reads an operation's status changes and the drift items name: they outlive the call records
      // retention deletes, and a list read's call names no operation of its own.
      db.operationStatusChange.findMany({
        where: { sourceRef: { in: variants } },
        select: { operationId: true, recordedAt: true },
        orderBy: { recordedAt: "asc" },
        take: LIMIT,
      }),
      db.driftItem.findMany({
        where: { sourceRef: { in: variants } },
        select: { operationId: true, createdAt: true },
        orderBy: { createdAt: "asc" },
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
  let missingRecord: MissingRecord | null = null;

  if (callIds.length || webhookIds.length || tracedChanges.length || tracedDrift.length) {
    matchedBy = "traceID";
    const ids = new Set<string>();
    for (const c of tracedCalls) if (c.operationId) ids.add(c.operationId);
    for (const w of tracedWebhooks) if (w.operationId) ids.add(w.operationId);
    for (const c of tracedChanges) ids.add(c.operationId);
    for (const d of tracedDrift) if (d.operationId) ids.add(d.operationId);
    // A status change a webhook carried names its delivery ("webhook:<id>", lib/webhooks/process.ts),
    // not a platform call: no call record is missing for it.
    if (!callIds.length && !webhookIds.length && !q.startsWith(WEBHOOK_REF)) {
      missingRecord = await whyNoRecord(
        [...tracedChanges.map((c) => c.recordedAt), ...tracedDrift.map((d) => d.createdAt)],
        now,
      );
    }
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

  const locale = viewer?.locale ?? "en";
  const note = createTranslator({ locale, messages: messagesFor(locale) as Messages, namespace: "trace" })(
    "withheldNeedsBalance",
  );
  return {
    query: q,
    matchedBy,
    missingRecord,
    calls: calls.map((c) =>
      withholdBalance(
        {
          ...presentApiCall(c),
          actor: c.actor ? { email: c.actor.email, role: c.actor.role } : null,
          operationId: c.operationId,
          idTransactionMerchant: c.idTransactionMerchant,
          request: maskNumbersInJsonText(c.requestBody),
          response: maskNumbersInJsonText(c.responseBody),
        },
        viewer?.role ?? null,
        note,
      ),
    ),
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

/**
 * Why a traceID named by a status change or a drift item (at the given times) has no call record: the
 * read that carried it succeeded (it changed a status or brought the platform's values), so its record
 * was kept for the call records' normal retention; named before that cutoff, retention deleted it.
 */
async function whyNoRecord(namedAt: Date[], now: Date): Promise<MissingRecord> {
  const period = retentionPeriods(await getSettings()).apiCalls;
  const first = Math.min(...namedAt.map((d) => d.getTime()));
  return olderThanRetention(new Date(first), period, now)
    ? { reason: "retention", keptDays: period.days }
    : { reason: "notStored" };
}
