import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { IssueButton } from "@/components/statements/issue-button";
import { IssuedList } from "@/components/statements/issued-list";
import { PeriodPicker } from "@/components/statements/period-picker";
import { PostingsTable } from "@/components/statements/postings-table";
import { StatementSummaryView } from "@/components/statements/summary";
import { requirePagePermission } from "@/lib/auth/session";
import { can } from "@/lib/auth/permissions";
import { requestPreferences } from "@/lib/auth/request-preferences";
import { translatorFor } from "@/lib/auth/translator";
import { decodeCursor, postingsPage } from "@/lib/ledger/postings";
import { inLedgerSnapshot } from "@/lib/ledger/snapshot";
import { statementSummary } from "@/lib/ledger/statement";
import type { ExportFormat } from "@/lib/statements/document";
import { issuedStatements } from "@/lib/statements/issued-list";
import {
  localPeriodLabel,
  periodQuerySchema,
  resolvePeriod,
  shownPeriodQuery,
} from "@/lib/statements/periods";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("statements");
  return { title: t("pageTitle") };
}

type Search = Record<string, string | string[] | undefined>;
const DOWNLOAD_FORMATS = ["xlsx", "pdf", "csv"] as const satisfies readonly ExportFormat[];
const first = (v: string | string[] | undefined) => (typeof v === "string" ? v : undefined);

export default async function StatementsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const user = await requirePagePermission("statements.read");
  const params = await searchParams;
  const { locale, timeZone } = await requestPreferences();
  // translatorFor rather than getTranslations: the same words, and the page also runs outside Next (tests).
  const t = await translatorFor("statements");
  // Days are counted in the user's zone unless the address names another.
  const parsed = periodQuerySchema.safeParse({
    period: first(params.period),
    tz: first(params.tz) ?? timeZone,
    from: first(params.from),
    to: first(params.to),
  });
  const query = parsed.success ? parsed.data : periodQuerySchema.parse({ tz: timeZone });
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
      <h1 className="text-2xl font-semibold">{t("pageTitle")}</h1>
      <PeriodPicker query={query} />
      {!parsed.success && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {t("unparsedParams", { zone: query.tz })}
        </p>
      )}
      {!resolved.ok ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {t(`period.${resolved.problem}`)}
        </p>
      ) : (
        <StatementBody
          label={localPeriodLabel(resolved.label, locale)}
          period={resolved.period}
          qs={qs}
          cursor={cursor}
          mayIssue={can(user.role, "statements.issue")}
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
}: {
  label: string;
  period: Parameters<typeof statementSummary>[0];
  qs: string;
  cursor: ReturnType<typeof decodeCursor>;
  mayIssue: boolean;
}) {
  // The summary and the page of lines under it from one snapshot of the ledger: they add up together.
  const [{ summary, page }, t] = await Promise.all([
    inLedgerSnapshot(async (tx) => ({
      summary: await statementSummary(period, tx),
      page: await postingsPage(period, cursor, 100, tx),
    })),
    translatorFor("statements"),
  ]);
  // What is downloaded and issued is the period shown here, not the preset resolved again at the click.
  const shown = shownPeriodQuery(period);
  const shownQs = new URLSearchParams(shown).toString();
  return (
    <>
      <StatementSummaryView summary={summary} label={label} />
      <div className="flex flex-wrap items-center gap-2 text-sm">
        {DOWNLOAD_FORMATS.map((f) => (
          <a
            key={f}
            href={`/api/statements/export?${shownQs}&format=${f}`}
            className="rounded-md border border-zinc-300 px-3 py-1 dark:border-zinc-700"
            data-testid={`download-${f}`}
          >
            {t("download", { format: f.toUpperCase() })}
          </a>
        ))}
        {mayIssue && <IssueButton period={shown} />}
      </div>
      <PostingsTable rows={page.rows} currency={summary.currency} timeZone={period.tz} />
      {page.next && (
        <a href={`/statements?${qs}&after=${page.next}`} className="text-sm underline">
          {t("nextPostings")}
        </a>
      )}
    </>
  );
}
