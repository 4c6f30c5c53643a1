import { maskNumber } from "@/lib/recipients/mask";
import type { OperationListRow } from "./queries";

/**
 * What the browser receives for a list row: picked fields, amounts as decimal strings, dates as ISO
 * text and the recipient number always masked (revealing one is the audited `revealRecipientNumber`).
 */
export type OperationListItem = Omit<
  OperationListRow,
  "dateAdded" | "dateUpdated" | "number" | "stuckFlaggedAt"
> & {
  dateAdded: string;
  dateUpdated: string | null;
  numberMasked: string | null;
  stuck: boolean;
};

export function presentListRow(row: OperationListRow): OperationListItem {
  return {
    id: row.id,
    dateAdded: row.dateAdded.toISOString(),
    dateUpdated: row.dateUpdated?.toISOString() ?? null,
    typeOperation: row.typeOperation,
    status: row.status,
    idTransactionMerchant: row.idTransactionMerchant,
    amount: row.amount,
    amountComission: row.amountComission,
    currency: row.currency,
    amountInCurrencyBalance: row.amountInCurrencyBalance,
    amountComissionInCurrencyBalance: row.amountComissionInCurrencyBalance,
    exchangeRate: row.exchangeRate,
    paymentMethod: row.paymentMethod,
    bankName: row.bankName,
    numberMasked: row.number === null ? null : maskNumber(row.number),
    stuck: row.stuckFlaggedAt !== null,
  };
}
