import "server-only";
import { catalogWords, translatorFor } from "@/lib/auth/translator";
import { z } from "zod";
import { audit, type Actor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { keysetPage } from "@/lib/keyset-page";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { WebhookOutcome } from "@/lib/generated/prisma/enums";
import { maskNumbersInText } from "@/lib/recipients/mask";
import type { WordedNote, Words } from "@/lib/i18n/worded-note";
import { wordOutcome, type OutcomeCode } from "@/lib/webhooks/outcome-notes";

export const webhookOutcomes = [
  "received",
  "applied",
  "duplicate",
  "stale",
  "rejected",
  "malformed",
  "disagreement",
  "failed",
] as const satisfies readonly WebhookOutcome[];

/**
 * Outcomes a delivery may be processed again from. `rejected` (failed the source checks) and
 * `malformed` (not an operation) stay as they are: processing them again would trust what was refused.
 * `received` is already waiting.
 */
export const reprocessableOutcomes = [
  "applied",
  "duplicate",
  "stale",
  "disagreement",
  "failed",
] as const satisfies readonly WebhookOutcome[];

export function canReprocess(outcome: WebhookOutcome): boolean {
  return (reprocessableOutcomes as readonly string[]).includes(outcome);
}

const PAGE = 50;
const INT8_MAX = 9_223_372_036_854_775_807n;

/** A delivery id (a positive BIGINT) as text. Messages are catalog keys (lib/i18n/validation.ts). */
export const deliveryIdSchema = z
  .string({ error: "webhooks.notDeliveryId" })
  .regex(/^\d{1,19}$/, "webhooks.notDeliveryId")
  .transform((v) => BigInt(v))
  .refine((v) => v > 0n && v <= INT8_MAX, "webhooks.notDeliveryId");

/** Query parameters of the inbox list (outcome filter, keyset cursor on id). */
export const inboxFilterSchema = z.object({
  outcome: z.enum(webhookOutcomes, { error: "webhooks.unknownOutcome" }).optional(),
  before: deliveryIdSchema.optional(),
});
export type InboxFilter = z.output<typeof inboxFilterSchema>;

export type InboxRow = {
  id: string;
  receivedAt: string;
  sourceIp: string | null;
  outcome: WebhookOutcome;
  /** What happened, beyond the outcome, in the reader's words (null: nothing to add). */
  note: WordedNote | null;
  operationId: string | null;
  operationStatus: string | null;
  traceID: string | null;
  bodyBytes: number;
  processingAttempts: number;
};

const listFields = {
  id: true,
  receivedAt: true,
  sourceIp: true,
  outcome: true,
  outcomeCode: true,
  outcomeArgs: true,
  outcomeDetail: true,
  operationId: true,
  operationStatus: true,
  traceID: true,
  bodyBytes: true,
  processingAttempts: true,
} as const;

type ListRecord = Prisma.WebhookDeliveryGetPayload<{ select: typeof listFields }>;

/** Words stored notes for one reader: their language, instants in their time zone. */
export type NoteReader = { t: Words; when: (iso: string) => string };

/** The request's language (see currentLocale) with instants as ISO text, when the caller gives no reader. */
async function defaultReader(): Promise<NoteReader> {
  return { t: await catalogWords(), when: (iso) => iso };
}

function toRow(r: ListRecord, reader: NoteReader): InboxRow {
  const { outcomeCode, outcomeArgs, outcomeDetail, ...rest } = r;
  return {
    ...rest,
    id: r.id.toString(),
    receivedAt: r.receivedAt.toISOString(),
    note: wordOutcome(reader.t, { outcomeCode, outcomeArgs, outcomeDetail }, reader.when),
  };
}

/** Newest first, 50 a page; `nextBefore` is the cursor of the next (older) page. */
export async function listDeliveries(
  filter: InboxFilter,
  given?: NoteReader,
): Promise<{ rows: InboxRow[]; nextBefore: string | null }> {
  const rows = await getDb().webhookDelivery.findMany({
    where: {
      ...(filter.outcome ? { outcome: filter.outcome } : {}),
      ...(filter.before !== undefined ? { id: { lt: filter.before } } : {}),
    },
    orderBy: { id: "desc" },
    take: PAGE + 1,
    select: listFields,
  });
  const reader = given ?? (await defaultReader());
  return keysetPage(rows, PAGE, (r) => toRow(r, reader));
}

export type DeliveryDetail = InboxRow & {
  headers: unknown;
  /** The raw body with recipient numbers masked (see revealDeliveryBody for the whole of it). */
  body: string;
  /** True when masking changed the body: there is something to reveal. */
  bodyMasked: boolean;
  readBackTraceID: string | null;
  processedAt: string | null;
  canReprocess: boolean;
};

/** One delivery for its page, for any viewer: recipient numbers in the body are masked. */
export async function getDelivery(id: bigint, given?: NoteReader): Promise<DeliveryDetail | null> {
  const r = await getDb().webhookDelivery.findUnique({
    where: { id },
    select: { ...listFields, headers: true, body: true, readBackTraceID: true, processedAt: true },
  });
  if (!r) return null;
  const body = maskNumbersInText(r.body);
  return {
    ...toRow(r, given ?? (await defaultReader())),
    headers: r.headers,
    body,
    bodyMasked: body !== r.body,
    readBackTraceID: r.readBackTraceID,
    processedAt: r.processedAt?.toISOString() ?? null,
    canReprocess: canReprocess(r.outcome),
  };
}

export type RevealBodyResult = { ok: true; body: string } | { ok: false; code: "not_found"; message: string };

/**
 * The body exactly as received, recipient numbers included: only for the reveal action, which has
 * checked recipients.reveal. Each reveal is written to the audit log.
 */
export async function revealDeliveryBody(actor: Actor, id: bigint): Promise<RevealBodyResult> {
  const t = await translatorFor("webhooks.reprocess");
  return getDb().$transaction(async (tx) => {
    const delivery = await tx.webhookDelivery.findUnique({ where: { id }, select: { body: true } });
    if (!delivery) return { ok: false, code: "not_found", message: t("notFound") };
    await audit(tx, actor, {
      action: "webhook.body.reveal",
      targetType: "webhookDelivery",
      targetId: id.toString(),
    });
    return { ok: true, body: delivery.body };
  });
}

export type ReprocessResult =
  | { ok: true; id: string; previousOutcome: WebhookOutcome }
  | { ok: false; code: "not_found" | "not_allowed"; message: string };

/**
 * "Process again": puts a processed delivery back to `received` (lease and attempt count cleared) so
 * the worker decides it again, with a fresh read-back for a final status. Audited with the outcome
 * before and after. The update is conditional on the outcome read, so two clicks queue it once.
 */
export async function reprocessDelivery(actor: Actor, id: bigint): Promise<ReprocessResult> {
  const t = await translatorFor("webhooks");
  return getDb().$transaction(async (tx) => {
    const delivery = await tx.webhookDelivery.findUnique({
      where: { id },
      select: { outcome: true, outcomeCode: true, outcomeArgs: true, outcomeDetail: true },
    });
    if (!delivery) return { ok: false, code: "not_found", message: t("reprocess.notFound") };
    if (!canReprocess(delivery.outcome)) {
      return {
        ok: false,
        code: "not_allowed",
        message:
          delivery.outcome === "received"
            ? t("reprocess.alreadyWaiting")
            : t("reprocess.refusedOnReceipt", { outcome: t(`outcome.${delivery.outcome}`) }),
      };
    }
    const updated = await tx.webhookDelivery.updateMany({
      where: { id, outcome: delivery.outcome },
      data: {
        outcome: "received",
        outcomeCode: "reprocessRequested" satisfies OutcomeCode,
        outcomeArgs: { was: delivery.outcome },
        outcomeDetail: null,
        claimedUntil: null,
        processingAttempts: 0,
        processedAt: null,
      },
    });
    if (updated.count === 0) {
      return { ok: false, code: "not_allowed", message: t("reprocess.changedMeanwhile") };
    }
    await audit(tx, actor, {
      action: "webhook.reprocess",
      targetType: "webhookDelivery",
      targetId: id.toString(),
      before: {
        outcome: delivery.outcome,
        outcomeCode: delivery.outcomeCode,
        outcomeArgs: delivery.outcomeArgs ?? null,
        outcomeDetail: delivery.outcomeDetail,
      },
      after: { outcome: "received" },
    });
    return { ok: true, id: id.toString(), previousOutcome: delivery.outcome };
  });
}
