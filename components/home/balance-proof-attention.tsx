import Link from "next/link";
import { getLocale, getTimeZone, getTranslations } from "next-intl/server";
import { proofAttention } from "@/lib/ledger/proof";
import { getSettings } from "@/lib/settings/settings";
import { formatDateTime } from "@/lib/time/zone";

/** Home page: a lasting difference between the ledger and the platform, and movements to annotate. */
export async function BalanceProofAttention() {
  const { balanceDifferenceMinutes } = await getSettings();
  const a = await proofAttention(balanceDifferenceMinutes);
  if (!a.differsSince && a.unannotatedMovements === 0) return null;
  const [t, locale, zone] = await Promise.all([getTranslations("home"), getLocale(), getTimeZone()]);
  return (
    <ul className="space-y-2 text-sm" aria-label={t("balanceProof")} data-testid="attention-balance-proof">
      {a.differsSince && (
        <li className="rounded-lg border border-amber-400 bg-amber-50/50 p-3 dark:border-amber-600 dark:bg-amber-950/30">
          <Link href="/balance" className="underline">
            {t("ledgerDiffers", { time: formatDateTime(new Date(a.differsSince), zone, locale), zone })}
          </Link>
        </li>
      )}
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
