/**
 * The operations list filter, parsed from URL search params by one zod schema. Pages, the JSON route,
 * the CSV export and saved views all use it. A value that cannot be used is an error, never ignored;
 * an empty value (an untouched form field) means "no filter".
 */
import type { Messages } from "next-intl";
import { createTranslator } from "use-intl/core";
import { z } from "zod";
import { addFieldError } from "@/lib/i18n/issues";
import type { Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { OPERATION_STATUSES, OPERATION_TYPES, type OperationStatus } from "@/lib/platform/schemas";
import { Decimal } from "@/lib/money/decimal";
import { parseAmountInput } from "@/lib/money/parse-input";
import {
  canonicalTimeZone,
  FIRST_DAY,
  isDateOnly,
  isLocalDateTime,
  LAST_DAY,
  localDateTimeProblem,
  nextDay,
  zonedToUtc,
} from "@/lib/time/zone";
import { isUsableFilterText } from "@/lib/validation/text";
import { columnKeys, defaultColumns, type OperationColumn } from "./columns";
import { decodeCursor, type Cursor } from "./cursor";

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** Keys that may carry several values (repeated or comma-separated). */
const LIST_KEYS = new Set(["status", "cols"]);

/** A day or date-time from FIRST_DAY to LAST_DAY (lib/time/zone.ts): dateRange below never throws. */
const localDateTime = z.string().superRefine((value, ctx) => {
  const problem = localDateTimeProblem(value);
  if (problem) {
    const message = problem === "range" ? "operations.filter.dateRange" : "operations.filter.dateFormat";
    ctx.addIssue({ code: "custom", message });
  }
});

/** Typed as a person writes it in either language ("1500,50", "1 500.50"), kept as "1500.50". */
const amount = z
  .string()
  .transform((typed) => {
    const parsed = parseAmountInput(typed);
    return parsed.ok ? parsed.value : typed;
  })
  .pipe(z.string().regex(/^\d{1,20}(\.\d{1,4})?$/, "operations.filter.amountFormat"));

const cursor = z.string().transform((value, ctx): Cursor => {
  const decoded = decodeCursor(value);
  if (decoded) return decoded;
  ctx.addIssue({ code: "custom", message: "operations.filter.cursor" });
  return z.NEVER;
});

export const operationFilterSchema = z
  .object({
    type: z.enum(OPERATION_TYPES, { error: "operations.filter.type" }).optional(),
    status: z
      .array(z.enum(OPERATION_STATUSES, { error: "operations.filter.status" }))
      .default([])
      .transform((list) => [...new Set(list)]),
    method: z
      .string()
      .regex(/^[A-Za-z0-9_]{1,64}$/, "operations.filter.method")
      .optional(),
    currency: z
      .string()
      .regex(/^[A-Za-z]{2,10}$/, "operations.filter.currency")
      .transform((c) => c.toUpperCase())
      .optional(),
    from: localDateTime.optional(),
    to: localDateTime.optional(),
    tz: z
      .string()
      .refine(isUsableFilterText, "operations.filter.invisibleCharacters")
      .transform((value, ctx) => {
        const zone = canonicalTimeZone(value);
        if (zone) return zone;
        ctx.addIssue({ code: "custom", message: "operations.filter.unknownZone", params: { zone: value } });
        return z.NEVER;
      })
      .default("UTC"),
    amountMin: amount.optional(),
    amountMax: amount.optional(),
    q: z
      .string()
      .trim()
      .min(1)
      .max(200, "operations.filter.searchTooLong")
      .refine(isUsableFilterText, "operations.filter.invisibleCharacters")
      .optional(),
    stuck: z
      .literal("1", { error: "operations.filter.stuck" })
      .optional()
      .transform((v) => v === "1"),
    cols: z
      .array(z.enum(columnKeys, { error: "operations.filter.columns" }))
      .min(1, "operations.filter.noColumns")
      .optional()
      .transform((cols): OperationColumn[] => (cols ? [...new Set(cols)] : defaultColumns)),
    size: z
      .string()
      .regex(/^\d{1,3}$/, "operations.filter.pageSize")
      .transform(Number)
      .refine((n) => n >= 1 && n <= MAX_PAGE_SIZE, "operations.filter.pageSize")
      .optional(),
    after: cursor.optional(),
    before: cursor.optional(),
  })
  .strict()
  .superRefine((f, ctx) => {
    if (f.after && f.before) {
      ctx.addIssue({ code: "custom", path: ["before"], message: "operations.filter.afterAndBefore" });
    }
    if (f.amountMin && f.amountMax && new Decimal(f.amountMin).gt(f.amountMax)) {
      ctx.addIssue({ code: "custom", path: ["amountMax"], message: "operations.filter.maxBelowMin" });
    }
    // (zod runs this only when every field passed; checked again, since dateRange throws on the rest)
    if (f.from && f.to && f.tz && isLocalDateTime(f.from) && isLocalDateTime(f.to)) {
      const range = dateRange(f.from, f.to, f.tz);
      if (range.from && range.to && range.from >= range.to) {
        ctx.addIssue({ code: "custom", path: ["to"], message: "operations.filter.endBeforeStart" });
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

/**
 * "from" inclusive; a date-only "to" includes that whole day, a date-time "to" is exclusive. Only for
 * values the schema took (up to LAST_DAY, whose next day still has a four-digit year).
 */
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
  // No prototype: "__proto__" or "toString" in a URL is a key like any other (an unknown parameter).
  const values: Record<string, unknown> = Object.create(null);
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
    } else if (Object.hasOwn(values, key)) {
      repeated.push(key);
    } else {
      values[key] = value;
    }
  }
  return { values, repeated };
}

/** The schema's messages are catalog keys, worded by parseOperationFilter with these arguments. */
const MESSAGE_ARGUMENTS = {
  statuses: OPERATION_STATUSES.join(", "),
  columns: columnKeys.join(", "),
  maximum: MAX_PAGE_SIZE,
  firstDay: FIRST_DAY,
  lastDay: LAST_DAY,
};

/** Parses the filter; the errors are in the reader's language (English when none is given). */
export function parseOperationFilter(input: SearchParamsInput, locale: Locale = "en"): FilterParseResult {
  const { values, repeated } = normalise(input);
  const result = operationFilterSchema.safeParse(values);
  const t = createTranslator({ locale, messages: messagesFor(locale) as Messages });
  const fieldErrors: Record<string, string[]> = {};
  const add = (key: string, message: string) => addFieldError(fieldErrors, key, message);
  for (const key of repeated) add(key, t("operations.filter.repeated", { param: key }));
  if (!result.success) {
    for (const issue of result.error.issues) {
      if (issue.code === "unrecognized_keys") {
        for (const key of issue.keys) add(key, t("operations.filter.unknownParameter", { param: key }));
      } else {
        const params = issue.code === "custom" ? (issue.params as Record<string, string> | undefined) : {};
        const known = /^operations\.filter\.[a-zA-Z]+$/.test(issue.message) && t.has(issue.message as never);
        const message = known
          ? t(issue.message as never, { ...MESSAGE_ARGUMENTS, ...params } as never)
          : issue.message;
        add(String(issue.path[0] ?? "filter"), message);
      }
    }
  }
  if (!result.success || repeated.length) {
    return { ok: false, message: t("operations.filter.invalid"), fieldErrors };
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
  // UTC too: a link without tz is read in the user's own zone (the operations page).
  p.set("tz", filter.tz);
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
