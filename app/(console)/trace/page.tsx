import type { Metadata } from "next";
import { CopyBundleButton } from "@/components/trace/copy-bundle-button";
import { TraceResults } from "@/components/trace/trace-results";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { requirePagePermission } from "@/lib/auth/session";
import { getEnv } from "@/lib/env";
import { buildSupportBundle } from "@/lib/trace/bundle";
import { lookupTrace, parseTraceQuery } from "@/lib/trace/lookup";

export const metadata: Metadata = { title: "Trace lookup" };

export default async function TracePage({
  searchParams,
}: {
  searchParams: Promise<{ q?: string | string[] }>;
}) {
  await requirePagePermission("trace.read");
  const { q: raw } = await searchParams;
  const parsed = parseTraceQuery(typeof raw === "string" ? raw : "");
  const q = parsed.q;
  const error = parsed.ok ? null : parsed.message;
  const lookup = parsed.ok && q ? await lookupTrace(q) : null;
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">Trace lookup</h1>
      <form method="get" action="/trace" className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1">
          <Field
            label="traceID, operation id or idTransactionMerchant"
            name="q"
            defaultValue={q}
            required
            errors={error ? [error] : undefined}
          />
        </div>
        <Button type="submit">Look up</Button>
      </form>
      {lookup && lookup.matchedBy === null && (
        <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
          Nothing found for <span className="font-mono break-all">{q}</span>.
        </p>
      )}
      {lookup && lookup.matchedBy !== null && (
        <>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">Found by {lookup.matchedBy}.</p>
          <CopyBundleButton
            bundle={buildSupportBundle(lookup, [getEnv().PLATFORM_TOKEN, getEnv().AUTH_SECRET])}
          />
          <TraceResults lookup={lookup} />
        </>
      )}
    </section>
  );
}
