import Link from "next/link";
import { useTranslations } from "next-intl";
import { LABELLED_METHODS, paymentMethodLabel, statusLabel, typeTitle } from "@/components/operations/labels";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { OPERATION_STATUSES } from "@/lib/platform/schemas";

export type FilterFormValues = Partial<Record<string, string>> & { status?: string[] };

const commonZones = [
  "UTC",
  "Europe/Moscow",
  "Europe/London",
  "Europe/Berlin",
  "Asia/Almaty",
  "Asia/Baku",
  "Asia/Dubai",
  "America/New_York",
];

const DATE_FIELDS = ["from", "to"] as const;
const AMOUNT_FIELDS = ["amountMin", "amountMax"] as const;

/**
 * The list filter as a plain GET form: the URL is the state, so every filter is shareable. `zone` is
 * the time zone an empty field stands for (the user's own).
 */
export function FiltersForm({
  values,
  errors,
  zone,
}: {
  values: FilterFormValues;
  errors: Record<string, string[]>;
  zone: string;
}) {
  const t = useTranslations("operations.filters");
  const names = useTranslations("statuses");
  const common = useTranslations("common");
  const statuses = new Set(values.status ?? []);
  // A method the list does not name (typed into the URL) stays chosen.
  const methods: string[] =
    values.method && !(LABELLED_METHODS as readonly string[]).includes(values.method)
      ? [...LABELLED_METHODS, values.method]
      : [...LABELLED_METHODS];
  return (
    <form method="get" action="/operations" aria-label={t("label")} className="space-y-3">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <div className="sm:col-span-2">
          <Field
            label={t("search")}
            name="q"
            type="search"
            defaultValue={values.q}
            placeholder={t("searchPlaceholder")}
            errors={errors.q}
          />
        </div>
        <Select label={t("type")} name="type" defaultValue={values.type ?? ""} errors={errors.type}>
          <option value="">{t("any")}</option>
          <option value="payIn">{typeTitle(names, "payIn")}</option>
          <option value="payOut">{typeTitle(names, "payOut")}</option>
        </Select>
        <Select label={t("method")} name="method" defaultValue={values.method ?? ""} errors={errors.method}>
          <option value="">{t("any")}</option>
          {methods.map((m) => (
            <option key={m} value={m}>
              {paymentMethodLabel(names, m)}
            </option>
          ))}
        </Select>
        <Field
          label={t("currency")}
          name="currency"
          defaultValue={values.currency}
          placeholder="RUB"
          errors={errors.currency}
        />
        {DATE_FIELDS.map((k) => (
          <Field key={k} label={t(k)} name={k} type="date" defaultValue={values[k]} errors={errors[k]} />
        ))}
        <Field
          label={t("timeZone")}
          name="tz"
          defaultValue={values.tz ?? zone}
          list="time-zones"
          errors={errors.tz}
        />
        <datalist id="time-zones">
          {[...new Set([zone, ...commonZones])].map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        {AMOUNT_FIELDS.map((k) => (
          <Field
            key={k}
            label={t(k)}
            name={k}
            inputMode="decimal"
            defaultValue={values[k]}
            errors={errors[k]}
          />
        ))}
      </div>
      <fieldset aria-describedby={errors.status ? "status-error" : undefined}>
        <legend className="text-sm font-medium">{t("statuses")}</legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {OPERATION_STATUSES.map((s) => (
            <label key={s} className="flex items-center gap-1 text-sm">
              <input type="checkbox" name="status" value={s} defaultChecked={statuses.has(s)} />
              {statusLabel(names, s)}
            </label>
          ))}
        </div>
        {errors.status && (
          <p id="status-error" className="text-sm text-red-600 dark:text-red-400">
            {errors.status.join(" ")}
          </p>
        )}
      </fieldset>
      <label className="flex items-center gap-1 text-sm">
        <input type="checkbox" name="stuck" value="1" defaultChecked={values.stuck === "1"} />
        {t("stuckOnly")}
      </label>
      {errors.stuck && <p className="text-sm text-red-600 dark:text-red-400">{errors.stuck.join(" ")}</p>}
      {values.cols && <input type="hidden" name="cols" value={values.cols} />}
      {values.size && <input type="hidden" name="size" value={values.size} />}
      <div className="flex gap-2">
        <Button type="submit">{common("apply")}</Button>
        <Link
          href="/operations"
          className="inline-flex items-center rounded-md px-3 py-2 text-sm text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
        >
          {t("clear")}
        </Link>
      </div>
    </form>
  );
}
