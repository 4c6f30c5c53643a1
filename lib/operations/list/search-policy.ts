import "server-only";
import { translatorFor } from "@/lib/auth/translator";
import { audit, type StaffActor } from "@/lib/audit/log";
import { can, type Role } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db";
import { createRateLimit } from "@/lib/http/rate-limit";
import { filterParams, type OperationFilter } from "./filter";
import { maskNumber } from "@/lib/recipients/mask";
import { recipientDigits } from "./search";

/**
 * Who may search operations by the digits of recipient numbers, how often, and what is recorded. A
 * suffix search that anyone could lengthen one digit at a time gave back a whole card number in 55
 * requests; an exact whole number confirms a guess just the same.
 *
 * - Exactly 4 digits (what the list shows of a masked number): every reader of operations.
 * - 5 or more digits: only with `recipients.reveal`, and each search is audited with its length and
 *   its masked digits. The digits themselves never go into the (append-only) audit log.
 * - Every digit search it lets through counts against a per-user limit (a minute's window).
 * Text that is not a digit search (ids, merchant ids, traceIDs) matches exactly and is not limited.
 *
 * Every entry point that runs a filter's search (the list page, the JSON route, the CSV export) calls
 * `authorizeSearch` first; a refused search runs no query. Saving a view asks `maySearch`.
 */

/** Digits of a number that the console shows unmasked. */
export const SHOWN_DIGITS = 4;

export const DIGIT_SEARCHES_PER_MINUTE = 30;

/** Per user, per process (see lib/http/rate-limit.ts). */
export const digitSearchRateLimit = createRateLimit({ limit: DIGIT_SEARCHES_PER_MINUTE, windowMs: 60_000 });

/** Worded for the reader by searchRefusalMessage. */
export type SearchRefusal = {
  ok: false;
  code: "search_not_allowed" | "rate_limited";
};

/** Where a search was run, recorded with audited searches. */
export type SearchEntryPoint = "list" | "api" | "export";

/** May this role run this search text at all (the permission part, without the limit)? */
export function maySearch(role: Role, q: string | undefined): { ok: true } | SearchRefusal {
  const digits = q === undefined ? null : recipientDigits(q);
  if (digits === null || digits.length <= SHOWN_DIGITS || can(role, "recipients.reveal")) return { ok: true };
  return { ok: false, code: "search_not_allowed" };
}

/**
 * Called right before a filter's search runs: refuses what the user may not search, counts digit
 * searches against the user's limit, and audits searches by more digits than the console shows.
 */
export async function authorizeSearch(
  actor: StaffActor,
  q: string | undefined,
  via: SearchEntryPoint,
): Promise<{ ok: true; digitSearch: boolean } | SearchRefusal> {
  const digits = q === undefined ? null : recipientDigits(q);
  if (digits === null) return { ok: true, digitSearch: false };
  const allowed = maySearch(actor.role, digits);
  if (!allowed.ok) return allowed;
  if (!digitSearchRateLimit.take(actor.id)) {
    return { ok: false, code: "rate_limited" };
  }
  if (digits.length > SHOWN_DIGITS) {
    await getDb().$transaction((tx) =>
      audit(tx, actor, {
        action: "operations.search_digits",
        targetType: "operations",
        after: { searched: maskNumber(digits), digits: digits.length, via },
      }),
    );
  }
  return { ok: true, digitSearch: true };
}

/** The filter as a query string for an audit entry: a digit search appears masked. */
export function filterForAudit(filter: OperationFilter): string {
  const params = filterParams(filter);
  const digits = filter.q === undefined ? null : recipientDigits(filter.q);
  if (digits !== null && digits.length > SHOWN_DIGITS) params.set("q", maskNumber(digits));
  return params.toString();
}

/** Why the search was refused, in the reader's language. */
export async function searchRefusalMessage(refusal: SearchRefusal): Promise<string> {
  const t = await translatorFor("operations.search");
  return refusal.code === "rate_limited"
    ? t("rateLimited", { limit: DIGIT_SEARCHES_PER_MINUTE })
    : t("notAllowed", { digits: SHOWN_DIGITS });
}

/** The JSON answer of a route handler to a refused search: 400, or 429 past the limit. */
export async function searchRefusalResponse(refusal: SearchRefusal): Promise<Response> {
  const limited = refusal.code === "rate_limited";
  const message = await searchRefusalMessage(refusal);
  return Response.json(
    { ok: false, code: refusal.code, message, fieldErrors: { q: [message] } },
    { status: limited ? 429 : 400, headers: limited ? { "retry-after": "60" } : undefined },
  );
}
