import type { PeriodQuery } from "@/lib/statements/periods";

const presets: [PeriodQuery["period"], string][] = [
  ["today", "Today"],
  ["yesterday", "Yesterday"],
  ["this-month", "This month"],
  ["last-month", "Last month"],
  ["last-30-days", "Last 30 days"],
  ["custom", "Custom"],
];

/** A plain GET form: the period, the zone its days are counted in, and the days of a custom period. */
export function PeriodPicker({ query }: { query: PeriodQuery }) {
  const input = "rounded-md border border-zinc-300 px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900";
  return (
    <form method="get" className="flex flex-wrap items-end gap-3 text-sm" aria-label="Statement period">
      <label className="flex flex-col gap-1">
        Period
        <select name="period" defaultValue={query.period} className={input}>
          {presets.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        Time zone
        <input name="tz" defaultValue={query.tz} className={input} />
      </label>
      <label className="flex flex-col gap-1">
        First day (custom)
        <input type="date" name="from" defaultValue={query.from} className={input} />
      </label>
      <label className="flex flex-col gap-1">
        Last day (custom)
        <input type="date" name="to" defaultValue={query.to} className={input} />
      </label>
      <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white">
        Show
      </button>
    </form>
  );
}
