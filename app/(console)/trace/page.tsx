import type { Metadata } from "next";
import { getLocale, getTimeZone, getTranslations } from "next-intl/server";
import { CopyBundleButton } from "@/components/trace/copy-bundle-button";
import { TraceResults } from "@/components/trace/trace-results";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { requirePagePermission } from "@/lib/auth/session";
import { getEnv } from "@/lib/env";
import { buildSupportBundle } from "@/lib/trace/bundle";
import { lookupTrace, parseTraceQuery } from "@/lib/trace/lookup";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("trace");
  return { title: t("title") };
}

/** How many operations are shown below a note, as its sentence's select argument. */
const operationsCount = (n: number) => (n === 0 ? "none" : n === 1 ? "one" : "other");

export default async function TracePage({
  searchParams,
}: {
  searchParams: Promise<{ q?: string | string[] }>;
}) {
  const user = await requirePagePermission("trace.read");
  const [t, locale, zone] = await Promise.all([getTranslations("trace"), getLocale(), getTimeZone()]);
  const { q: raw } = await searchParams;
  const parsed = parseTraceQuery(typeof raw === "string" ? raw : "", locale);
  const q = parsed.q;
  const error = parsed.ok ? null : parsed.message;
  // who looks decides what is withheld (a call's balance without balance.read), for the bundle too
  const lookup = parsed.ok && q ? await lookupTrace(q, { role: user.role, locale }) : null;
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <form method="get" action="/trace" className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1">
          <Field
            label={t("queryLabel")}
            name="q"
            defaultValue={q}
            required
            errors={error ? [error] : undefined}
          />
        </div>
        <Button type="submit">{t("lookUp")}</Button>
      </form>
      {lookup && lookup.matchedBy === null && (
        <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
          {t.rich("nothingFound", {
            query: q,
            mono: (chunks) => <span className="font-mono break-all">{chunks}</span>,
          })}
        </p>
      )}
      {lookup && lookup.matchedBy !== null && (
        <>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("foundBy", { by: lookup.matchedBy })}</p>
          {lookup.missingRecord && (
            <p
              role="status"
              data-testid="trace-missing-record"
              className="rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
            >
              {lookup.missingRecord.reason === "retention"
                ? t("recordDeleted", {
                    days: lookup.missingRecord.keptDays,
                    operations: operationsCount(lookup.operations.length),
                  })
                : t("recordNotStored", { operations: operationsCount(lookup.operations.length) })}
            </p>
          )}
          <CopyBundleButton
            bundle={buildSupportBundle(lookup, [getEnv().PLATFORM_TOKEN, getEnv().AUTH_SECRET])}
          />
          <TraceResults lookup={lookup} tz={zone} />
        </>
      )}
    </section>
  );
}
