import type { Metadata } from "next";
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Cell, DataRow, DataTable } from "@/components/ui/data-table";
import { Field } from "@/components/ui/field";
import { parseAuditFilter, listAudit } from "@/lib/audit/queries";
import { requirePagePermission } from "@/lib/auth/session";
import { formatInZone } from "@/lib/time/zone";

export const metadata: Metadata = { title: "Audit log" };

type SearchParams = Record<string, string | string[] | undefined>;
const FILTER_KEYS = ["actor", "action", "target", "from", "to"] as const;
const json = (v: unknown) => (v === null || v === undefined ? "" : JSON.stringify(v));

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePagePermission("audit.read");
  const raw = await searchParams;
  const parsed = parseAuditFilter(raw);
  const value = (k: string) => {
    const v = raw[k];
    return (Array.isArray(v) ? v[0] : v) ?? "";
  };
  const filterQuery = new URLSearchParams();
  for (const k of FILTER_KEYS) if (value(k)) filterQuery.set(k, value(k));
  const page = parsed.ok ? await listAudit(parsed.filter) : null;
  const errors = parsed.ok ? {} : parsed.fieldErrors;
  const next = page?.nextBefore
    ? `/admin/audit?${new URLSearchParams([...filterQuery, ["before", page.nextBefore]])}`
    : null;
  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">Audit log</h1>
        {parsed.ok && (
          <a
            href={`/api/exports/audit${filterQuery.size ? `?${filterQuery}` : ""}`}
            className="rounded-md border border-zinc-300 px-3 py-2 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
            download
          >
            Export CSV
          </a>
        )}
      </div>
      <p className="text-sm text-zinc-500">
        Append-only: the database refuses to change or delete an entry. Times in UTC.
      </p>
      <form
        method="get"
        action="/admin/audit"
        className="grid gap-2 sm:grid-cols-3 lg:grid-cols-6 lg:items-end"
      >
        <Field label="Actor email" name="actor" defaultValue={value("actor")} errors={errors.actor} />
        <Field
          label="Action"
          name="action"
          defaultValue={value("action")}
          errors={errors.action}
          placeholder="user."
        />
        <Field
          label="Target id or type"
          name="target"
          defaultValue={value("target")}
          errors={errors.target}
        />
        <Field label="From" name="from" type="date" defaultValue={value("from")} errors={errors.from} />
        <Field label="To" name="to" type="date" defaultValue={value("to")} errors={errors.to} />
        <Button type="submit" variant="secondary">
          Filter
        </Button>
      </form>
      {!parsed.ok && <Alert tone="error">{parsed.message}</Alert>}
      {page && page.rows.length === 0 && <p className="text-sm text-zinc-500">No entries.</p>}
      {page && page.rows.length > 0 && (
        <DataTable
          testId="audit-table"
          headers={["When", "Who", "IP", "Action", "Target", "Before", "After"]}
        >
          {page.rows.map((r) => (
            <DataRow key={r.id} testId="audit-row" top>
              <Cell kind="when">{formatInZone(new Date(r.at), "UTC")}</Cell>
              <Cell>{r.actorEmail ?? "—"}</Cell>
              <Cell kind="code">{r.ip ?? "—"}</Cell>
              <Cell kind="code">{r.action}</Cell>
              <Cell className="break-all text-xs">
                {r.targetType ?? ""} {r.targetId ?? ""}
              </Cell>
              <Cell kind="json">{json(r.before)}</Cell>
              <Cell kind="json">{json(r.after)}</Cell>
            </DataRow>
          ))}
        </DataTable>
      )}
      {next && (
        <Link href={next} className="text-sm underline">
          Older entries
        </Link>
      )}
    </section>
  );
}
