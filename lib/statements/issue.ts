import "server-only";
import { createHash } from "node:crypto";
import { PassThrough, type Writable } from "node:stream";
import { gunzipSync, gzipSync } from "node:zlib";
import { audit, type Actor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ledgerBalanceBefore, type LedgerBalance } from "@/lib/ledger/balance";
import { allPostings, type StatementPosting } from "@/lib/ledger/postings";
import { inLedgerSnapshot, WHOLE_PERIOD_SNAPSHOT_MS, type LedgerReader } from "@/lib/ledger/snapshot";
import { statementSummary, type StatementPeriod, type StatementSummary } from "@/lib/ledger/statement";
import { Decimal } from "@/lib/money/decimal";
import type { ExportFormat, StatementDocument } from "@/lib/statements/document";
import { merchantLabel } from "@/lib/statements/live";

/** What an issued statement froze: the summary and every line, as they were when it was issued. */
type Frozen = { merchant: string; summary: StatementSummary; postings: StatementPosting[] };

export type StatementChange = {
  change: "added" | "removed" | "changed";
  key: string;
  kind: string;
  at: string;
  amount: string;
  before?: { at: string; amount: string };
};

/**
 * A figure of the frozen summary that the ledger now gives otherwise: the opening or closing balance
 * (available or held), or the period's movements (the ledger's closing minus its opening: this also
 * catches a statement frozen while it did not add up in itself, as statements issued before the summary
 * and the lines were read from one snapshot could be).
 */
export type StatementFigureChange = {
  figure: "opening" | "openingHolds" | "closing" | "closingHolds" | "movements";
  before: string;
  now: string;
};

/** What superseded an issued statement (IssuedStatement.changes). */
export type StatementChanges = {
  /** Lines added, removed or changed; the first MAX_CHANGES_LISTED of them listed. */
  total: number;
  listed: StatementChange[];
  /** Its figures that changed: as issued and as the ledger gives them now. */
  figures?: StatementFigureChange[];
};

const MAX_CHANGES_LISTED = 500;

async function collect(period: StatementPeriod, db: LedgerReader): Promise<StatementPosting[]> {
  const all: StatementPosting[] = [];
  for await (const chunk of allPostings(period, db)) all.push(...chunk);
  return all;
}

/**
 * Serialises issuing one period (from, to, zone): two issues at once (a double click, an upkeep job run
 * again while the first still renders) must not both find no standing statement and both store one.
 */
