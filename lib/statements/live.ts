import "server-only";
import { getEnv } from "@/lib/env";
import { allPostings } from "@/lib/ledger/postings";
import { EXPORT_SNAPSHOT_MS, inLedgerSnapshot } from "@/lib/ledger/snapshot";
import { statementSummary, type StatementPeriod } from "@/lib/ledger/statement";
import type { Locale } from "@/lib/i18n/locales";
import type { StatementDocument } from "@/lib/statements/document";

/** The merchant as the statement names it: the platform's host and, when the token names it, the merchant id. */
export function merchantLabel(): string {
  const env = getEnv();
  const host = new URL(env.PLATFORM_BASE_URL).host;
  try {
    const payload = env.PLATFORM_TOKEN.split(".")[1];
    const sub: unknown = payload
      ? (JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { sub?: unknown }).sub
      : null;
    return typeof sub === "string" && /^[\w.-]{1,64}$/.test(sub) ? `${sub} @ ${host}` : host;
  } catch {
    return host;
  }
}

/**
 * Runs `use` with a statement of the ledger as it is now, worded in the given language (by default the
 * deployment's). Its summary and all of its lines are read from one snapshot of the ledger, held until
 * `use` returns: a streamed export adds up however many postings commit while it is downloaded.
 */
export async function withLiveStatement<T>(
  period: StatementPeriod,
  generatedBy: string,
  locale: Locale | undefined,
  use: (doc: StatementDocument) => Promise<T>,
): Promise<T> {
  const merchant = merchantLabel();
  return inLedgerSnapshot(
    async (tx) =>
      use({
        locale,
        merchant,
        generatedAt: new Date().toISOString(),
        generatedBy,
        issued: null,
        summary: await statementSummary(period, tx),
        lines: () => allPostings(period, tx),
      }),
    { timeoutMs: EXPORT_SNAPSHOT_MS },
  );
}
