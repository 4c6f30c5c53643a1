// A statement document built in memory (no database), for the renderers' tests.
import type { StatementPosting } from "@/lib/ledger/postings";
import type { StatementDocument } from "@/lib/statements/document";

export function syntheticPosting(i: number, fields: Partial<StatementPosting> = {}): StatementPosting {
  return {
    at: new Date(Date.UTC(2031, 0, 1) + i * 1000).toISOString(),
    kind: "payInCredit",
    amount: "1234.5678",
    holdDelta: "0.0000",
    balance: "99999.0000",
    key: "8b0e0c0e-0000-4000-8000-000000000000",
    idTransactionMerchant: `m-${i}`,
    typeOperation: "payIn",
    status: "success",
    paymentMethod: "toCard",
    amountPayment: "100000.0000",
    currencyPayment: "RUB",
    exchangeRate: "95.5",
    counterparty: "Иван Петрович Сидоров",
    bankName: "Сбербанк",
    movementKind: null,
    reference: null,
    note: null,
    ...fields,
  };
}

/** A statement of 2031 whose lines are `chunks`, read one chunk at a time. */
export function syntheticStatement(
  chunks: () => AsyncIterable<StatementPosting[]>,
  closing = "0.0000",
): StatementDocument {
  const zero = "0.0000";
  const totals = {
    credits: zero,
    debits: zero,
    commissions: zero,
    holds: zero,
    outside: zero,
    movements: closing,
  };
  return {
    locale: "en",
    merchant: "Merchant",
    generatedAt: "2031-01-01T00:00:00Z",
    generatedBy: "finance@test.local",
    issued: null,
    summary: {
      period: { from: "2031-01-01T00:00:00Z", to: "2032-01-01T00:00:00Z", tz: "UTC" },
      currency: "USDT",
      opening: { available: zero, holds: zero },
      closing: { available: closing, holds: zero },
      totals,
      check: { openingPlusMovements: closing, closing, difference: zero, ok: true },
      byKind: [],
      counts: [],
      days: [],
      freshness: { lastCompleteReconciliationAt: null, covered: false },
    },
    lines: chunks,
  };
}
