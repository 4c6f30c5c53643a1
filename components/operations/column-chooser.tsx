import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { operationColumns, type OperationColumn } from "@/lib/operations/list/columns";

/** Column choice as a GET form carrying the current filter, so the choice lives in the URL too. */
export function ColumnChooser({ params, columns }: { params: URLSearchParams; columns: OperationColumn[] }) {
  const t = useTranslations("operations");
  const chosen = new Set(columns);
  const keep = [...params.entries()].filter(([key]) => key !== "cols" && key !== "after" && key !== "before");
  return (
    <details className="relative">
      <summary className="cursor-pointer rounded-md border border-zinc-300 px-3 py-2 text-sm dark:border-zinc-700">
        {t("columns.button")}
      </summary>
      <form
        method="get"
        action="/operations"
        className="absolute z-10 mt-1 w-56 space-y-1 rounded-md border border-zinc-200 bg-white p-3 shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
      >
        {keep.map(([key, value], i) => (
          <input key={`${key}-${i}`} type="hidden" name={key} value={value} />
        ))}
        {operationColumns.map((c) => (
          <label key={c.key} className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="cols" value={c.key} defaultChecked={chosen.has(c.key)} />
            {t(`column.${c.key}`)}
          </label>
        ))}
        <Button type="submit" className="mt-2 w-full">
          {t("columns.show")}
        </Button>
      </form>
    </details>
  );
}
