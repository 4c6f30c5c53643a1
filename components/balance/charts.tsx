// Balance page charts, rendered on the server as SVG (no chart code reaches the browser). Amounts arrive
// as exact decimal strings and are converted to numbers here, at the last step, for drawing only;
// tooltips show the exact strings.
import { useLocale, useTranslations } from "next-intl";
import type { BalancePoint, SuccessRateRow, TimeToFinalRow, VolumeRow } from "@/lib/charts/queries";
import type { Locale } from "@/lib/i18n/locales";
import type { DailyClosing } from "@/lib/ledger/balance";
import { exactAmount } from "@/lib/statements/exact-amount";
import { LineSvgChart, StackedBarSvgChart, type Datum, type Series } from "./svg-chart";

export type ChartsData = {
  balance: BalancePoint[];
  /** Daily closing balances from the ledger; the platform's snapshots are drawn over them as check points. */
  ledger?: { currency: string | null; days: DailyClosing[] };
  volume: VolumeRow[];
  successRate: SuccessRateRow[];
  timeToFinal: TimeToFinalRow[];
};

/** Display-only conversion of an exact decimal string for plotting. */
const plot = (value: string | null) => (value === null ? null : Number(value));

/** The exact amount for a tooltip, as the language writes numbers. */
const exact = (value: string, currency: string, locale: Locale) =>
  `${exactAmount(value, locale)} ${currency}`;

const OTHER_STATUS_COLOR = "#71717a";
const statusColors: Record<string, string> = {
  success: "#059669",
  failed: "#dc2626",
  in_progress: "#4f46e5",
  created: "#0284c7",
  booking: "#7c3aed",
  pending_retry: "#d97706",
  precreated: "#71717a",
};

function ChartBox({ title, children, testId }: { title: string; children: React.ReactNode; testId: string }) {
  return (
    <figure
      className="space-y-2 rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900"
      data-testid={testId}
    >
      <figcaption className="text-sm font-medium">{title}</figcaption>
      <div className="w-full min-w-0">{children}</div>
    </figure>
  );
}

function Empty({ title }: { title: string }) {
  const t = useTranslations("balance.charts");
  return (
    <p className="rounded-lg border border-dashed border-zinc-300 p-4 text-sm text-zinc-500 dark:border-zinc-700">
      {t("noData", { title })}
    </p>
  );
}

function BalanceHistory({ points, ledger }: { points: BalancePoint[]; ledger?: ChartsData["ledger"] }) {
  const t = useTranslations("balance.charts");
  const locale = useLocale();
  if (ledger && ledger.days.length > 0) return <LedgerHistory points={points} ledger={ledger} />;
  if (points.length === 0) return <Empty title={t("balanceHistory")} />;
  const currency = points[points.length - 1]!.currencyBalance;
  const data: Datum[] = points.map((p) => ({
    x: p.at,
    values: { balance: plot(p.amountInCurrencyBalance) },
    exact: { balance: exact(p.amountInCurrencyBalance, currency, locale) },
  }));
  const title = t("balanceHistoryIn", { currency });
  return (
    <ChartBox title={title} testId="chart-balance">
      <LineSvgChart
        label={title}
        data={data}
        series={[{ key: "balance", label: t("series.balance"), color: "#4f46e5" }]}
        step
        wide
        legend={false}
        locale={locale}
      />
    </ChartBox>
  );
}

/** Ledger closings per day, with the last platform snapshot of each day as a dot on the same axis. */
function LedgerHistory({
  points,
  ledger,
}: {
  points: BalancePoint[];
  ledger: NonNullable<ChartsData["ledger"]>;
}) {
  const t = useTranslations("balance.charts");
  const locale = useLocale();
  const platformByDay = new Map<string, string>();
  for (const p of points) platformByDay.set(p.at.slice(0, 10), p.amountInCurrencyBalance);
  const currency = ledger.currency ?? "";
  const data: Datum[] = ledger.days.map((d) => {
    const platform = platformByDay.get(d.day) ?? null;
    return {
      x: d.day,
      values: { ledger: plot(d.available), platform: plot(platform) },
      exact: {
        ledger: exact(d.available, currency, locale),
        ...(platform === null ? {} : { platform: exact(platform, currency, locale) }),
      },
    };
  });
  const title = t("ledgerHistory", { currency });
  return (
    <ChartBox title={title} testId="chart-balance">
      <LineSvgChart
        label={title}
        data={data}
        series={[
          { key: "ledger", label: t("series.ledger"), color: "#4f46e5" },
          { key: "platform", label: t("series.platform"), color: "#059669" },
        ]}
        step
        wide
        locale={locale}
      />
    </ChartBox>
  );
}

