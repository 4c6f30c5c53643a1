import "server-only";
import { createTranslator } from "use-intl/core";
import { z } from "zod";
import type { CatalogMessages } from "@/i18n/messages-type";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { localizedFieldErrors } from "@/lib/i18n/validation";
import { csvCell, csvLine } from "@/lib/csv/encode";
import { keysetPage } from "@/lib/keyset-page";
import { FIRST_DAY, LAST_DAY, localDateTimeProblem, nextDay, zonedToUtc } from "@/lib/time/zone";
import { isUuid } from "@/lib/uuid";
import { isUsableFilterText } from "@/lib/validation/text";

const INT8_MAX = 9_223_372_036_854_775_807n;
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, "admin.audit.errors.tooLong")
    .refine(isUsableFilterText, "admin.audit.errors.invisibleCharacters")
    .transform((v) => (v === "" ? undefined : v))
    .optional();
/** A day from FIRST_DAY to LAST_DAY (lib/time/zone.ts): year 0 would fail the query itself. */
const day = (what: "fromDate" | "toDate") =>
  z
    .string()
    .trim()
    .transform((v) => (v === "" ? undefined : v))
    .optional()
    .superRefine((v, ctx) => {
      const problem = v === undefined ? null : localDateTimeProblem(v, { dateOnly: true });
      if (problem === "range") {
        ctx.addIssue({
          code: "custom",
          message: "admin.audit.errors.dateRange",
          params: { firstDay: FIRST_DAY, lastDay: LAST_DAY },
        });
      } else if (problem) ctx.addIssue({ code: "custom", message: `admin.audit.errors.${what}` });
    });

/** Filters of the audit log (query parameters of the page and of the CSV export). */
export const auditFilterSchema = z
  .object({
    actor: text(320),
    action: text(100),
    target: text(200),
    from: day("fromDate"),
    to: day("toDate"),
    before: z
      .string()
      .regex(/^\d{1,19}$/, "admin.audit.errors.cursor")
      .transform((v) => BigInt(v))
      .refine((v) => v <= INT8_MAX, "admin.audit.errors.cursor")
      .optional(),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, {
    path: ["to"],
    message: "admin.audit.errors.order",
  });
/** `tz`: the zone whose days `from` and `to` name, the one the page shows its times in. */
export type AuditFilter = z.output<typeof auditFilterSchema> & { tz: string };

/**
 * Parses URL search params (first value of each key) into a filter with its days in `timeZone`, or
 * field errors in `locale`.
 */
export function parseAuditFilter(
  params: URLSearchParams | Record<string, string | string[] | undefined>,
  locale: Locale = getEnv().DEFAULT_LOCALE,
  timeZone = "UTC",
):
  | { ok: true; filter: AuditFilter }
  | { ok: false; message: string; fieldErrors: Record<string, string[] | undefined> } {
  const raw: Record<string, string> = {};
  const entries =
    params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params).filter(([, v]) => v);
  for (const [key, value] of entries) {
    if (key in raw) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === "string") raw[key] = first;
  }
  const parsed = auditFilterSchema.safeParse(raw);
  if (parsed.success) return { ok: true, filter: { ...parsed.data, tz: timeZone } };
  const t = createTranslator({
    locale,
    messages: messagesFor(locale) as CatalogMessages,
    namespace: "admin",
  });
  return {
    ok: false,
    message: t("audit.errors.checkFilters"),
    fieldErrors: localizedFieldErrors(parsed.error, locale),
  };
}

/** Prisma's contains and startsWith are LIKE patterns: the text's own % and _ must match themselves. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}

/** The user a target filter names by email, when it does: their id is what the entries store. */
type TargetUser = { id: string; email: string } | null;

/** The user whose email the target filter is (one look-up, only for a value with an @), or null. */
async function targetUserOf(filter: AuditFilter): Promise<TargetUser> {
  if (!filter.target?.includes("@")) return null;
  return getDb().user.findUnique({
    where: { email: filter.target.toLowerCase() },
    select: { id: true, email: true },
  });
}

