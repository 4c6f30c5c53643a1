/** Domain types of the emulated platform. Amounts are canonical decimal strings ("5000", "62.5"). */

export type Direction = "payIn" | "payOut";

export type Status =
  "precreated" | "created" | "booking" | "pending_retry" | "in_progress" | "success" | "failed";

export const FINAL_STATUSES: ReadonlySet<Status> = new Set<Status>(["success", "failed"]);

export type Dialect = "spec" | "nested";

export type WebhookBody = "envelope" | "bare";

/** How an operation was created: host-to-host, or one of the two payment-form scenarios. */
export type CreationMode = "h2h" | "prepare" | "full";

export interface PaymentDetails {
  paymentMethod: string;
  bankName: string;
  nameMediator: string;
  number: string;
  /** Index in the merchant's pool for the method; -1 when the details hold no pool slot (seeded history). */
  poolIndex: number;
}

export interface PayoutRecipient {
  number: string;
  bankName: string;
  nameMediator: string;
  /** False when bankName is neither a directory name nor a legacy synonym. */
  bankKnown: boolean;
}

export interface ClientData {
  clientID: string;
  clientIP: string;
  clientDateCreated: string;
}

export interface FormUrls {
  redirectGeneralURL: string | null;
  redirectSuccessURL: string | null;
  redirectFailURL: string | null;
}

export interface Operation {
  id: string;
  merchantId: string;
  /** Epoch milliseconds. */
  dateAdded: number;
  dateUpdated: number;
  typeOperation: Direction;
  status: Status;
  idTransactionMerchant: string;
  /** Method requested; null for a `prepare` operation until the end client picks one. */
  paymentMethod: string | null;
  amountInitial: string;
  amountRandomized: string;
  amount: string;
  amountComission: string;
  currency: string;
  amountInCurrencyBalance: string;
  amountComissionInCurrencyBalance: string;
  exchangeRate: string;
  details: PaymentDetails | null;
  recipient: PayoutRecipient | null;
  mode: CreationMode;
  origin: "api" | "seed";
  webHook: string | null;
  form: FormUrls | null;
  client: ClientData | null;
}

export interface Tariff {
  payIn: string[];
  payOut: string[];
}

export interface MerchantSettings {
  id: string;
  name: string;
  balanceCurrency: string;
  paymentCurrency: string;
  dialect: Dialect;
  /**
   * Nested dialect only: `x-request-id` is the literal text "uuid", as in the public documentation's
   * samples (wire notes). Absent in state files written before the setting existed.
   */
  literalRequestId?: boolean;
  tariff: Tariff;
  /** Commission percent per direction, e.g. "3" for 3 %. */
  commission: { payIn: string; payOut: string };
  /** Payment currency units per one balance-currency unit, e.g. "95.5" RUB per USDT. */
  rate: string;
  /** Rates of the other operation currencies (KZT, AZN) per balance-currency unit. */
  otherRates: Record<string, string>;
  /** Pay-in amount randomisation: adds 0.01..maxAdd (two decimals) to amountInitial. */
  randomization: { enabled: boolean; maxAdd: string };
  maxTake: number;
  webhookUrl: string | null;
  webhookBody: WebhookBody;
  webhookBearerToken: string | null;
  detailsPoolSize: number;
  /** Per-method pool sizes overriding detailsPoolSize (0 = the bank has no details). */
  detailsPoolOverrides: Record<string, number>;
  fraudRatePerMinute: number;
  formDefaults: FormUrls;
}

export interface BalanceCredit {
  id: string;
  at: number;
  amount: string;
  note: string;
}
