import "server-only";
import { getDb } from "@/lib/db";
import { KNOWN_MONO_BANK_METHODS } from "@/lib/platform/payment-methods";

/** Pay-out methods of the spec the form offers: the three RUB methods and the known mono-bank pairs. */
export const PAYOUT_METHOD_CHOICES: readonly string[] = [
  "toCard",
  "sbp",
  "toAccount",
  ...KNOWN_MONO_BANK_METHODS,
];

export type MethodChoices = {
  /** Methods the form offers. */
  allowed: string[];
  /** Methods the platform refused as outside the tariff, with no successful pay-out since. */
  notInTariff: Array<{ method: string; refusedAt: Date }>;
  /** Methods with a successful mirrored pay-out: known to be in the tariff. */
  confirmed: string[];
};

/**
 * The tariff is not exposed by the API, so it is learned: a method counts as outside the tariff when the
 * platform refused a console pay-out with noSuitableTariffForRequest and no pay-out with that method
 * succeeded afterwards. Such methods are left out of the form (and refused on the server) until then;
 * an admin who had the tariff changed can clear it by a successful pay-out created outside the console,
 * or the evidence expires after TARIFF_EVIDENCE_DAYS.
 */
export const TARIFF_EVIDENCE_DAYS = 7;

export async function payoutMethodChoices(now = new Date()): Promise<MethodChoices> {
  const db = getDb();
  const since = new Date(now.getTime() - TARIFF_EVIDENCE_DAYS * 86_400_000);
  const [refusals, successes] = await Promise.all([
    db.payoutRequest.groupBy({
      by: ["paymentMethod"],
      where: { lastCodeError: "noSuitableTariffForRequest", updatedAt: { gte: since } },
      _max: { updatedAt: true },
    }),
    db.operation.groupBy({
      by: ["paymentMethod"],
      where: { typeOperation: "payOut", status: "success", paymentMethod: { not: null } },
      _max: { dateUpdated: true },
    }),
  ]);
  const lastSuccess = new Map(successes.map((s) => [s.paymentMethod ?? "", s._max.dateUpdated]));
  const notInTariff = refusals
    .map((r) => ({ method: r.paymentMethod, refusedAt: r._max.updatedAt ?? now }))
    .filter((r) => {
      const success = lastSuccess.get(r.method);
      return !success || success < r.refusedAt;
    });
  const excluded = new Set(notInTariff.map((r) => r.method));
  return {
    allowed: PAYOUT_METHOD_CHOICES.filter((m) => !excluded.has(m)),
    notInTariff,
    confirmed: [...lastSuccess.keys()].filter((m) => m && !excluded.has(m)),
  };
}
