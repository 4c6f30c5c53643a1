import type { ReactNode } from "react";
import { HeaderRow } from "@/components/ui/header-row";
import { ScrollArea } from "@/components/ui/scroll-area";

/**
 * The compact data table of the console's lists (audit log, webhook inbox, reconciliation runs and
 * drift, users): scrolls sideways on a narrow screen, one heading per label, the rows as children
 * (DataRow, or a row component of its own). `label` names the table for a screen reader (its heading).
 */
export function DataTable({
  testId,
  label,
  headers,
  children,
}: {
  testId: string;
  label: string;
  headers: readonly string[];
  children: ReactNode;
}) {
  return (
    <ScrollArea label={label}>
      <table className="w-full text-left text-sm" data-testid={testId}>
        <thead className="text-xs text-zinc-500">
          <HeaderRow labels={headers} />
        </thead>
        <tbody>{children}</tbody>
      </table>
    </ScrollArea>
  );
}

/** A row ruled from the one above; `top` aligns the cells to the top (cells of several lines). */
export function DataRow({
  testId,
  top = false,
  children,
}: {
  testId?: string;
  top?: boolean;
  children: ReactNode;
}) {
  const classes = top
    ? "border-t border-zinc-200 align-top dark:border-zinc-800"
    : "border-t border-zinc-200 dark:border-zinc-800";
  return (
    <tr data-testid={testId} className={classes}>
      {children}
    </tr>
  );
}

const cellKinds = {
  text: "",
  /** a date and time: never broken over lines */
  when: "whitespace-nowrap",
  /** an id, an IP, a code */
  code: "font-mono text-xs",
  /** a JSON value: broken anywhere, at most 16rem wide */
  json: "max-w-[16rem] break-all font-mono text-xs",
  /** a long free text cut to one line; the whole of it is the cell's tooltip */
  note: "max-w-xs truncate text-xs",
} as const;

/** A cell of a DataRow, padded like its heading. */
export function Cell({
  kind = "text",
  className = "",
  title,
  testId,
  translate,
  children,
}: {
  kind?: keyof typeof cellKinds;
  className?: string;
  title?: string;
  testId?: string;
  /** "no" for stored text that is data, not words of the interface (e.g. a note the worker wrote). */
  translate?: "no";
  children?: ReactNode;
}) {
  const classes = [cellKinds[kind], "px-2 py-1", className].filter(Boolean).join(" ");
  return (
    <td className={classes} title={title} data-testid={testId} translate={translate}>
      {children}
    </td>
  );
}
