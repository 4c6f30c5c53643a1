// A statement is read from one snapshot of the ledger: its summary (opening, closing, per-day sums) and
// all of its lines. Here postings are committed in a loop on other connections (as webhooks and
// reconciliation do) while summaries are computed, statements issued and exported; every result must
// add up on its own: opening + movements = closing, the lines sum to the movements and run from the
// opening to the closing balance. Bounded in time: two seconds of writing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { statementSummary, type StatementPeriod, type StatementSummary } from "@/lib/ledger/statement";
import { Decimal } from "@/lib/money/decimal";
import type { StatementPosting } from "@/lib/ledger/postings";
import { issueStatement, issuedDocument } from "@/lib/statements/issue";
import { withLiveStatement } from "@/lib/statements/live";
import { liveStatementResponse, renderers } from "@/lib/statements/respond";
import { isolateDatabase } from "../../support/database";
import { insertOperations, type MirrorRow } from "../../support/mirror";
import { renderStatement } from "../../support/statement-files";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
}, 60_000);
afterAll(async () => restore());

const T0 = Date.parse("2033-04-01T00:00:00Z");
const DAY = 86_400_000;
const period: StatementPeriod = { from: new Date(T0), to: new Date(T0 + 10 * DAY), tz: "Europe/Moscow" };
const WRITING_MS = 2_000;
const WRITERS = 3;

/** An operation at a random moment from 5 days before the period to its end: before it, it moves the opening. */
function randomOperation(i: number): MirrorRow {
  const at = new Date(T0 - 5 * DAY + Math.floor(Math.random() * 15 * DAY));
  const payOut = i % 3 === 0;
  return {
    typeOperation: payOut ? "payOut" : "payIn",
    status: payOut ? "in_progress" : "success",
    dateAdded: at,
    dateUpdated: at,
    amountInCurrencyBalance: String(1 + (i % 7)),
    amountComissionInCurrencyBalance: "0.25",
  };
}

/** What must hold of any summary with its lines (lines: every line of the period, in order). */
function problems(s: StatementSummary, lines: StatementPosting[] | null): string[] {
  const out: string[] = [];
  const opening = new Decimal(s.opening.available);
  const closing = new Decimal(s.closing.available);
  if (!s.check.ok) out.push(`check failed: ${s.check.openingPlusMovements} vs ${s.check.closing}`);
  if (!opening.plus(s.totals.movements).equals(closing))
    out.push(
      `opening ${s.opening.available} + movements ${s.totals.movements} != closing ${s.closing.available}`,
    );
  if (s.days.length > 0 && s.days.at(-1)!.closing !== s.closing.available)
    out.push(`last day closes at ${s.days.at(-1)!.closing}, the period at ${s.closing.available}`);
  if (lines) {
    const sum = lines.reduce((a, l) => a.plus(l.amount), new Decimal(0));
    const count = s.byKind.reduce((a, k) => a + k.postings, 0);
    if (!sum.equals(s.totals.movements))
      out.push(`lines sum to ${sum.toFixed(4)}, movements ${s.totals.movements}`);
    if (lines.length !== count) out.push(`${lines.length} lines, the summary counts ${count}`);
    const first = lines[0];
    if (first && !new Decimal(first.balance).minus(first.amount).equals(opening))
      out.push(`the first line starts from ${new Decimal(first.balance).minus(first.amount).toFixed(4)}`);
    const last = lines.at(-1);
    if (last && last.balance !== s.closing.available)
      out.push(`the last line ends at ${last.balance}, the closing is ${s.closing.available}`);
  }
  return out;
}

async function linesOf(lines: () => AsyncIterable<StatementPosting[]>): Promise<StatementPosting[]> {
  const all: StatementPosting[] = [];
  for await (const chunk of lines()) all.push(...chunk);
  return all;
}

/** The CSV export's own figures: its opening and closing lines, the lines' sum and the last balance. */
function csvProblems(csv: string): string[] {
  const rows = csv
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
  const value = (label: string) => rows.find((r) => r.startsWith(`${label},`))!.split(",")[1]!;
  const opening = new Decimal(value("Opening balance"));
  const closing = value("Closing balance");
  const header = rows.findIndex((r) => r.startsWith("Date and time,"));
  const lines = rows.slice(header + 1, -1).map((r) => r.split(","));
  const totals = rows.at(-1)!.split(",");
  const out: string[] = [];
  if (!opening.plus(totals[2]!).equals(closing))
    out.push(`csv: opening ${opening.toFixed(4)} + lines ${totals[2]} != closing ${closing}`);
  if (lines.length > 0 && lines.at(-1)![4] !== closing)
    out.push(`csv: the last line ends at ${lines.at(-1)![4]}, the closing is ${closing}`);
  return out;
}

