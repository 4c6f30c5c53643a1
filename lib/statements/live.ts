import "server-only";
import { getEnv } from "@/lib/env";
import { allPostings } from "@/lib/ledger/postings";
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

/** A statement of the ledger as it is now, worded in the given language (by default the deployment's). */
export async function liveStatement(
  period: StatementPeriod,
  generatedBy: string,
  locale?: Locale,
): Promise<StatementDocument> {
  return {
    locale,
    merchant: merchantLabel(),
    generatedAt: new Date().toISOString(),
    generatedBy,
    issued: null,
    summary: await statementSummary(period),
    lines: () => allPostings(period),
  };
}
