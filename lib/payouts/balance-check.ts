import { Decimal } from "@/lib/money/decimal";

export type BalanceCheck = {
  /** GET /balance as read (decimal strings). */
  amountInCurrencyBalance: string;
  currencyBalance: string;
  currencyPayment: string;
  exchangeRate: string;
  traceID: string | null;
  /** The pay-out amount in the balance currency at the current rate (exact; rounded only for display). */
  amountInBalanceCurrency: string | null;
  /** False when the balance is clearly too low; null when the rate is unknown (no successful operation). */
  sufficient: boolean | null;
};

/**
 * The pay-out amount (payment currency) converted to the balance currency at GET /balance's rate
 * (payment units per balance unit, the sandbox's and the operations' convention) and compared with the
 * available balance. The commission is not known in advance, so an amount just under the balance may
 * still be refused by the platform.
 */
export function checkBalance(
  amount: string,
  balance: {
    amountInCurrencyBalance: string;
    currencyBalance: string;
    currencyPayment: string;
    exchangeRate: string;
    traceID: string | null;
  },
): BalanceCheck {
  const rate = new Decimal(balance.exchangeRate);
  const converted = rate.greaterThan(0) ? new Decimal(amount).dividedBy(rate) : null;
  return {
    amountInCurrencyBalance: balance.amountInCurrencyBalance,
    currencyBalance: balance.currencyBalance,
    currencyPayment: balance.currencyPayment,
    exchangeRate: balance.exchangeRate,
    traceID: balance.traceID,
    amountInBalanceCurrency: converted ? converted.toFixed() : null,
    sufficient: converted ? converted.lessThanOrEqualTo(new Decimal(balance.amountInCurrencyBalance)) : null,
  };
}
