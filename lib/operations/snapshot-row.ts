import type { Prisma } from "@/lib/generated/prisma/client";
import type { SnapshotSource } from "@/lib/generated/prisma/enums";
import type { Decimal } from "@/lib/money/decimal";
import type { Operation, PaymentDetails } from "@/lib/platform/schemas";

const text = (d: Decimal | null) => (d === null ? null : d.toFixed());

/**
 * The mirror row for a platform snapshot: every Operation and paymentDetailsData field, amounts exact.
 * A snapshot without the paymentDetailsData key leaves the stored details as they are.
 */
export function snapshotToRow(op: Operation, source: SnapshotSource, paymentMethod: string | null) {
  return {
    ...operationFields(op, source),
    ...(op.paymentDetailsData === undefined
      ? paymentMethod === null
        ? {}
        : { paymentMethod }
      : detailsFields(op.paymentDetailsData, paymentMethod)),
  } satisfies Prisma.OperationUncheckedCreateInput;
}

function operationFields(op: Operation, source: SnapshotSource) {
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
    linkPaymentForm: op.linkPaymentForm,
    raw: op.raw as Prisma.InputJsonValue,
    lastSource: source,
  };
}

function detailsFields(details: PaymentDetails | null, paymentMethod: string | null) {
  return {
    paymentMethod: details?.paymentMethod ?? paymentMethod,
    detailsBankName: details?.bankName ?? null,
    detailsNameMediator: details?.nameMediator ?? null,
    detailsNumber: details?.number ?? null,
    detailsNumberAdditional: (details?.numberAdditional ?? undefined) as Prisma.InputJsonValue | undefined,
    detailsQrCode: (details?.qRcode ?? undefined) as Prisma.InputJsonValue | undefined,
  };
}
