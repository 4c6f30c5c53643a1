"use client";
// Recharts plots JS numbers: amounts arrive as exact decimal strings and are converted here, at the last
// step, for drawing only. Tooltips show the exact strings.
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { BalancePoint, SuccessRateRow, TimeToFinalRow, VolumeRow } from "@/lib/charts/queries";
import type { DailyClosing } from "@/lib/ledger/balance";

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

const statusColors: Record<string, string> = {
  success: "#059669",
  failed: "#dc2626",
  in_progress: "#4f46e5",
  created: "#0284c7",
  booking: "#7c3aed",
  pending_retry: "#d97706",
  precreated: "#71717a",
};

function ChartBox({
  title,
  children,
  testId,
}: {
  title: string;
  children: React.ReactElement;
  testId: string;
}) {
  return (
    <figure
      className="space-y-2 rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900"
      data-testid={testId}
    >
      <figcaption className="text-sm font-medium">{title}</figcaption>
      <div className="h-64 w-full min-w-0">
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

function Empty({ title }: { title: string }) {
  return (
    <p className="rounded-lg border border-dashed border-zinc-300 p-4 text-sm text-zinc-500 dark:border-zinc-700">
      {title}: no data in this period.
    </p>
  );
}

function BalanceHistory({ points, ledger }: { points: BalancePoint[]; ledger?: ChartsData["ledger"] }) {
  const title = "Balance history";
  if (ledger && ledger.days.length > 0) return <LedgerHistory points={points} ledger={ledger} />;
  if (points.length === 0) return <Empty title={title} />;
  const currency = points[points.length - 1]!.currencyBalance;
  const data = points.map((p) => ({
    at: p.at,
    balance: plot(p.amountInCurrencyBalance),
    exact: p.amountInCurrencyBalance,
  }));
  return (
    <ChartBox title={`${title} (${currency})`} testId="chart-balance">
      <LineChart data={data}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="at" tick={{ fontSize: 11 }} minTickGap={24} />
        <YAxis tick={{ fontSize: 11 }} width={70} />
        <Tooltip formatter={(_v, _n, item) => [(item.payload as { exact: string }).exact, currency]} />
        <Line type="stepAfter" dataKey="balance" stroke="#4f46e5" dot={false} isAnimationActive={false} />
      </LineChart>
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
  const platformByDay = new Map<string, string>();
  for (const p of points) platformByDay.set(p.at.slice(0, 10), p.amountInCurrencyBalance);
  const data = ledger.days.map((d) => ({
    at: d.day,
    ledger: plot(d.available),
    platform: plot(platformByDay.get(d.day) ?? null),
    exact: d.available,
  }));
  const currency = ledger.currency ?? "";
  return (
    <ChartBox title={`Balance history from the ledger (${currency}), daily closing`} testId="chart-balance">
      <LineChart data={data}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="at" tick={{ fontSize: 11 }} minTickGap={24} />
        <YAxis tick={{ fontSize: 11 }} width={70} />
        <Tooltip />
        <Legend />
        <Line
          name="Ledger"
          type="stepAfter"
          dataKey="ledger"
          stroke="#4f46e5"
          dot={false}
          isAnimationActive={false}
        />
        <Line
          name="Platform (read)"
          dataKey="platform"
          stroke="none"
          dot={{ r: 3, fill: "#059669" }}
          isAnimationActive={false}
        />
      </LineChart>
    </ChartBox>
  );
}

function Volume({ rows, type }: { rows: VolumeRow[]; type: "payIn" | "payOut" }) {
  const mine = rows.filter((r) => r.typeOperation === type);
  const label = type === "payIn" ? "Pay-ins" : "Pay-outs";
  if (mine.length === 0) return <Empty title={`${label}: daily volume`} />;
  const currencies = [...new Set(mine.map((r) => r.currency))];
  return (
    <>
      {currencies.map((currency) => {
        const statuses = [...new Set(mine.filter((r) => r.currency === currency).map((r) => r.status))];
        const days = new Map<string, Record<string, number | string>>();
        for (const r of mine.filter((x) => x.currency === currency)) {
          const day = days.get(r.day) ?? { day: r.day };
          day[r.status] = plot(r.amount) ?? 0;
          day[`${r.status}Exact`] = r.amount;
          days.set(r.day, day);
        }
        return (
          <ChartBox
            key={currency}
            title={`${label}: daily volume by status (${currency})`}
            testId={`chart-volume-${type}`}
          >
            <BarChart data={[...days.values()]}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="day" tick={{ fontSize: 11 }} />
              <YAxis tick={{ fontSize: 11 }} width={70} />
              <Tooltip
                formatter={(_v, name, item) => [
                  String((item.payload as Record<string, string>)[`${String(name)}Exact`] ?? ""),
                  String(name),
                ]}
              />
              <Legend />
              {statuses.map((s) => (
                <Bar
                  key={s}
                  dataKey={s}
                  stackId="status"
                  fill={statusColors[s] ?? "#71717a"}
                  isAnimationActive={false}
                />
              ))}
            </BarChart>
          </ChartBox>
        );
      })}
    </>
  );
}

function byDay<T extends { day: string; typeOperation: string }>(rows: T[], value: (r: T) => number | null) {
  const days = new Map<string, Record<string, number | string | null>>();
  for (const r of rows) {
    const day = days.get(r.day) ?? { day: r.day };
    day[r.typeOperation] = value(r);
    days.set(r.day, day);
  }
  return [...days.values()];
}

function TypeLines({ unit }: { unit: string }) {
  return (
    <>
      <CartesianGrid strokeDasharray="3 3" />
      <XAxis dataKey="day" tick={{ fontSize: 11 }} />
      <YAxis tick={{ fontSize: 11 }} width={50} unit={unit} />
      <Tooltip />
      <Legend />
      <Line dataKey="payIn" name="pay-ins" stroke="#059669" connectNulls isAnimationActive={false} />
      <Line dataKey="payOut" name="pay-outs" stroke="#4f46e5" connectNulls isAnimationActive={false} />
    </>
  );
}

export default function BalanceCharts({ data }: { data: ChartsData }) {
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      <div className="lg:col-span-2">
        <BalanceHistory points={data.balance} ledger={data.ledger} />
      </div>
      <Volume rows={data.volume} type="payIn" />
      <Volume rows={data.volume} type="payOut" />
      {data.successRate.length === 0 ? (
        <Empty title="Success rate" />
      ) : (
        <ChartBox title="Success rate of final operations (%)" testId="chart-success-rate">
          <LineChart data={byDay(data.successRate, (r) => plot(r.rate))}>
            {TypeLines({ unit: "%" })}
          </LineChart>
        </ChartBox>
      )}
      {data.timeToFinal.length === 0 ? (
        <Empty title="Median time to a final status" />
      ) : (
        <ChartBox title="Median time to a final status (minutes)" testId="chart-time-to-final">
          <LineChart data={byDay(data.timeToFinal, (r) => (plot(r.medianSeconds) ?? 0) / 60)}>
            {TypeLines({ unit: "" })}
          </LineChart>
        </ChartBox>
      )}
    </div>
  );
}
