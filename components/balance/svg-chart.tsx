// Small SVG charts for the balance page: lines (optionally stepped) and stacked bars over a category axis,
// with a grid, axis labels, a legend and a native tooltip (<title>) carrying the exact value text. They
// replace a charting library that alone weighed about 110 kB gzip on the page's first load.
// A screen reader reads the picture by its name and the values from a table that only it is shown.
// Values are JS numbers for drawing only; the tooltips show the exact strings they came from.
import { valueTicks } from "@/lib/charts/value-ticks";
// Words (series labels) arrive translated; numbers and days are written as `locale` writes them.
import type { Locale } from "@/lib/i18n/locales";

export type Series = { key: string; label: string; color: string };
export type Datum = { x: string; values: Record<string, number | null>; exact?: Record<string, string> };

// Drawn in a 640-unit-wide box (or 1280 for a chart across the page), scaled to the container's width.
const H = 240;
const PAD = { left: 64, right: 12, top: 10, bottom: 28 };
const plotH = H - PAD.top - PAD.bottom;
const plotWidth = (W: number) => W - PAD.left - PAD.right;

const compact: Record<Locale, Intl.NumberFormat> = {
  en: new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 2 }),
  ru: new Intl.NumberFormat("ru", { notation: "compact", maximumFractionDigits: 2 }),
};

/** "2026-11-20" or "2026-11-20 10:00" as the language writes it: ru "20.11.2026 10:00". */
function fullX(x: string, locale: Locale): string {
  if (locale === "en") return x;
  return x.replace(/^(\d{4})-(\d{2})-(\d{2})/, "$3.$2.$1");
}

/** The short axis label: the day without the year (en "11-20", ru "20.11") and the time when there is one. */
function shortX(x: string, locale: Locale): string {
  const short = x.length > 10 ? x.slice(5, 16).replace("T", " ") : x.slice(5);
  if (locale === "en") return short;
  return short.replace(/^(\d{2})-(\d{2})/, "$2.$1");
}

function Frame({
  label,
  W,
  data,
  ticks,
  y,
  unit,
  locale,
  children,
}: {
  label: string;
  W: number;
  data: Datum[];
  ticks: number[];
  y: (v: number) => number;
  unit: string;
  locale: Locale;
  children: React.ReactNode;
}) {
  const every = Math.max(1, Math.ceil(data.length / (W / 80)));
  const step = plotWidth(W) / Math.max(1, data.length);
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" role="img" aria-label={label} fontSize={11}>
      {ticks.map((t) => (
        <g key={t}>
          <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} stroke="#d4d4d8" strokeDasharray="3 3" />
          <text x={PAD.left - 6} y={y(t)} dy="0.32em" textAnchor="end" fill="#71717a">
            {compact[locale].format(t)}
            {unit}
          </text>
        </g>
      ))}
      {data.map((d, i) =>
        i % every === 0 ? (
          <text key={d.x} x={PAD.left + step * (i + 0.5)} y={H - 8} textAnchor="middle" fill="#71717a">
            {shortX(d.x, locale)}
          </text>
        ) : null,
      )}
      {children}
    </svg>
  );
}

function Legend({ series }: { series: Series[] }) {
  return (
    <ul className="flex flex-wrap gap-3 text-xs text-zinc-600 dark:text-zinc-400">
      {series.map((s) => (
        <li key={s.key} className="flex items-center gap-1">
          {/* an SVG fill, not a style attribute: the Content-Security-Policy refuses inline styles */}
          <svg className="size-2.5" viewBox="0 0 10 10" aria-hidden="true">
            <circle cx="5" cy="5" r="5" fill={s.color} />
          </svg>
          {s.label}
        </li>
      ))}
    </ul>
  );
}

function scale(values: number[], floorAtZero: boolean) {
  const min = floorAtZero ? Math.min(0, ...values) : Math.min(...values);
  const ticks = valueTicks(min, Math.max(...values, min));
  const lo = ticks[0]!;
  const hi = ticks[ticks.length - 1]!;
  const y = (v: number) => PAD.top + plotH - ((v - lo) / (hi - lo || 1)) * plotH;
  return { ticks, y };
}

const valueText = (d: Datum, s: Series, unit: string) => {
  const value = d.exact?.[s.key] ?? d.values[s.key];
  return value === null || value === undefined ? "—" : `${value}${unit}`;
};

const tooltip = (d: Datum, s: Series, unit: string, locale: Locale) =>
  `${fullX(d.x, locale)} · ${s.label}: ${valueText(d, s, unit)}`;

