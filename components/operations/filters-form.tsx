import Link from "next/link";
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

/** The list filter as a plain GET form: the URL is the state, so every filter is shareable. */
export function FiltersForm({
  values,
  errors,
}: {
  values: FilterFormValues;
  errors: Record<string, string[]>;
}) {
  const statuses = new Set(values.status ?? []);
  return (
    <form method="get" action="/operations" aria-label="Filters" className="space-y-3">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <div className="sm:col-span-2">
          <Field
            label="Search"
            name="q"
            type="search"
            defaultValue={values.q}
            placeholder="Operation id, merchant id, traceID or last 4 digits"
            errors={errors.q}
          />
        </div>
        <Select label="Type" name="type" defaultValue={values.type ?? ""} errors={errors.type}>
          <option value="">Any</option>
          <option value="payIn">Pay-in</option>
          <option value="payOut">Pay-out</option>
        </Select>
        <Field
          label="Method"
          name="method"
          defaultValue={values.method}
          placeholder="toCard"
          errors={errors.method}
        />
        <Field
          label="Currency"
          name="currency"
          defaultValue={values.currency}
          placeholder="RUB"
          errors={errors.currency}
        />
        <Field label="From" name="from" type="date" defaultValue={values.from} errors={errors.from} />
        <Field label="To (whole day)" name="to" type="date" defaultValue={values.to} errors={errors.to} />
        <Field
          label="Time zone"
          name="tz"
          defaultValue={values.tz ?? "UTC"}
          list="time-zones"
          errors={errors.tz}
        />
        <datalist id="time-zones">
          {commonZones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        <Field
          label="Amount from"
          name="amountMin"
          inputMode="decimal"
          defaultValue={values.amountMin}
          errors={errors.amountMin}
        />
        <Field
          label="Amount to"
          name="amountMax"
          inputMode="decimal"
          defaultValue={values.amountMax}
          errors={errors.amountMax}
        />
      </div>
      <fieldset aria-describedby={errors.status ? "status-error" : undefined}>
        <legend className="text-sm font-medium">Statuses</legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {OPERATION_STATUSES.map((s) => (
            <label key={s} className="flex items-center gap-1 text-sm">
              <input type="checkbox" name="status" value={s} defaultChecked={statuses.has(s)} />
              {s}
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
        Only stuck operations (no final status for too long)
      </label>
      {errors.stuck && <p className="text-sm text-red-600 dark:text-red-400">{errors.stuck.join(" ")}</p>}
      {values.cols && <input type="hidden" name="cols" value={values.cols} />}
      {values.size && <input type="hidden" name="size" value={values.size} />}
      <div className="flex gap-2">
        <Button type="submit">Apply</Button>
        <Link
          href="/operations"
          className="inline-flex items-center rounded-md px-3 py-2 text-sm text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
        >
          Clear
        </Link>
      </div>
    </form>
  );
}
