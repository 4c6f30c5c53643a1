/** An operation's amounts as SQL returns them (`::text`): exact decimal text, never numbers. */
export type OperationAmountsText = {
  amount: string;
  amountComission: string | null;
  currency: string;
  amountInCurrencyBalance: string | null;
  amountComissionInCurrencyBalance: string | null;
  exchangeRate: string | null;
};
