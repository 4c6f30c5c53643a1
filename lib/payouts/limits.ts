// Length limits of the pay-out form's fields: the schemas' (lib/payouts/schemas.ts), and the form's
// maxLength in the browser, which imports this file rather than the schemas (zod stays on the server).
import { CLIENT_DATA_LIMITS } from "@/lib/anti-fraud/limits";

export const LIMITS = {
  paymentMethod: 64,
  bankName: 200,
  recipientNumber: 64,
  recipientName: 200,
  amount: 24,
  amountIntegerDigits: 15,
  ...CLIENT_DATA_LIMITS,
  webhookUrl: 2048,
  overrideReason: 500,
  comment: 1000,
} as const;
