import "server-only";
import type { PoolTransaction } from "@/lib/db";
import type { KeptValues } from "@/lib/operations/mirror/snapshot-row";
import type { Operation } from "@/lib/platform/schemas";
import { storableText } from "@/lib/storable-text";

/*
 * The mirror's writes that touch only some columns of a row it has (apply-snapshot.ts, invariants 1 and
 * 5). Sent unnamed: each finds its row by a condition (tests/integration/db/prepared-plans.test.ts).
 */

const HINT = `UPDATE "Operation" SET status = $2::"OperationStatus", "dateUpdated" = $3::timestamptz,
    "lastSource" = 'webhook', "snapshotReceivedAt" = $4::timestamptz, "mirroredAt" = $5::timestamptz
  WHERE id = $1::uuid`;

const FILL = `UPDATE "Operation" SET "paymentMethod" = COALESCE("paymentMethod", $2),
    "linkPaymentForm" = COALESCE("linkPaymentForm", $3)
  WHERE id = $1::uuid`;

/**
 * A webhook applied on its word: its status and dateUpdated, with its source and arrival. Its amounts,
 * details and `raw` are not written: the row keeps those of the last platform read.
 */
export async function writeHint(
  tx: PoolTransaction,
  hint: Operation,
  receivedAt: Date,
  now: string,
): Promise<void> {
  const dateUpdated = hint.dateUpdated?.toISOString() ?? null;
  await tx.query(HINT, [hint.id, hint.status, dateUpdated, receivedAt.toISOString(), now]);
}

/**
 * What only a creation answer carries, written where the mirror has none: the method (a pay-out's from
 * our own request, `requestMethod`; pay-out reads carry none) and the payment form's link. A webhook's
 * read-back may insert the operation before the creation call returns; the answer is then stale, but
 * these are not in the read.
 */
export async function fillFromCreation(
  tx: PoolTransaction,
  answer: Operation,
  kept: KeptValues,
  requestMethod: string | null,
): Promise<void> {
  const method =
    kept.paymentMethod === null ? (answer.paymentDetailsData?.paymentMethod ?? requestMethod) : null;
  const link = kept.linkPaymentForm === null ? answer.linkPaymentForm : null;
  if (method === null && link === null) return;
  await tx.query(FILL, [answer.id, method && storableText(method), link && storableText(link)]);
}