function where(filter: AuditFilter, targetUser: TargetUser, before?: bigint): Prisma.AuditLogWhereInput {
  const and: Prisma.AuditLogWhereInput[] = [];
  if (filter.actor) and.push({ actorEmail: { contains: likeLiteral(filter.actor), mode: "insensitive" } });
  if (filter.action) and.push({ action: { startsWith: likeLiteral(filter.action) } });
  if (filter.target) {
    // A type matches whatever its case: entries were once written as "User" as well as "user". Prisma
    // matches an insensitive `equals` with ILIKE: the text's own % and _ must match themselves.
    const or: Prisma.AuditLogWhereInput[] = [
      { targetId: filter.target },
      { targetType: { equals: likeLiteral(filter.target), mode: "insensitive" } },
    ];
    if (targetUser) or.push({ targetId: targetUser.id });
    and.push({ OR: or });
  }
  if (filter.from) and.push({ at: { gte: zonedToUtc(filter.from, filter.tz) } });
  if (filter.to) and.push({ at: { lt: zonedToUtc(nextDay(filter.to), filter.tz) } });
  const cursor = before ?? filter.before;
  if (cursor !== undefined) and.push({ id: { lt: cursor } });
  return { AND: and };
}

export type AuditRow = {
  id: string;
  at: string;
  actorEmail: string | null;
  ip: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  /** The target user's email, for an entry about a user (targetType "user", in any case) who exists. */
  targetEmail: string | null;
  before: unknown;
  after: unknown;
};

const fields = {
  id: true,
  at: true,
  actorEmail: true,
  ip: true,
  action: true,
  targetType: true,
  targetId: true,
  before: true,
  after: true,
} as const;

type Record_ = {
  id: bigint;
  at: Date;
  actorEmail: string | null;
  ip: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  before: Prisma.JsonValue;
  after: Prisma.JsonValue;
};

const PAGE = 50;
const isUserTarget = (r: Record_) => r.targetType?.toLowerCase() === "user" && r.targetId !== null;

/**
 * The emails of the users the rows are about, by id: the user named by the filter is known already;
 * the others in one query (none when the page holds no other user).
 */
async function targetEmails(rows: Record_[], targetUser: TargetUser): Promise<Map<string, string>> {
  const emails = new Map<string, string>();
  if (targetUser) emails.set(targetUser.id, targetUser.email);
  const ids = [...new Set(rows.filter(isUserTarget).map((r) => r.targetId!.toLowerCase()))].filter(
    (id) => isUuid(id) && !emails.has(id),
  );
  if (ids.length > 0) {
    const users = await getDb().user.findMany({
      where: { id: { in: ids } },
      select: { id: true, email: true },
    });
    for (const u of users) emails.set(u.id, u.email);
  }
  return emails;
}

/**
 * Newest first (id DESC), keyset paging: `nextBefore` is the cursor of the next, older page. An entry
 * about a user carries the user's email. Two round trips: the page, then the emails of its users (or,
 * for a target filter given as an email, that user, then the page).
 */
export async function listAudit(
  filter: AuditFilter,
): Promise<{ rows: AuditRow[]; nextBefore: string | null }> {
  const targetUser = await targetUserOf(filter);
  const rows = await getDb().auditLog.findMany({
    where: where(filter, targetUser),
    orderBy: { id: "desc" },
    take: PAGE + 1,
    select: fields,
  });
  const emails = await targetEmails(rows.slice(0, PAGE), targetUser);
  return keysetPage(rows, PAGE, (r) => ({
    ...r,
    id: r.id.toString(),
    at: r.at.toISOString(),
    targetEmail: isUserTarget(r) ? (emails.get(r.targetId!.toLowerCase()) ?? null) : null,
  }));
}

export const auditCsvHeader = [
  "id",
  "at",
  "actorEmail",
  "ip",
  "action",
  "targetType",
  "targetId",
  "before",
  "after",
] as const;

const json = (v: Prisma.JsonValue) => (v === null ? null : JSON.stringify(v));

/** Every matching entry as CSV lines, newest first, read in keyset batches (memory stays flat). */
export async function* exportAuditCsv(filter: AuditFilter, batch = 2_000): AsyncGenerator<string> {
  yield csvLine([...auditCsvHeader]);
  const targetUser = await targetUserOf(filter);
  let cursor: bigint | undefined = filter.before;
  for (;;) {
    const rows: Record_[] = await getDb().auditLog.findMany({
      where: where(filter, targetUser, cursor),
      orderBy: { id: "desc" },
      take: batch,
      select: fields,
    });
    if (rows.length === 0) return;
    yield rows
      .map((r) =>
        csvLine([
          csvCell(r.id.toString()),
          csvCell(r.at.toISOString()),
          csvCell(r.actorEmail, { text: true }),
          csvCell(r.ip, { text: true }),
          csvCell(r.action, { text: true }),
          csvCell(r.targetType, { text: true }),
          csvCell(r.targetId, { text: true }),
          csvCell(json(r.before), { text: true }),
          csvCell(json(r.after), { text: true }),
        ]),
      )
      .join("");
    if (rows.length < batch) return;
    cursor = rows[rows.length - 1]!.id;
  }
}
