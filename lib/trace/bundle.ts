import type { MissingRecord, TraceLookup } from "./lookup";
import { shownCallFields } from "@/lib/operations/detail/operation-detail";
import { maskNumbersInJson } from "@/lib/recipients/mask";

const SECRET_KEYS = /authorization|token|password|secret|cookie/i;
const JWT = /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;

/** Removes secrets: values under secret-looking keys, JWTs, and any of the given secret values. */
export function redactSecrets(value: unknown, secrets: readonly string[]): unknown {
  const known = secrets.filter((s) => s.length >= 8);
  const scrub = (text: string) =>
    known.reduce((t, secret) => t.split(secret).join("[redacted]"), text).replace(JWT, "[redacted]");
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return scrub(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== "object") return v;
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).map(([key, inner]) => [
        key,
        SECRET_KEYS.test(key) ? "[redacted]" : walk(inner),
      ]),
    );
  };
  return walk(value);
}

/** Why the looked-up traceID has no call in the bundle, for a reader outside Paydesk. */
function missingCallRecord(missing: MissingRecord | null) {
  if (!missing) return null;
  return missing.reason === "retention"
    ? { reason: "deletedByRetention", keptDays: missing.keptDays }
    : { reason: "notStored" };
}

/**
 * The support bundle for the platform's support team: traceIDs, calls (request and response), the
 * operations and their timeline (with the traceID of the read behind each change), webhook deliveries.
 * No staff identities, no token, numbers masked. A traceID found only in an operation's history or a
 * drift item is listed all the same, with why its call is missing (deleted by retention after so many
 * days, or not stored), so the platform is not told there was no call.
 */
export function buildSupportBundle(
  lookup: TraceLookup,
  secrets: readonly string[],
  now: Date = new Date(),
): string {
  const traceIDs = [
    ...new Set(
      [
        ...lookup.calls.map((c) => c.traceID),
        ...lookup.webhooks.flatMap((w) => [w.traceID, w.readBackTraceID]),
        lookup.missingRecord ? lookup.query : null,
      ].filter((t): t is string => Boolean(t)),
    ),
  ];
  const bundle = {
    generatedAt: now.toISOString(),
    query: lookup.query,
    traceIDs,
    missingCallRecord: missingCallRecord(lookup.missingRecord),
    calls: lookup.calls.map((c) => ({
      startedAt: c.startedAt,
      ...shownCallFields(c),
      operationId: c.operationId,
      idTransactionMerchant: c.idTransactionMerchant,
      request: c.request,
      response: c.response,
    })),
    operations: lookup.operations.map((o) => ({
      id: o.id,
      idTransactionMerchant: o.idTransactionMerchant,
      typeOperation: o.typeOperation,
      status: o.status,
      dateAdded: o.dateAdded,
      dateUpdated: o.dateUpdated,
      amount: o.amount,
      currency: o.currency,
      amountInCurrencyBalance: o.amountInCurrencyBalance,
      exchangeRate: o.exchangeRate,
      statusHistory: o.timeline.map((t) => ({
        status: t.status,
        at: t.at,
        source: t.source,
        sourceRef: t.sourceRef,
      })),
    })),
    webhooks: lookup.webhooks.map((w) => ({
      receivedAt: w.receivedAt,
      operationId: w.operationId,
      operationStatus: w.operationStatus,
      outcome: w.outcome,
      traceID: w.traceID,
      readBackTraceID: w.readBackTraceID,
    })),
  };
  return JSON.stringify(redactSecrets(maskNumbersInJson(bundle), secrets), null, 2);
}
