import "server-only";
import pg from "pg";
import type { PoolTransaction } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { OperationStatus, SnapshotSource } from "@/lib/generated/prisma/enums";
import { comparableDecimal, comparableJson, type MirrorFields } from "@/lib/operations/mirror/mirror-fields";
import type { OperationAmountsText } from "@/lib/operations/amount-text";
import type { KeptValues } from "@/lib/operations/mirror/snapshot-row";

/** What the mirror holds for one operation: enough to judge a snapshot, compare it and merge it. */
export type MirrorState = {
  status: OperationStatus;
  dateUpdated: Date | null;
  lastSource: SnapshotSource;
  /** When Paydesk received the snapshot the row holds. */
  receivedAt: Date;
  fields: MirrorFields;
  /** Stored values a later snapshot that lacks them must not wipe. */
  kept: KeptValues;
};

type Row = OperationAmountsText & {
  id: string;
  status: OperationStatus;
  lastSource: SnapshotSource;
  snapshotReceivedAt: Date;
  dateUpdated: Date | null;
  dateAdded: Date;
  typeOperation: string;
  idTransactionMerchant: string;
  amountInitial: string;
  amountRandomized: string | null;
  paymentMethod: string | null;
  detailsBankName: string | null;
  detailsNameMediator: string | null;
  detailsNumber: string | null;
  detailsNumberAdditional: Prisma.JsonValue;
  detailsQrCode: Prisma.JsonValue;
  linkPaymentForm: string | null;
};

/** The mirrored state of the operations whose ids the SQL expression `ids` (a uuid[]) lists. */
const selectStates = (
  ids: string,
) => `SELECT id::text, status::text AS status, "lastSource"::text AS "lastSource", "snapshotReceivedAt",
    "dateUpdated", "dateAdded", "typeOperation"::text AS "typeOperation", "idTransactionMerchant",
    "amountInitial"::text AS "amountInitial", "amountRandomized"::text AS "amountRandomized",
    amount::text AS amount, "amountComission"::text AS "amountComission", currency,
    "amountInCurrencyBalance"::text AS "amountInCurrencyBalance",
    "amountComissionInCurrencyBalance"::text AS "amountComissionInCurrencyBalance",
    "exchangeRate"::text AS "exchangeRate", "paymentMethod", "detailsBankName", "detailsNameMediator",
    "detailsNumber", "detailsNumberAdditional", "detailsQrCode", "linkPaymentForm"
  FROM "Operation" WHERE id = ANY(${ids}::uuid[])`;

function toState(r: Row): MirrorState {
  return {
    status: r.status,
    dateUpdated: r.dateUpdated,
    lastSource: r.lastSource,
    receivedAt: r.snapshotReceivedAt,
    fields: {
      status: r.status,
      dateUpdated: r.dateUpdated?.toISOString() ?? null,
      dateAdded: r.dateAdded.toISOString(),
      typeOperation: r.typeOperation,
      idTransactionMerchant: r.idTransactionMerchant,
      amountInitial: comparableDecimal(r.amountInitial),
      amountRandomized: comparableDecimal(r.amountRandomized),
      amount: comparableDecimal(r.amount),
      amountComission: comparableDecimal(r.amountComission),
      currency: r.currency,
      amountInCurrencyBalance: comparableDecimal(r.amountInCurrencyBalance),
      amountComissionInCurrencyBalance: comparableDecimal(r.amountComissionInCurrencyBalance),
      exchangeRate: comparableDecimal(r.exchangeRate, 8),
      paymentMethod: r.paymentMethod,
      detailsBankName: r.detailsBankName,
      detailsNameMediator: r.detailsNameMediator,
      detailsNumber: r.detailsNumber,
      detailsNumberAdditional: comparableJson(r.detailsNumberAdditional),
      detailsQrCode: comparableJson(r.detailsQrCode),
      linkPaymentForm: r.linkPaymentForm,
    },
    kept: {
      paymentMethod: r.paymentMethod,
      details: {
        bankName: r.detailsBankName,
        nameMediator: r.detailsNameMediator,
        number: r.detailsNumber,
        numberAdditional: r.detailsNumberAdditional,
        qRcode: r.detailsQrCode,
      },
      linkPaymentForm: r.linkPaymentForm,
    },
  };
}

/**
 * Takes the advisory locks of these operations (in id order, so two writers of overlapping sets cannot
 * deadlock) and then reads the mirror's state of each that it has. Every write of an operation holds
 * its lock until its transaction ends. One round trip: the two statements go as one simple query, each
 * with its own snapshot, so the read sees every write committed before the locks were granted. The ids
 * are platform UUIDs (checked by the schema), inlined as one escaped literal.
 */
export async function lockAndReadMirrorStates(
  tx: PoolTransaction,
  ids: string[],
): Promise<Map<string, MirrorState>> {
  const list = pg.escapeLiteral(`{${ids.join(",")}}`);
  const results = (await tx.query(
    `SELECT count(pg_advisory_xact_lock(hashtextextended(id, 7370)))
       FROM (SELECT unnest(${list}::text[]) AS id ORDER BY 1) AS sorted;
     ${selectStates(list)}`,
  )) as unknown as pg.QueryResult<Row>[];
  return new Map(results[1]!.rows.map((r) => [r.id, toState(r)]));
}
