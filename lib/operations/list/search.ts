import "server-only";
import { getDb } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/uuid";

/** Four or more digits may be the end of a recipient card, phone or account number. */
const LAST_DIGITS = /^\d{4,34}$/;

/**
 * The digits a search text matches against the end of recipient numbers, or null when it does not
 * reach numbers at all. Who may run such a search is decided in search-policy.ts.
 */
export function recipientDigits(q: string): string | null {
  const text = q.trim();
  return LAST_DIGITS.test(text) ? text : null;
}

/**
 * Turns the search box text into a condition on the operation `o`: an operation id, an
 * idTransactionMerchant (exact), a traceID of any API call or webhook about the operation, or the last
 * digits of the recipient number (pay-in details, or the pay-out request's recipient).
 */
export async function searchCondition(q: string): Promise<Prisma.Sql> {
  const text = q.trim();
  const ids = new Set<string>();
  const merchantIds = new Set<string>([text]);

  if (isUuid(text)) {
    const id = text.toLowerCase();
    const db = getDb();
    const operation = await db.operation.findUnique({ where: { id }, select: { id: true } });
    if (operation) {
      ids.add(id);
    } else {
      const [calls, webhooks] = await Promise.all([
        db.apiCall.findMany({
          where: { traceID: { in: [text, id] } },
          select: { operationId: true, idTransactionMerchant: true },
          take: 50,
        }),
        db.webhookDelivery.findMany({
          where: { traceID: { in: [text, id] }, operationId: { not: null } },
          select: { operationId: true },
          take: 50,
        }),
      ]);
      for (const c of calls) {
        if (c.operationId) ids.add(c.operationId);
        if (c.idTransactionMerchant) merchantIds.add(c.idTransactionMerchant);
      }
      for (const w of webhooks) if (w.operationId) ids.add(w.operationId);
      if (calls.length === 0 && webhooks.length === 0) {
        // Read-backs are recorded as API calls too; this only finds deliveries whose call record is gone.
        const confirmed = await db.webhookDelivery.findMany({
          where: { readBackTraceID: { in: [text, id] }, operationId: { not: null } },
          select: { operationId: true },
          take: 50,
        });
        for (const w of confirmed) if (w.operationId) ids.add(w.operationId);
      }
    }
  }

  // One indexed lookup per way of matching, united: an OR across them would make PostgreSQL walk the
  // whole list instead (seconds on a million operations, against milliseconds this way).
  const matches: Prisma.Sql[] = [
    Prisma.sql`SELECT id FROM "Operation" WHERE "idTransactionMerchant" IN (${Prisma.join([...merchantIds])})`,
  ];
  if (ids.size) {
    matches.push(
      Prisma.sql`SELECT id FROM "Operation" WHERE id IN (${Prisma.join([...ids].map((id) => Prisma.sql`${id}::uuid`))})`,
    );
  }
  const digits = recipientDigits(text);
  if (digits !== null) {
    const suffix = `%${digits}`;
    matches.push(Prisma.sql`SELECT id FROM "Operation" WHERE "detailsNumber" LIKE ${suffix}`);
    matches.push(
      Prisma.sql`SELECT "operationId" FROM "PayoutRequest" WHERE "recipientNumber" LIKE ${suffix} AND "operationId" IS NOT NULL`,
    );
  }
  return Prisma.sql`o.id IN (${Prisma.join(matches, " UNION ALL ")})`;
}
