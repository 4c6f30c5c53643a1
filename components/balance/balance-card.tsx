import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { Money, Rate } from "@/components/money/money";
import type { CurrentBalance } from "@/lib/charts/current-balance";
import type { RateSource } from "@/lib/charts/queries";
import { formatDateTime } from "@/lib/time/zone";

/** The current balance in both currencies, the rate and where the rate comes from. */
export function BalanceCard({
  balance,
  rateSource,
  timeZone,
}: {
  balance: CurrentBalance;
  rateSource: RateSource;
  timeZone: string;
}) {
  const t = useTranslations("balance.card");
  const locale = useLocale();
  const when = (date: Date) => `${formatDateTime(date, timeZone, locale)} ${timeZone}`;
  return (
    <section
      className="grid gap-4 rounded-lg border border-zinc-200 bg-white p-4 sm:grid-cols-3 dark:border-zinc-800 dark:bg-zinc-900"
      data-testid="balance-card"
    >
      <Figure
        label={t("balanceIn", { currency: balance.currencyBalance })}
        amount={balance.amountInCurrencyBalance}
        currency={balance.currencyBalance}
      />
      <Figure
        label={t("inPaymentCurrency", { currency: balance.currencyPayment })}
        amount={balance.amountInCurrencyPayment}
        currency={balance.currencyPayment}
      />
      <div className="space-y-1 text-sm">
        <p>
          {t("rate")}{" "}
          <Rate rate={balance.exchangeRate} from={balance.currencyBalance} to={balance.currencyPayment} />
        </p>
        <p className="text-zinc-600 dark:text-zinc-400">
          {rateSource
            ? t.rich("rateSourceMirrored", {
                at: when(rateSource.completedAt),
                link: (chunks) => (
                  <Link href={`/operations/${rateSource.operationId}`} className="underline">
                    {chunks}
                  </Link>
                ),
                rate: () => <Rate rate={rateSource.exchangeRate} />,
              })
            : t("rateSourceNone")}
        </p>
        <p className="text-xs text-zinc-500">
          {t.rich("read", {
            at: when(new Date(balance.fetchedAt)),
            traceID: balance.traceID ?? "—",
            mono: (chunks) => <span className="font-mono break-all">{chunks}</span>,
          })}
        </p>
      </div>
    </section>
  );
}

/** One of the balance's two amounts, large, under what it is. */
function Figure({ label, amount, currency }: { label: string; amount: string; currency: string }) {
  return (
    <div>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{label}</p>
      <p className="text-2xl font-semibold">
        <Money amount={amount} currency={currency} />
      </p>
    </div>
  );
}
