import "server-only";
import { createTranslator } from "next-intl";
import type { CatalogMessages } from "@/i18n/messages-type";
import type { PostingKind } from "@/lib/ledger/rules";
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
  page: (page: number, pages: number) => string;
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
    page: (page, pages) => t("page", { page, pages }),
    none: "—",
    locale,
  };
}
