import { num } from "./json";
import type { Operation } from "./types";

/**
 * The Operation resource as it goes on the wire (spec "Resources and their fields › Operation").
 * `creationResponse` drops paymentDetailsData from pay-outs (absent from the pay-out creation response);
 * `omitPayInDetails` drops it from a pay-in (the nested dialect's by-id read, wire notes).
 */
export function operationWire(
  op: Operation,
  creationResponse = false,
  omitPayInDetails = false,
): Record<string, unknown> {
  const zeroed = op.typeOperation === "payIn" && op.status === "failed";
  const wire: Record<string, unknown> = {
    id: op.id,
    dateAdded: new Date(op.dateAdded).toISOString(),
    dateUpdated: new Date(op.dateUpdated).toISOString(),
    typeOperation: op.typeOperation,
    status: op.status,
    idTransactionMerchant: op.idTransactionMerchant,
    amountInitial: num(op.amountInitial),
    amountRandomized: num(op.amountRandomized),
    amount: num(op.amount),
    amountComission: num(zeroed ? "0" : op.amountComission),
    currency: op.currency,
    amountInCurrencyBalance: num(zeroed ? "0" : op.amountInCurrencyBalance),
    amountComissionInCurrencyBalance: num(zeroed ? "0" : op.amountComissionInCurrencyBalance),
    exchangeRate: num(zeroed ? "0" : op.exchangeRate),
  };
  if (op.typeOperation === "payOut") {
    if (!creationResponse) wire.paymentDetailsData = null;
    return wire;
  }
  if (omitPayInDetails) return wire;
  wire.paymentDetailsData =
    op.details === null
      ? null
      : {
          paymentMethod: op.details.paymentMethod,
          bankName: op.details.bankName,
          nameMediator: op.details.nameMediator,
          number: op.details.number,
          numberAdditional: null,
          qRcode: null,
        };
  return wire;
}
