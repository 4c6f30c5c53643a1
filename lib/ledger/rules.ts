import { Decimal } from "@/lib/money/decimal";
import { isFinal } from "@/lib/operations/status";

/**
 * The posting rules: what each mirrored operation does to the merchant's balance, in the balance
 * currency. Every amount here is `amountInCurrencyBalance` / `amountComissionInCurrencyBalance`; the
 * payment-currency amounts and the operation's own rate only ride along for reference (spec, Operation
 * rule 2: "a merchant ledger keeps them apart").
 *
 * The database derives the LedgerPosting rows with the same rules (function ledger_derive_postings,
 * last written by migration 20261123223651_ledger_rules_without_lateral_values, run by triggers on
 * Operation and OperationStatusChange); tests/integration/ledger/ledger.test.ts holds the two to each
 * other, and the balance proof (lib/ledger/proof.ts) holds both to the platform's GET /balance.
 *
 * Each posting has two effects: `amount` on the available balance (the figure GET /balance reports as
 * amountInCurrencyBalance, "remainder on the main balance account") and `holdDelta` on the part held by
 * pay-outs in flight. Settled balance = available + holds.
 *
 * | kind             | when                      | amount            | holdDelta | source |
 * | ---------------- | ------------------------- | ----------------- | --------- | ------ |
 * | payInCredit      | pay-in reaches success    | +base             | 0         | spec, transitions: "in_progress -> success: final; balance changes" |
 * | payInCommission  | pay-in reaches success    | -commission       | 0         | assumed (net credit = base - commission); checked by the balance proof; sandbox/ledger.ts agrees |
 * | payOutHold       | pay-out created           | -(base + comm.)   | +same     | assumed (notEnoughMoneyOnBalance is checked at creation, so the platform reserves then); checked by the balance proof |
 * | payOutRelease    | pay-out reaches failed    | +held             | -held     | assumed (failed is final and "balance changes" is only stated for success); checked by the balance proof |
 * | payOutSettle     | pay-out reaches success   | +(base + comm.)   | -same     | the hold becomes the debit and commission below (net 0 on the available balance) |
 * | payOutDebit      | pay-out reaches success   | -base             | 0         | spec, transitions: "in_progress -> success: final; balance changes" |
 * | payOutCommission | pay-out reaches success   | -commission       | 0         | assumed; checked by the balance proof |
 *
 * - Failed pay-ins post nothing: their read-back amounts are 0 (spec, Operation rule 1).
 * - A failed pay-out that reads back without amounts releases the hold it placed (`held`).
 * - "When" for a final status is the moment of the change: the first recorded change to that status
 *   (the platform's dateUpdated it carried, else when the mirror recorded it), else the operation's
 *   dateUpdated. A status learnt late therefore posts at the moment it happened on the platform, and a
 *   pay-out that fails after a period closed releases its hold in the later period, as banks do.
 * - Postings with both effects 0 are not stored. A missing (null) amount counts as 0.
 */
export type PostingKind =
  | "payInCredit"
  | "payInCommission"
  | "payOutHold"
  | "payOutRelease"
  | "payOutSettle"
  | "payOutDebit"
  | "payOutCommission";

export const postingKinds: readonly PostingKind[] = [
  "payInCredit",
  "payInCommission",
  "payOutHold",
  "payOutRelease",
  "payOutSettle",
  "payOutDebit",
  "payOutCommission",
];

/** Where each kind is added up in a statement. */
export const postingGroup: Record<PostingKind, "credits" | "debits" | "commissions" | "holds"> = {
  payInCredit: "credits",
  payInCommission: "commissions",
  payOutHold: "holds",
  payOutRelease: "holds",
  payOutSettle: "holds",
  payOutDebit: "debits",
  payOutCommission: "commissions",
};

export type LedgerOperation = {
  typeOperation: "payIn" | "payOut";
  status: string;
  dateAdded: Date;
  /** The moment of the final status (see above); null while not final. */
  finalAt: Date | null;
  amountInCurrencyBalance: string | Decimal | null;
  amountComissionInCurrencyBalance: string | Decimal | null;
  /** The hold this pay-out already placed, if any (kept when a failed read-back has no amounts). */
  held?: string | Decimal | null;
};

export type Posting = { kind: PostingKind; at: Date; amount: Decimal; holdDelta: Decimal };

export function postingsFor(op: LedgerOperation): Posting[] {
  const base = new Decimal(op.amountInCurrencyBalance ?? 0);
  const comm = new Decimal(op.amountComissionInCurrencyBalance ?? 0);
  const zero = new Decimal(0);
  const final = isFinal(op.status);
  const finalAt = op.finalAt ?? op.dateAdded;
  const out: Posting[] = [];
  const put = (kind: PostingKind, at: Date, amount: Decimal, holdDelta: Decimal) => {
    if (!amount.isZero() || !holdDelta.isZero()) out.push({ kind, at, amount, holdDelta });
  };
  if (op.typeOperation === "payIn") {
    if (op.status === "success") {
      put("payInCredit", finalAt, base, zero);
      put("payInCommission", finalAt, comm.negated(), zero);
    }
    return out;
  }
  const requirement =
    op.status === "failed" && base.plus(comm).isZero() && op.held != null
      ? new Decimal(op.held)
      : base.plus(comm);
  put("payOutHold", op.dateAdded, requirement.negated(), requirement);
  if (final && op.status === "failed") put("payOutRelease", finalAt, requirement, requirement.negated());
  if (final && op.status === "success") {
    put("payOutSettle", finalAt, requirement, requirement.negated());
    put("payOutDebit", finalAt, base.negated(), zero);
    put("payOutCommission", finalAt, comm.negated(), zero);
  }
  return out;
}
