import { CSV_CONTENT_TYPE } from "@/lib/csv/encode";
import type { StatementPosting } from "@/lib/ledger/postings";
import type { StatementSummary } from "@/lib/ledger/statement";

/** What an export renders: the summary, who and when, and the lines (read lazily for live statements). */
export type StatementDocument = {
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