describe("statements read while postings are being committed", () => {
  it("every summary, issued statement and export is consistent in itself", async () => {
    await insertOperations(Array.from({ length: 40 }, (_, i) => randomOperation(i)));
    const deadline = Date.now() + WRITING_MS;
    let written = 0;
    const writer = async (w: number) => {
      for (let i = w; Date.now() < deadline; i += WRITERS) {
        await insertOperations([randomOperation(i)]);
        written += 1;
      }
    };
    const found: string[] = [];
    const runs = { summaries: 0, issued: 0, exports: 0 };
    const closings = new Set<string>();
    const summaries = async () => {
      while (Date.now() < deadline) {
        const summary = await statementSummary(period);
        closings.add(summary.closing.available);
        found.push(...problems(summary, null).map((p) => `summary: ${p}`));
        runs.summaries += 1;
      }
    };
    const issues = async () => {
      while (Date.now() < deadline) {
        const { id } = await issueStatement(period, { id: null, email: "finance@test.local" });
        const doc = (await issuedDocument(id))!;
        found.push(...problems(doc.summary, await linesOf(doc.lines)).map((p) => `issued: ${p}`));
        runs.issued += 1;
      }
    };
    const exports = async () => {
      while (Date.now() < deadline) {
        await withLiveStatement(period, "finance@test.local", "en", async (doc) => {
          const csv = (await renderStatement(doc, renderers.csv)).toString("utf8");
          found.push(...problems(doc.summary, null).map((p) => `export: ${p}`), ...csvProblems(csv));
        });
        runs.exports += 1;
      }
    };
    await Promise.all([
      ...Array.from({ length: WRITERS }, (_, w) => writer(w)),
      summaries(),
      summaries(),
      issues(),
      exports(),
    ]);
    // The readers ran while the writers wrote: they saw the ledger at different moments.
    expect(written).toBeGreaterThan(50);
    expect(runs.summaries).toBeGreaterThan(5);
    expect(runs.issued).toBeGreaterThan(1);
    expect(runs.exports).toBeGreaterThan(1);
    expect(closings.size).toBeGreaterThan(2);
    const byReader = new Map<string, number>();
    for (const p of found) byReader.set(p.split(":")[0]!, (byReader.get(p.split(":")[0]!) ?? 0) + 1);
    const counts = [...byReader].map(([reader, n]) => `${reader} ${n}`).join(", ");
    expect(found.slice(0, 10), `problems: ${counts}; runs ${JSON.stringify(runs)}`).toEqual([]);
    // And after the writers stopped, the statement is what the ledger holds.
    const final = await statementSummary(period);
    const postings = await getDb().ledgerPosting.count({
      where: { at: { gte: period.from, lt: period.to } },
    });
    expect(final.byKind.reduce((a, k) => a + k.postings, 0)).toBe(postings);
  }, 30_000);

  it.each(["csv", "xlsx", "pdf"] as const)(
    "%s: a download read whole or abandoned by its client ends its snapshot transaction",
    async (format) => {
      const whole = await liveStatementResponse(period, "finance@test.local", "en", format, "s");
      expect((await whole.arrayBuffer()).byteLength).toBeGreaterThan(1000);
      expect(await openSnapshots()).toBe(0);

      const abandoned = await liveStatementResponse(period, "finance@test.local", "en", format, "s");
      const reader = abandoned.body!.getReader();
      await reader.read();
      await reader.cancel();
      expect(await openSnapshots()).toBe(0);
    },
  );
});

/** Transactions of this database left open (idle in one), after a moment for a rendering to stop. */
async function openSnapshots(): Promise<number> {
  const count = async () => {
    const rows = await getDb().$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND state LIKE 'idle in transaction%'`;
    return rows[0]!.n;
  };
  for (let waited = 0; waited < 2_000; waited += 50) {
    if ((await count()) === 0) return 0;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return count();
}
