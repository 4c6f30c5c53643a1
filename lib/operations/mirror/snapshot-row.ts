import type { Prisma } from "@/lib/generated/prisma/client";
import type { SnapshotSource } from "@/lib/generated/prisma/enums";
import type { Decimal } from "@/lib/money/decimal";
import type { Operation } from "@/lib/platform/schemas";

const text = (d: Decimal | null) => (d === null ? null : d.toFixed());

/** Stored values that a snapshot lacking them leaves in place (see mirror-fields.ts). */
export type KeptValues = {
  paymentMethod: string | null;
  details: {
    bankName: string | null;
    nameMediator: string | null;
    number: string | null;
    numberAdditional: Prisma.JsonValue;
    qRcode: Prisma.JsonValue;
  } | null;
  linkPaymentForm: string | null;
};

/**
 * The mirror row for a platform snapshot: every Operation and paymentDetailsData field, amounts exact.
 * What the snapshot does not carry (details, method, link) comes from `kept`: a by-id read of a pay-in
 * may omit paymentDetailsData, and must not wipe the details the mirror already has.
 */
export function snapshotToRow(
  op: Operation,
  source: SnapshotSource,
  paymentMethod: string | null,
  kept: KeptValues | null = null,
) {
  const details = op.paymentDetailsData ?? kept?.details ?? null;
  return {
    id: op.id,
    dateAdded: op.dateAdded,
    dateUpdated: op.dateUpdated,
    typeOperation: op.typeOperation,
    status: op.status,
    idTransactionMerchant: op.idTransactionMerchant,
    amountInitial: op.amountInitial.toFixed(),
    amountRandomized: text(op.amountRandomized),
    amount: op.amount.toFixed(),
    amountComission: text(op.amountComission),
    currency: op.currency,
    amountInCurrencyBalance: text(op.amountInCurrencyBalance),
    amountComissionInCurrencyBalance: text(op.amountComissionInCurrencyBalance),
    exchangeRate: text(op.exchangeRate),
    paymentMethod: op.paymentDetailsData?.paymentMethod ?? paymentMethod ?? kept?.paymentMethod ?? null,
    detailsBankName: details?.bankName ?? null,
    detailsNameMediator: details?.nameMediator ?? null,
    detailsNumber: details?.number ?? null,
    detailsNumberAdditional: (details?.numberAdditional ?? undefined) as Prisma.InputJsonValue | undefined,
    detailsQrCode: (details?.qRcode ?? undefined) as Prisma.InputJsonValue | undefined,
    linkPaymentForm: op.linkPaymentForm ?? kept?.linkPaymentForm ?? null,
    raw: op.raw as Prisma.InputJsonValue,
    lastSource: source,
  } satisfies Prisma.OperationUncheckedCreateInput;
}
