import type { Metadata } from "next";
import { IssueButton } from "@/components/statements/issue-button";
import { IssuedList } from "@/components/statements/issued-list";
import { PeriodPicker } from "@/components/statements/period-picker";
import { PostingsTable } from "@/components/statements/postings-table";
import { StatementSummaryView } from "@/components/statements/summary";
import { requirePagePermission } from "@/lib/auth/session";
import { can } from "@/lib/auth/permissions";
import { decodeCursor, postingsPage } from "@/lib/ledger/postings";
import { statementSummary } from "@/lib/ledger/statement";
import { issuedStatements } from "@/lib/statements/issued-list";
import { periodQuerySchema, resolvePeriod } from "@/lib/statements/periods";

export const metadata: Metadata = { title: "Statements" };

type Search = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (typeof v === "string" ? v : undefined);

export default async function StatementsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const user = await requirePagePermission("statements.read");
  const params = await searchParams;
  const parsed = periodQuerySchema.safeParse({
    period: first(params.period),
    tz: first(params.tz),
    from: first(params.from),
    to: first(params.to),
  });
  const query = parsed.success ? parsed.data : periodQuerySchema.parse({});
  const resolved = resolvePeriod(query);
  const cursorText = first(params.after);
  const cursor = cursorText ? decodeCursor(cursorText) : null;
  const qs = new URLSearchParams(
    Object.entries({ period: query.period, tz: query.tz, from: query.from, to: query.to }).filter(
      (e): e is [string, string] => typeof e[1] === "string",
    ),
  ).toString();

  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">Statements</h1>
      <PeriodPicker query={query} />
      {!parsed.success && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          Some parameters were not understood; showing last month in UTC.
        </p>
      )}
      {!resolved.ok ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {resolved.message}
        </p>
      ) : (
        <StatementBody
          label={resolved.label}
          period={resolved.period}
          qs={qs}
          cursor={cursor}
          mayIssue={can(user.role, "statements.issue")}
          query={query}
        />
      )}
      <IssuedList statements={await issuedStatements()} />
    </section>
  );
}

async function StatementBody({
  label,
  period,
  qs,
  cursor,
  mayIssue,
  query,
}: {
  label: string;
  period: Parameters<typeof statementSummary>[0];
  qs: string;
  cursor: ReturnType<typeof decodeCursor>;
  mayIssue: boolean;
  query: Record<string, string | undefined>;
}) {
  const [summary, page] = await Promise.all([statementSummary(period), postingsPage(period, cursor, 100)]);
  return (
    <>
      <StatementSummaryView summary={summary} label={label} />
      <div className="flex flex-wrap items-center gap-2 text-sm">
        {(["xlsx", "pdf", "csv"] as const).map((f) => (
          <a
            key={f}
            href={`/api/statements/export?${qs}&format=${f}`}
            className="rounded-md border border-zinc-300 px-3 py-1 dark:border-zinc-700"
            data-testid={`download-${f}`}
          >
            Download {f.toUpperCase()}
          </a>
        ))}
        {mayIssue && <IssueButton query={query} />}
      </div>
      <PostingsTable rows={page.rows} currency={summary.currency} />
      {page.next && (
        <a href={`/statements?${qs}&after=${page.next}`} className="text-sm underline">
          Next postings
        </a>
      )}
    </>
  );
}
