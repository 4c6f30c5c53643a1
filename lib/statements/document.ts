import { CSV_CONTENT_TYPE } from "@/lib/csv/encode";
import type { StatementPosting } from "@/lib/ledger/postings";
import type { StatementSummary } from "@/lib/ledger/statement";
import type { Locale } from "@/lib/i18n/locales";

/** What an export renders: the summary, who and when, and the lines (read lazily for live statements). */
export type StatementDocument = {
  /**
   * The language of the export's words; absent: the deployment's (DEFAULT_LOCALE). Issued statements
   * have none: their files are rendered once and kept, so they are in the deployment's language.
   */
  locale?: Locale;
  merchant: string;
  generatedAt: string;
  generatedBy: string;
  /** Set for an issued statement. */
  issued: { at: string; by: string; contentHash: string } | null;
  summary: StatementSummary;
  lines: () => AsyncIterable<StatementPosting[]>;
};

export const exportFormats = ["csv", "xlsx", "pdf"] as const;
export type ExportFormat = (typeof exportFormats)[number];

export const contentTypes: Record<ExportFormat, string> = {
  csv: CSV_CONTENT_TYPE,
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pdf: "application/pdf",
};
