import type { Metadata } from "next";
import Link from "next/link";
import { DriftDecision } from "@/components/reconciliation/drift-decision";
import { RunNow } from "@/components/reconciliation/run-now";
import { Alert } from "@/components/ui/alert";
import { Cell, DataRow, DataTable } from "@/components/ui/data-table";
import { can } from "@/lib/auth/permissions";
import { requirePagePermission } from "@/lib/auth/session";
import { driftCounts, driftFilterSchema, driftStates, listDrift, listRuns } from "@/lib/reconcile/queries";
import { formatInZone } from "@/lib/time/zone";

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
          <DataTable
            testId="runs-table"
            headers={[
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
          >
            {runs.map((r) => (
              <DataRow key={r.id} testId="run-row">
                <Cell kind="when">{when(r.startedAt)}</Cell>
                <Cell>{r.kind}</Cell>
                <Cell testId="run-status">{r.status}</Cell>
                <Cell kind="when">{when(r.finishedAt)}</Cell>
                <Cell>{r.pages}</Cell>
                <Cell>{r.operationsSeen}</Cell>
                <Cell>{r.inserted}</Cell>
                <Cell>{r.updated}</Cell>
                <Cell>{r.drift}</Cell>
                <Cell kind="note" title={r.error ?? r.stopReason ?? ""}>
                  {r.error ?? r.stopReason ?? ""}
                </Cell>
              </DataRow>
            ))}
          </DataTable>
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
          <DataTable
            testId="drift-table"
            headers={[
              ...["Found (UTC)", "Kind", "Operation", "Mirror", "Platform", "Note"],
              ...(mayDecide && filter.state !== "resolved" ? ["Decision"] : []),
            ]}
          >
            {drift.rows.map((d) => (
              <DataRow key={d.id} testId="drift-row" top>
                <Cell kind="when">{when(d.createdAt)}</Cell>
                <Cell>
                  {d.kind}
                  {d.fields.length > 0 && (
                    <span className="block text-xs text-zinc-500" data-testid="drift-fields">
                      {d.fields.join(", ")}
                    </span>
                  )}
                </Cell>
                <Cell kind="code">
                  <Link href={`/operations/${d.operationId}`} className="underline">
                    {d.operationId}
                  </Link>
                </Cell>
                <Cell className="max-w-[14rem] break-all font-mono text-xs">{short(d.mirrorValue)}</Cell>
                <Cell className="max-w-[14rem] break-all font-mono text-xs">{short(d.platformValue)}</Cell>
                <Cell className="text-xs">
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
                </Cell>
                {mayDecide && d.state !== "resolved" && (
                  <Cell className="min-w-[16rem]">
                    <DriftDecision id={d.id} state={d.state} />
                  </Cell>
                )}
              </DataRow>
            ))}
          </DataTable>
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
