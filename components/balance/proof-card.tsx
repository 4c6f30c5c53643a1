import { useLocale, useTranslations } from "next-intl";
import type { ProofStatus } from "@/lib/ledger/proof";
import { exactAmount } from "@/lib/statements/exact-amount";
import { formatDateTime } from "@/lib/time/zone";

/** The balance proof: the ledger's balance against GET /balance at the latest read. */
export function ProofCard({ proof, timeZone }: { proof: ProofStatus; timeZone: string }) {
  const t = useTranslations("balance.proof");
  const locale = useLocale();
  const when = (iso: string) => `${formatDateTime(new Date(iso), timeZone, locale)} ${timeZone}`;
  const n = (v: string) => exactAmount(v, locale);
  if (proof.state === "none") {
    return (
      <p className="text-sm text-zinc-500" data-testid="balance-proof">
        {t("notYet")}
      </p>
    );
  }
  const matches = proof.state === "matches";
  return (
    <section
      data-testid="balance-proof"
      data-state={proof.state}
      data-difference={proof.difference}
      className={`rounded-lg border p-3 text-sm ${matches ? "border-emerald-300 bg-emerald-50/50 dark:border-emerald-800 dark:bg-emerald-950/30" : "border-amber-400 bg-amber-50/50 dark:border-amber-600 dark:bg-amber-950/30"}`}
    >
      <p className="font-medium">
        {matches
          ? t("matches")
          : t("differs", {
              difference: n(proof.difference),
              currency: proof.currency,
              since: when(proof.since ?? proof.checkedAt),
            })}
      </p>
      <p className="text-zinc-600 dark:text-zinc-400">
        {t("figures", {
          platform: n(proof.platform),
          ledger: n(proof.ledger),
          currency: proof.currency,
          at: when(proof.checkedAt),
        })}
      </p>
      {!matches && (
        <p className="text-zinc-600 dark:text-zinc-400">
          {proof.inFlight.operations > 0 &&
            t("inFlight", {
              count: proof.inFlight.operations,
              held: n(proof.inFlight.held),
              currency: proof.currency,
            })}
          {t("explanation", {
            last: proof.lastCompleteReconciliationAt
              ? when(proof.lastCompleteReconciliationAt)
              : t("noneYet"),
          })}
        </p>
      )}
    </section>
  );
}