/** The chart's values for a screen reader (visually hidden): a row per point of the axis, a column per series. */
function ValuesTable({
  label,
  data,
  series,
  unit,
  locale,
}: {
  label: string;
  data: Datum[];
  series: Series[];
  unit: string;
  locale: Locale;
}) {
  return (
    // in a box of its own: a table is never narrower than its content, whatever its width says, and
    // would widen a phone's page; the box clips it
    <div className="sr-only">
      <table>
        <caption>{label}</caption>
        <thead>
          <tr>
            <td />
            {series.map((s) => (
              <th key={s.key} scope="col">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.map((d) => (
            <tr key={d.x}>
              <th scope="row">{fullX(d.x, locale)}</th>
              {series.map((s) => (
                <td key={s.key}>{valueText(d, s, unit)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A value the line can place: a missing one (null) is skipped, so is one no axis holds (NaN, ±Infinity). */
const drawable = (v: number | null | undefined): v is number =>
  v !== null && v !== undefined && Number.isFinite(v);

/** A line chart; nothing (null) when no point has a value, for the caller to show its empty state. */
export function LineSvgChart({
  label,
  data,
  series,
  unit = "",
  step = false,
  legend = true,
  wide = false,
  locale = "en",
}: {
  /** the chart's name (its caption), for a screen reader */
  label: string;
  data: Datum[];
  series: Series[];
  unit?: string;
  step?: boolean;
  legend?: boolean;
  locale?: Locale;
  /** Spans the page: drawn twice as wide so that text keeps its size. */
  wide?: boolean;
}) {
  const W = wide ? 1280 : 640;
  const values = data.flatMap((d) => series.map((s) => d.values[s.key])).filter(drawable);
  // Nothing to draw: an axis computed from no values is NaN everywhere. The caller shows its empty state.
  if (values.length === 0) return null;
  const { ticks, y } = scale(values, false);
  const xStep = plotWidth(W) / Math.max(1, data.length);
  const x = (i: number) => PAD.left + xStep * (i + 0.5);
  return (
    <div className="space-y-1">
      <Frame label={label} W={W} data={data} ticks={ticks} y={y} unit={unit} locale={locale}>
        {series.map((s) => {
          // nulls are skipped (the line connects across them)
          const points = data.flatMap((d, i) => {
            const v = d.values[s.key];
            return drawable(v) ? [{ i, v, d }] : [];
          });
          const path = points
            .map((p, k) => {
              const prev = points[k - 1];
              if (!prev) return `M${x(p.i)},${y(p.v)}`;
              return step ? `H${x(p.i)}V${y(p.v)}` : `L${x(p.i)},${y(p.v)}`;
            })
            .join("");
          return (
            <g key={s.key}>
              <path d={path} fill="none" stroke={s.color} strokeWidth={1.5} />
              {points.map((p) => (
                <circle key={p.i} cx={x(p.i)} cy={y(p.v)} r={points.length > 60 ? 1.5 : 3} fill={s.color}>
                  <title>{tooltip(p.d, s, unit, locale)}</title>
                </circle>
              ))}
            </g>
          );
        })}
      </Frame>
      {legend && <Legend series={series} />}
      <ValuesTable label={label} data={data} series={series} unit={unit} locale={locale} />
    </div>
  );
}

export function StackedBarSvgChart({
  label,
  data,
  series,
  locale = "en",
}: {
  label: string;
  data: Datum[];
  series: Series[];
  locale?: Locale;
}) {
  const W = 640;
  const totals = data.map((d) => series.reduce((sum, s) => sum + (d.values[s.key] ?? 0), 0));
  const { ticks, y } = scale(totals, true);
  const xStep = plotWidth(W) / Math.max(1, data.length);
  const barW = Math.max(2, xStep * 0.7);
  return (
    <div className="space-y-1">
      <Frame label={label} W={W} data={data} ticks={ticks} y={y} unit="" locale={locale}>
        {data.map((d, i) => {
          let base = 0;
          return (
            <g key={d.x}>
              {series.map((s) => {
                const v = d.values[s.key] ?? 0;
                if (v === 0) return null;
                const top = base + v;
                const rect = (
                  <rect
                    key={s.key}
                    x={PAD.left + xStep * i + (xStep - barW) / 2}
                    y={y(top)}
                    width={barW}
                    height={Math.max(0.5, y(base) - y(top))}
                    fill={s.color}
                  >
                    <title>{tooltip(d, s, "", locale)}</title>
                  </rect>
                );
                base = top;
                return rect;
              })}
            </g>
          );
        })}
      </Frame>
      <Legend series={series} />
      <ValuesTable label={label} data={data} series={series} unit="" locale={locale} />
    </div>
  );
}
