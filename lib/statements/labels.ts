import "server-only";
import { createTranslator } from "use-intl/core";
import type { CatalogMessages } from "@/i18n/messages-type";
import type { PostingKind } from "@/lib/ledger/rules";
import type { StatementSummary } from "@/lib/ledger/statement";
import type { StatementDocument } from "@/lib/statements/document";
import { getEnv } from "@/lib/env";
import type { Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";

// The words of statement exports (XLSX, PDF, CSV) live in the catalogs (messages/<locale>/statements.json,
// key `document`), like the words of the statements screen: this only hands them to code outside React.

type DocumentWords = CatalogMessages["statements"]["document"];
type Worded = "basisCovered" | "basisNotCovered" | "basisNoReconciliation" | "page";

export type StatementLabels = Omit<DocumentWords, Worded | "movementKinds"> & {
  /** By the movement's kind as stored (topUp, withdrawal, adjustment). */
  movementKinds: Partial<Record<string, string>>;
  basisCovered: (at: string) => string;
  basisNotCovered: (at: string | null) => string;
  page: (page: number) => string;
  /** An empty cell. */
  none: string;
  /** The language of these labels. */
  locale: Locale;
};

// Every posting kind has its words (a new kind without them fails to compile).
type KindsCovered = DocumentWords["kinds"] extends Record<PostingKind | "outside", string> ? true : never;
const kindsCovered: KindsCovered = true;
void kindsCovered;

/** The export labels in a language (absent: the deployment's, DEFAULT_LOCALE). */
export function statementLabels(locale: Locale = getEnv().DEFAULT_LOCALE): StatementLabels {
  const messages = messagesFor(locale) as CatalogMessages;
  const t = createTranslator({ locale, messages, namespace: "statements.document" });
  return {
    ...messages.statements.document,
    basisCovered: (at) => t("basisCovered", { at }),
    basisNotCovered: (at) => (at ? t("basisNotCovered", { at }) : t("basisNoReconciliation")),
    page: (page) => t("page", { page }),
    none: "—",
    locale,
  };
}

/** The heading lines of the CSV and XLSX exports: merchant, period, zone, currency, when and by whom. */
export function statementHeading(doc: StatementDocument, L: StatementLabels): [string, string][] {
  const s = doc.summary;
  return [
    [L.title, doc.merchant],
    [L.period, `${s.period.from} — ${s.period.to}`],
    [L.timeZone, s.period.tz],
    [L.currency, s.currency ?? ""],
    [L.generatedAt, doc.generatedAt],
    [L.generatedBy, doc.generatedBy],
  ];
}

/** The summary's figures, labelled, in the order every export shows them (opening to held at the end). */
export function summaryFigures(s: StatementSummary, L: StatementLabels): [string, string][] {
  return [
    [L.opening, s.opening.available],
    [L.credits, s.totals.credits],
    [L.debits, s.totals.debits],
    [L.commissions, s.totals.commissions],
    [L.holds, s.totals.holds],
    [L.outside, s.totals.outside],
    [L.closing, s.closing.available],
    [L.holdsAtEnd, s.closing.holds],
  ];
}
