import { getDb } from "@/lib/db";
import type { WebhookOutcome } from "@/lib/generated/prisma/enums";

/** `count` bare deliveries with the given outcome, in one statement (ids in insertion order). */
export async function addDeliveries(outcome: WebhookOutcome, count: number): Promise<void> {
  await getDb().$executeRaw`
    INSERT INTO "WebhookDelivery" (headers, body, "bodyBytes", outcome)
    SELECT '{}'::jsonb, '{}', 2, ${outcome}::"WebhookOutcome" FROM generate_series(1, ${count})`;
}