async function lockPeriod(tx: Prisma.TransactionClient, period: StatementPeriod): Promise<void> {
  const key = `statement|${period.from.toISOString()}|${period.to.toISOString()}|${period.tz}`;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 7373))`;
}

/**
 * Freezes the statement of a period: stored with its totals, a content hash, who and when; audited. A
 * statement of the period that stands already with the same content is returned instead of a second one.
 */
export async function issueStatement(
  period: StatementPeriod,
  actor: Actor,
  options: { automatic?: boolean } = {},
): Promise<{ id: string; contentHash: string }> {
  // The summary and every line from one snapshot: what is frozen adds up, whatever commits meanwhile.
  const { summary, postings } = await inLedgerSnapshot(
    async (tx) => ({ summary: await statementSummary(period, tx), postings: await collect(period, tx) }),
    { timeoutMs: WHOLE_PERIOD_SNAPSHOT_MS },
  );
  const frozen: Frozen = { merchant: merchantLabel(), summary, postings };
  const json = JSON.stringify(frozen);
  const contentHash = createHash("sha256").update(json).digest("hex");
  const totals = {
    opening: summary.opening,
    closing: summary.closing,
    totals: summary.totals,
    check: summary.check,
  };
  return getDb().$transaction(async (tx) => {
    await lockPeriod(tx, period);
    const standing = await tx.issuedStatement.findFirst({
      where: {
        periodFrom: period.from,
        periodTo: period.to,
        timeZone: period.tz,
        contentHash,
        supersededAt: null,
      },
      select: { id: true },
    });
    if (standing) return { id: standing.id, contentHash };
    const row = await tx.issuedStatement.create({
      data: {
        periodFrom: period.from,
        periodTo: period.to,
        timeZone: period.tz,
        currency: summary.currency ?? "",
        totals,
        content: gzipSync(json),
        contentHash,
        automatic: options.automatic ?? false,
        issuedById: actor.id,
        issuedByEmail: actor.email,
      },
      select: { id: true },
    });
    await audit(tx, actor, {
      action: "statements.issue",
      targetType: "statement",
      targetId: row.id,
      after: {
        from: period.from.toISOString(),
        to: period.to.toISOString(),
        tz: period.tz,
        contentHash,
        totals,
      },
    });
    return { id: row.id, contentHash };
  });
}

function thaw(content: Uint8Array): Frozen {
  return JSON.parse(gunzipSync(content).toString("utf8")) as Frozen;
}

/** The document of an issued statement, from its frozen content (never from the ledger as it is now). */
export async function issuedDocument(id: string): Promise<StatementDocument | null> {
  const row = await getDb().issuedStatement.findUnique({ where: { id } });
  if (!row) return null;
  const frozen = thaw(row.content);
  return {
    merchant: frozen.merchant,
    generatedAt: row.issuedAt.toISOString(),
    generatedBy: row.issuedByEmail ?? "automatic",
    issued: {
      at: row.issuedAt.toISOString(),
      by: row.issuedByEmail ?? "automatic",
      contentHash: row.contentHash,
    },
    summary: frozen.summary,
    lines: async function* () {
      for (let i = 0; i < frozen.postings.length; i += 5_000) yield frozen.postings.slice(i, i + 5_000);
    },
  };
}

/**
 * The bytes of an issued statement in a format: rendered once, stored, and served as stored from then
 * on, so that downloading it again gives the same bytes.
 */
export async function issuedFile(
  id: string,
  format: ExportFormat,
  render: (doc: StatementDocument, out: Writable) => Promise<void>,
): Promise<Buffer | null> {
  const db = getDb();
  const stored = await db.issuedStatementFile.findUnique({
    where: { statementId_format: { statementId: id, format } },
  });
  if (stored) return Buffer.from(stored.bytes);
  const doc = await issuedDocument(id);
  if (!doc) return null;
  const sink = new PassThrough();
  const parts: Buffer[] = [];
  sink.on("data", (b: Buffer) => parts.push(b));
  await render(doc, sink);
  sink.end();
  const bytes = Buffer.concat(parts);
  await db.issuedStatementFile.createMany({
    data: [{ statementId: id, format, bytes, sha256: createHash("sha256").update(bytes).digest("hex") }],
    skipDuplicates: true,
  });
  const kept = await db.issuedStatementFile.findUniqueOrThrow({
    where: { statementId_format: { statementId: id, format } },
  });
  return Buffer.from(kept.bytes);
}

/** What differs between the frozen lines and the ledger's lines of the same period now. */
export function diffPostings(before: StatementPosting[], now: StatementPosting[]): StatementChange[] {
  const key = (p: StatementPosting) => `${p.key}:${p.kind}`;
  const old = new Map(before.map((p) => [key(p), p]));
  const changes: StatementChange[] = [];
  for (const p of now) {
    const was = old.get(key(p));
    old.delete(key(p));
    if (!was) changes.push({ change: "added", key: p.key, kind: p.kind, at: p.at, amount: p.amount });
    else if (was.amount !== p.amount || was.at !== p.at)
      changes.push({
        change: "changed",
        key: p.key,
        kind: p.kind,
        at: p.at,
        amount: p.amount,
        before: { at: was.at, amount: was.amount },
      });
  }
  for (const p of old.values())
    changes.push({ change: "removed", key: p.key, kind: p.kind, at: p.at, amount: p.amount });
  return changes;
}

/**
 * The frozen summary's figures that the ledger now gives otherwise. A posting found late before the
 * period (reconciliation learns of an operation of an earlier month) moves the opening and closing
 * balances without changing one line of the period.
 */
function diffFigures(
  frozen: Pick<StatementSummary, "opening" | "closing" | "totals">,
  now: { opening: LedgerBalance; closing: LedgerBalance },
): StatementFigureChange[] {
  const figures = [
    ["opening", frozen.opening?.available, now.opening.available],
    ["openingHolds", frozen.opening?.holds, now.opening.holds],
    ["closing", frozen.closing?.available, now.closing.available],
    ["closingHolds", frozen.closing?.holds, now.closing.holds],
    ["movements", frozen.totals?.movements, now.closing.available.minus(now.opening.available)],
  ] as const;
  const changes: StatementFigureChange[] = [];
  for (const [figure, before, current] of figures) {
    // A figure the frozen summary lacks, or does not hold as a number, counts as changed.
    const same = typeof before === "string" && safeDecimal(before)?.equals(current) === true;
    if (!same)
      changes.push({ figure, before: typeof before === "string" ? before : "", now: current.toFixed(4) });
  }
  return changes;
}

function safeDecimal(value: string): Decimal | null {
  try {
    return new Decimal(value);
  } catch {
    return null;
  }
}

/**
 * Marks issued statements that the ledger no longer gives as superseded, with what changed: lines of the
 * period added, removed or changed, and figures of the summary (the opening and closing balances, read
 * with the lines from one snapshot of the ledger).
 */
export async function markSupersededStatements(now = new Date()): Promise<number> {
  const db = getDb();
  const current = await db.issuedStatement.findMany({
    where: { supersededAt: null },
    select: { id: true, periodFrom: true, periodTo: true, timeZone: true, content: true },
  });
  let marked = 0;
  for (const s of current) {
    const frozen = thaw(s.content);
    const period = { from: s.periodFrom, to: s.periodTo, tz: s.timeZone };
    const ledger = await inLedgerSnapshot(
      async (tx) => ({
        lines: await collect(period, tx),
        opening: await ledgerBalanceBefore(period.from, tx),
        closing: await ledgerBalanceBefore(period.to, tx),
      }),
      { timeoutMs: WHOLE_PERIOD_SNAPSHOT_MS },
    );
    const lines = diffPostings(frozen.postings, ledger.lines);
    const figures = diffFigures(frozen.summary, ledger);
    if (lines.length === 0 && figures.length === 0) continue;
    const changes: StatementChanges = {
      total: lines.length,
      listed: lines.slice(0, MAX_CHANGES_LISTED),
      ...(figures.length > 0 ? { figures } : {}),
    };
    // Only while still current: two upkeep runs at once mark it once, with the first one's changes.
    const updated = await db.issuedStatement.updateMany({
      where: { id: s.id, supersededAt: null },
      data: { supersededAt: now, changes },
    });
    marked += updated.count;
  }
  return marked;
}
