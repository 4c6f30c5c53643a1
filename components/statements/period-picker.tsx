import { useTranslations } from "next-intl";
import { periodPresets, type PeriodQuery } from "@/lib/statements/periods";

/** A plain GET form: the period, the zone its days are counted in, and the days of a custom period. */
export function PeriodPicker({ query }: { query: PeriodQuery }) {
  const t = useTranslations("statements.picker");
  const input = "rounded-md border border-zinc-300 px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900";
  return (
    <form method="get" className="flex flex-wrap items-end gap-3 text-sm" aria-label={t("label")}>
      <label className="flex flex-col gap-1">
        {t("period")}
        <select name="period" defaultValue={query.period} className={input}>
          {periodPresets.map((value) => (
            <option key={value} value={value}>
              {t(`presets.${value}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        {t("timeZone")}
        <input name="tz" defaultValue={query.tz} className={input} />
      </label>
      <label className="flex flex-col gap-1">
        {t("from")}
        <input type="date" name="from" defaultValue={query.from} className={input} />
      </label>
      <label className="flex flex-col gap-1">
        {t("to")}
        <input type="date" name="to" defaultValue={query.to} className={input} />
      </label>
      <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white">
        {t("show")}
      </button>
    </form>
  );
}
