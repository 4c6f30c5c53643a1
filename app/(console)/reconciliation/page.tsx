import type { Metadata } from "next";
import Link from "next/link";
import { DriftDecision } from "@/components/reconciliation/drift-decision";
import { RunNow } from "@/components/reconciliation/run-now";
import { Alert } from "@/components/ui/alert";
import { can } from "@/lib/auth/permissions";
import { requirePagePermission } from "@/lib/auth/session";
import { driftCounts, driftFilterSchema, driftStates, listDrift, listRuns } from "@/lib/reconcile/queries";
import { formatInZone } from "@/lib/time/zone";
import { HeaderRow } from "@/components/ui/header-row";

export const metadata: Metadata = { title: "Reconciliation" };

type SearchParams = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;
const when = (iso: string | null) => (iso ? formatInZone(new Date(iso), "UTC") : "—");
const short = (v: unknown) => (v === null || v === undefined ? "—" : JSON.stringify(v));

export default async function ReconciliationPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requirePagePermission("reconciliation.read");
  const raw = await searchParams;
  const parsed = driftFilterSchema.safeParse({ state: first(raw.state), page: first(raw.page) });
  const filter = parsed.success ? parsed.data : driftFilterSchema.parse({});
  const [runs, drift, counts] = await Promise.all([listRuns(), listDrift(filter), driftCounts()]);
  const mayDecide = can(user.role, "reconciliation.resolve");
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Reconciliation</h1>
      {can(user.role, "reconciliation.run") && <RunNow />}

      <section className="space-y-2">
        <h2 className="text-lg font-semibold">Runs</h2>
        {runs.length === 0 ? (
          <p className="text-sm text-zinc-500">No runs yet.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="runs-table">
              <thead className="text-xs text-zinc-500">
                <HeaderRow
                  labels={[
                    "Started (UTC)",
                    "Kind",
                    "Status",
                    "Finished",
                    "Pages",
                    "Seen",
                    "Inserted",
                    "Updated",
                    "Drift",
                    "Note",
                  ]}
                />
              </thead>
              <tbody>
                {runs.map((r) => (
                  <tr
                    key={r.id}
                    data-testid="run-row"
                    className="border-t border-zinc-200 dark:border-zinc-800"
                  >
                    <td className="whitespace-nowrap px-2 py-1">{when(r.startedAt)}</td>
                    <td className="px-2 py-1">{r.kind}</td>
                    <td className="px-2 py-1" data-testid="run-status">
                      {r.status}
                    </td>
                    <td className="whitespace-nowrap px-2 py-1">{when(r.finishedAt)}</td>
                    <td className="px-2 py-1">{r.pages}</td>
                    <td className="px-2 py-1">{r.operationsSeen}</td>
                    <td className="px-2 py-1">{r.inserted}</td>
                    <td className="px-2 py-1">{r.updated}</td>
                    <td className="px-2 py-1">{r.drift}</td>
                    <td className="max-w-xs truncate px-2 py-1 text-xs" title={r.error ?? r.stopReason ?? ""}>
                      {r.error ?? r.stopReason ?? ""}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="space-y-2">
        <h2 className="text-lg font-semibold">Drift items</h2>
        {!parsed.success && (
          <Alert tone="error">{parsed.error.issues[0]?.message ?? "Check the filter."}</Alert>
        )}
        <nav aria-label="Drift state" className="flex gap-2 text-sm">
          {driftStates.map((s) => (
            <Link
              key={s}
              href={`/reconciliation?state=${s}`}
              aria-current={filter.state === s ? "page" : undefined}
              className="rounded-md px-2 py-1 aria-[current=page]:bg-zinc-200 dark:aria-[current=page]:bg-zinc-800"
            >
              {s} ({counts[s]})
            </Link>
          ))}
        </nav>
        {drift.rows.length === 0 ? (
          <p className="text-sm text-zinc-500">No {filter.state} drift items.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="drift-table">
              <thead className="text-xs text-zinc-500">
                <HeaderRow
                  labels={[
                    ...["Found (UTC)", "Kind", "Operation", "Mirror", "Platform", "Note"],
                    ...(mayDecide && filter.state !== "resolved" ? ["Decision"] : []),
                  ]}
                />
              </thead>
              <tbody>
                {drift.rows.map((d) => (
                  <tr
                    key={d.id}
                    data-testid="drift-row"
                    className="border-t border-zinc-200 align-top dark:border-zinc-800"
                  >
                    <td className="whitespace-nowrap px-2 py-1">{when(d.createdAt)}</td>
                    <td className="px-2 py-1">
                      {d.kind}
                      {d.fields.length > 0 && (
                        <span className="block text-xs text-zinc-500" data-testid="drift-fields">
                          {d.fields.join(", ")}
                        </span>
                      )}
                    </td>
                    <td className="px-2 py-1 font-mono text-xs">
                      <Link href={`/operations/${d.operationId}`} className="underline">
                        {d.operationId}
                      </Link>
                    </td>
                    <td className="max-w-[14rem] break-all px-2 py-1 font-mono text-xs">
                      {short(d.mirrorValue)}
                    </td>
                    <td className="max-w-[14rem] break-all px-2 py-1 font-mono text-xs">
                      {short(d.platformValue)}
                    </td>
                    <td className="px-2 py-1 text-xs">
                      {d.repairedAt && (
                        <span className="block text-zinc-500" data-testid="drift-repaired">
                          repaired {when(d.repairedAt)} from the platform
                          {d.sourceRef ? ` (traceID ${d.sourceRef})` : ""}
                        </span>
                      )}
                      {d.note ?? ""}
                      {d.resolvedBy && (
                        <span className="block text-zinc-500">
                          resolved by {d.resolvedBy} {when(d.resolvedAt)}
                        </span>
                      )}
                    </td>
                    {mayDecide && d.state !== "resolved" && (
                      <td className="min-w-[16rem] px-2 py-1">
                        <DriftDecision id={d.id} state={d.state} />
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div className="flex gap-3 text-sm">
          {filter.page > 1 && (
            <Link
              href={`/reconciliation?state=${filter.state}&page=${filter.page - 1}`}
              className="underline"
            >
              Newer
            </Link>
          )}
          {drift.hasMore && (
            <Link
              href={`/reconciliation?state=${filter.state}&page=${filter.page + 1}`}
              className="underline"
            >
              Older
            </Link>
          )}
        </div>
      </section>
    </div>
  );
}
