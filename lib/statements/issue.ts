import "server-only";
import { createHash } from "node:crypto";
import { PassThrough, type Writable } from "node:stream";
import { gunzipSync, gzipSync } from "node:zlib";
import { audit, type Actor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { allPostings, type StatementPosting } from "@/lib/ledger/postings";
import { statementSummary, type StatementPeriod, type StatementSummary } from "@/lib/ledger/statement";
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

const MAX_CHANGES_LISTED = 500;

async function collect(period: StatementPeriod): Promise<StatementPosting[]> {
  const all: StatementPosting[] = [];
  for await (const chunk of allPostings(period)) all.push(...chunk);
  return all;
}

/** Freezes the statement of a period: stored with its totals, a content hash, who and when; audited. */
export async function issueStatement(
  period: StatementPeriod,
  actor: Actor,
  options: { automatic?: boolean } = {},
): Promise<{ id: string; contentHash: string }> {
  const [summary, postings] = await Promise.all([statementSummary(period), collect(period)]);
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

/** Marks issued statements whose period the ledger no longer matches as superseded, with the changes. */
export async function markSupersededStatements(now = new Date()): Promise<number> {
  const db = getDb();
  const current = await db.issuedStatement.findMany({
    where: { supersededAt: null },
    select: { id: true, periodFrom: true, periodTo: true, timeZone: true, content: true },
  });
  let marked = 0;
  for (const s of current) {
    const frozen = thaw(s.content);
    const lines = await collect({ from: s.periodFrom, to: s.periodTo, tz: s.timeZone });
    const changes = diffPostings(frozen.postings, lines);
    if (changes.length === 0) continue;
    await db.issuedStatement.update({
      where: { id: s.id },
      data: {
        supersededAt: now,
        changes: { total: changes.length, listed: changes.slice(0, MAX_CHANGES_LISTED) },
      },
    });
    marked += 1;
  }
  return marked;
}
