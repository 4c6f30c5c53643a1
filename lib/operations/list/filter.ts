/**
 * The operations list filter, parsed from URL search params by one zod schema. Pages, the JSON route,
 * the CSV export and saved views all use it. A value that cannot be used is an error, never ignored;
 * an empty value (an untouched form field) means "no filter".
 */
import { z } from "zod";
import { OPERATION_STATUSES, OPERATION_TYPES, type OperationStatus } from "@/lib/platform/schemas";
import { Decimal } from "@/lib/money/decimal";
import { canonicalTimeZone, isDateOnly, isLocalDateTime, nextDay, zonedToUtc } from "@/lib/time/zone";
import { filterTextMessage, isUsableFilterText } from "@/lib/validation/text";
import { columnKeys, defaultColumns, type OperationColumn } from "./columns";
import { decodeCursor, type Cursor } from "./cursor";

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** Keys that may carry several values (repeated or comma-separated). */
const LIST_KEYS = new Set(["status", "cols"]);

const localDateTime = z
  .string()
  .refine(isLocalDateTime, "Use a date like 2026-11-20 or a date and time like 2026-11-20T13:05.");

const amount = z
  .string()
  .regex(/^\d{1,20}(\.\d{1,4})?$/, "Use a plain amount with at most 4 decimals, like 1500 or 0.0001.");

const cursor = z.string().transform((value, ctx): Cursor => {
  const decoded = decodeCursor(value);
  if (decoded) return decoded;
  ctx.addIssue({ code: "custom", message: "This page link is not valid; go back to the first page." });
  return z.NEVER;
});

export const operationFilterSchema = z
  .object({
    type: z.enum(OPERATION_TYPES, { error: "Type must be payIn or payOut." }).optional(),
    status: z
      .array(z.enum(OPERATION_STATUSES, { error: `Status must be one of ${OPERATION_STATUSES.join(", ")}.` }))
      .default([])
      .transform((list) => [...new Set(list)]),
    method: z
      .string()
      .regex(/^[A-Za-z0-9_]{1,64}$/, "A payment method is letters, digits and _ only (e.g. toCard).")
      .optional(),
    currency: z
      .string()
      .regex(/^[A-Za-z]{2,10}$/, "A currency is a code of letters, like RUB.")
      .transform((c) => c.toUpperCase())
      .optional(),
    from: localDateTime.optional(),
    to: localDateTime.optional(),
    tz: z
      .string()
      .refine(isUsableFilterText, filterTextMessage)
      .transform((value, ctx) => {
        const zone = canonicalTimeZone(value);
        if (zone) return zone;
        ctx.addIssue({ code: "custom", message: `Unknown time zone "${value}"; use an IANA name.` });
        return z.NEVER;
      })
      .default("UTC"),
    amountMin: amount.optional(),
    amountMax: amount.optional(),
    q: z
      .string()
      .trim()
      .min(1)
      .max(200, "Search text is at most 200 characters.")
      .refine(isUsableFilterText, filterTextMessage)
      .optional(),
    stuck: z
      .literal("1", { error: 'stuck is "1" (only operations flagged as stuck) or left out.' })
      .optional()
      .transform((v) => v === "1"),
    cols: z
      .array(z.enum(columnKeys, { error: `Columns must be among ${columnKeys.join(", ")}.` }))
      .min(1, "Choose at least one column.")
      .optional()
      .transform((cols): OperationColumn[] => (cols ? [...new Set(cols)] : defaultColumns)),
    size: z
      .string()
      .regex(/^\d{1,3}$/, `Page size is a whole number from 1 to ${MAX_PAGE_SIZE}.`)
      .transform(Number)
      .refine((n) => n >= 1 && n <= MAX_PAGE_SIZE, `Page size is a whole number from 1 to ${MAX_PAGE_SIZE}.`)
      .optional(),
    after: cursor.optional(),
    before: cursor.optional(),
  })
  .strict()
  .superRefine((f, ctx) => {
    if (f.after && f.before) {
      ctx.addIssue({ code: "custom", path: ["before"], message: "Use either after or before, not both." });
    }
    if (f.amountMin && f.amountMax && new Decimal(f.amountMin).gt(f.amountMax)) {
      ctx.addIssue({ code: "custom", path: ["amountMax"], message: "The maximum is below the minimum." });
    }
    if (f.from && f.to && f.tz) {
      const range = dateRange(f.from, f.to, f.tz);
      if (range.from && range.to && range.from >= range.to) {
        ctx.addIssue({ code: "custom", path: ["to"], message: "The end date is before the start date." });
      }
    }
  });

