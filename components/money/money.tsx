import { useLocale } from "next-intl";
import type { Locale } from "@/lib/i18n/locales";
import { formatMoney, formatRate } from "@/lib/money/format";

/** An amount with its currency, from a decimal string, in the reader's language; absent shows a dash. */
export function Money({ amount, currency }: { amount: string | null; currency: string | null }) {
  const locale = useLocale() as Locale;
  if (amount === null) return <span className="text-zinc-400">—</span>;
  return (
    <span className="whitespace-nowrap tabular-nums">{formatMoney(amount, currency ?? "", { locale })}</span>
  );
}

/** "1 USDT = 95.5 RUB" when both currencies are known. */
export function Rate({ rate, from, to }: { rate: string | null; from?: string | null; to?: string | null }) {
  const locale = useLocale() as Locale;
  if (rate === null) return <span className="text-zinc-400">—</span>;
  return (
    <span className="whitespace-nowrap tabular-nums">
      {formatRate(rate, { locale, from: from ?? undefined, to: to ?? undefined })}
    </span>
  );
}