function Volume({ rows, type }: { rows: VolumeRow[]; type: "payIn" | "payOut" }) {
  const t = useTranslations("balance.charts");
  const locale = useLocale();
  const mine = rows.filter((r) => r.typeOperation === type);
  const label = type === "payIn" ? t("payIns") : t("payOuts");
  if (mine.length === 0) return <Empty title={t("dailyVolume", { type: label })} />;
  const statusLabel = (status: string) =>
    t.has(`statuses.${status}` as "statuses.success")
      ? t(`statuses.${status}` as "statuses.success")
      : status;
  const currencies = [...new Set(mine.map((r) => r.currency))];
  return (
    <>
      {currencies.map((currency) => {
        const ofCurrency = mine.filter((r) => r.currency === currency);
        const series: Series[] = [...new Set(ofCurrency.map((r) => r.status))].map((s) => ({
          key: s,
          label: statusLabel(s),
          color: statusColors[s] ?? OTHER_STATUS_COLOR,
        }));
        const days = new Map<string, Datum>();
        for (const r of ofCurrency) {
          const day = days.get(r.day) ?? { x: r.day, values: {}, exact: {} };
          day.values[r.status] = plot(r.amount) ?? 0;
          day.exact![r.status] = exact(r.amount, currency, locale);
          days.set(r.day, day);
        }
        const title = t("volumeByStatus", { type: label, currency });
        return (
          <ChartBox key={currency} title={title} testId={`chart-volume-${type}`}>
            <StackedBarSvgChart label={title} data={[...days.values()]} series={series} locale={locale} />
          </ChartBox>
        );
      })}
    </>
  );
}

/** Whether any point of a line chart's data has a value to draw (a day's rate is null without final operations). */
const hasValue = (data: Datum[]) => data.some((d) => Object.values(d.values).some((v) => v !== null));

function byDay<T extends { day: string; typeOperation: string }>(rows: T[], value: (r: T) => number | null) {
  const days = new Map<string, Datum>();
  for (const r of rows) {
    const day = days.get(r.day) ?? { x: r.day, values: { payIn: null, payOut: null } };
    day.values[r.typeOperation] = value(r);
    days.set(r.day, day);
  }
  return [...days.values()];
}

export default function BalanceCharts({ data }: { data: ChartsData }) {
  const t = useTranslations("balance.charts");
  const locale = useLocale();
  const typeSeries: Series[] = [
    { key: "payIn", label: t("series.payIns"), color: "#059669" },
    { key: "payOut", label: t("series.payOuts"), color: "#4f46e5" },
  ];
  const successRate = byDay(data.successRate, (r) => plot(r.rate));
  const timeToFinal = byDay(data.timeToFinal, (r) => {
    const seconds = plot(r.medianSeconds);
    return seconds === null ? null : Math.round((seconds / 60) * 10) / 10;
  });
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      <div className="lg:col-span-2">
        <BalanceHistory points={data.balance} ledger={data.ledger} />
      </div>
      <Volume rows={data.volume} type="payIn" />
      <Volume rows={data.volume} type="payOut" />
      {!hasValue(successRate) ? (
        <Empty title={t("successRate")} />
      ) : (
        <ChartBox title={t("successRateTitle")} testId="chart-success-rate">
          <LineSvgChart
            label={t("successRateTitle")}
            data={successRate}
            series={typeSeries}
            unit="%"
            locale={locale}
          />
        </ChartBox>
      )}
      {!hasValue(timeToFinal) ? (
        <Empty title={t("timeToFinal")} />
      ) : (
        <ChartBox title={t("timeToFinalTitle")} testId="chart-time-to-final">
          <LineSvgChart
            label={t("timeToFinalTitle")}
            data={timeToFinal}
            series={typeSeries}
            locale={locale}
          />
        </ChartBox>
      )}
    </div>
  );
}