type Parsed = z.output<typeof operationFilterSchema>;

export type OperationFilter = Omit<Parsed, "size" | "status"> & {
  statuses: OperationStatus[];
  size: number;
  /** UTC bounds of the date range: from inclusive, to exclusive. */
  dateFrom: Date | undefined;
  dateTo: Date | undefined;
};

export type FilterParseResult =
  | { ok: true; filter: OperationFilter }
  | { ok: false; message: string; fieldErrors: Record<string, string[]> };

export type SearchParamsInput = URLSearchParams | Record<string, string | string[] | undefined>;

/** "from" inclusive; a date-only "to" includes that whole day, a date-time "to" is exclusive. */
function dateRange(from: string | undefined, to: string | undefined, tz: string) {
  return {
    from: from ? zonedToUtc(from, tz) : undefined,
    to: to ? zonedToUtc(isDateOnly(to) ? nextDay(to) : to, tz) : undefined,
  };
}

function entries(input: SearchParamsInput): Array<[string, string]> {
  if (input instanceof URLSearchParams) return [...input.entries()];
  return Object.entries(input).flatMap(([key, value]) =>
    value === undefined
      ? []
      : (Array.isArray(value) ? value : [value]).map((v): [string, string] => [key, v]),
  );
}

/** Groups the params: list keys split on commas, single keys given twice are reported, empty values dropped. */
function normalise(input: SearchParamsInput): { values: Record<string, unknown>; repeated: string[] } {
  const values: Record<string, unknown> = {};
  const repeated: string[] = [];
  for (const [key, raw] of entries(input)) {
    const value = raw.trim();
    if (value === "") continue;
    if (LIST_KEYS.has(key)) {
      const list = (values[key] as string[] | undefined) ?? [];
      list.push(
        ...value
          .split(",")
          .map((v) => v.trim())
          .filter(Boolean),
      );
      values[key] = list;
    } else if (key in values) {
      repeated.push(key);
    } else {
      values[key] = value;
    }
  }
  return { values, repeated };
}

export function parseOperationFilter(input: SearchParamsInput): FilterParseResult {
  const { values, repeated } = normalise(input);
  const result = operationFilterSchema.safeParse(values);
  const fieldErrors: Record<string, string[]> = {};
  const add = (key: string, message: string) => (fieldErrors[key] ??= []).push(message);
  for (const key of repeated) add(key, `${key} is given more than once.`);
  if (!result.success) {
    for (const issue of result.error.issues) {
      if (issue.code === "unrecognized_keys") {
        for (const key of issue.keys) add(key, `Unknown filter parameter "${key}".`);
      } else {
        add(String(issue.path[0] ?? "filter"), issue.message);
      }
    }
  }
  if (!result.success || repeated.length) {
    return { ok: false, message: "Some filter values cannot be used; fix them and try again.", fieldErrors };
  }
  const { size, status, ...rest } = result.data;
  const range = dateRange(rest.from, rest.to, rest.tz);
  return {
    ok: true,
    filter: {
      ...rest,
      statuses: status,
      size: size ?? DEFAULT_PAGE_SIZE,
      dateFrom: range.from,
      dateTo: range.to,
    },
  };
}

/** The params that select rows (no paging, no view settings): for exports, counts and saved views. */
export function filterParams(filter: OperationFilter): URLSearchParams {
  const p = new URLSearchParams();
  if (filter.type) p.set("type", filter.type);
  if (filter.statuses.length) p.set("status", filter.statuses.join(","));
  if (filter.method) p.set("method", filter.method);
  if (filter.currency) p.set("currency", filter.currency);
  if (filter.from) p.set("from", filter.from);
  if (filter.to) p.set("to", filter.to);
  if (filter.tz !== "UTC") p.set("tz", filter.tz);
  if (filter.amountMin) p.set("amountMin", filter.amountMin);
  if (filter.amountMax) p.set("amountMax", filter.amountMax);
  if (filter.q) p.set("q", filter.q);
  if (filter.stuck) p.set("stuck", "1");
  return p;
}

/** Filter plus view settings (columns, page size), without paging: what a saved view stores. */
export function viewParams(filter: OperationFilter): URLSearchParams {
  const p = filterParams(filter);
  if (filter.cols.join(",") !== defaultColumns.join(",")) p.set("cols", filter.cols.join(","));
  if (filter.size !== DEFAULT_PAGE_SIZE) p.set("size", String(filter.size));
  return p;
}
