import Link from "next/link";
import { getLocale, getTimeZone, getTranslations } from "next-intl/server";
import { proofAttention } from "@/lib/ledger/proof";
import { exactAmount } from "@/lib/statements/exact-amount";
import { formatDateTime } from "@/lib/time/zone";

/** Home page: lasting differences between the ledger and the platform, and movements to annotate. */
export async function BalanceProofAttention() {
  const a = await proofAttention();
  if (a.differences.length === 0 && a.unannotatedMovements === 0) return null;
  const [t, locale, zone] = await Promise.all([getTranslations("home"), getLocale(), getTimeZone()]);
  return (
    <ul className="space-y-2 text-sm" aria-label={t("balanceProof")} data-testid="attention-balance-proof">
      {a.differences.map((d) => (
        <li
          key={d.id}
          data-testid="attention-balance-difference"
          className="rounded-lg border border-amber-400 bg-amber-50/50 p-3 dark:border-amber-600 dark:bg-amber-950/30"
        >
          <Link href="/balance" className="underline">
            {t("balanceDifference", {
              amount: exactAmount(d.amount, locale),
              currency: d.currency,
              time: formatDateTime(new Date(d.since), zone, locale),
              zone,
            })}
          </Link>
        </li>
      ))}
      {a.unannotatedMovements > 0 && (
        <li className="rounded-lg border border-amber-400 bg-amber-50/50 p-3 dark:border-amber-600 dark:bg-amber-950/30">
          <Link href="/balance" className="underline">
            {t("movementsToAnnotate", { count: a.unannotatedMovements })}
          </Link>
        </li>
      )}
    </ul>
  );
}
