import "server-only";
import { poolQuery } from "@/lib/db";

/** Webhook processing is behind when a delivery no worker has taken yet has waited longer than this. */
const BEHIND_MS = 1_000;
/** The most one page waits: under a lasting overload reconciliation slows down, it never stops. */
const MAX_WAIT_MS = 10_000;
const CHECK_EVERY_MS = 250;

/**
 * How long the oldest delivery that no worker has taken yet has waited, in ms (0 for none). Leased
 * deliveries and those waiting for a retry have `claimedUntil` set: they are not a backlog.
 */
export async function unclaimedWebhookWaitMs(): Promise<number> {
  const { rows } = await poolQuery<{ ms: string | null }>({
    text: `SELECT extract(epoch FROM now() - min("receivedAt")) * 1000 AS ms
           FROM "WebhookDelivery" WHERE outcome = 'received' AND "claimedUntil" IS NULL`,
  });
  return Math.max(0, Number(rows[0]?.ms ?? 0));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Waits while webhook processing is behind, at most MAX_WAIT_MS; returns how long it waited. Passed as
 * `yieldTo` by the worker, whose processing loops share the machine with its reconciliation runs and
 * stuck-operation scans (between pages, between batches): on
 * two cores at 500 events/s an incremental run took the inbox lag from 0.1 to 3.4 s for the 15 s it
 * ran (docs/deploy.md). Webhooks are the real-time path; reconciliation is the safety net behind them.
 */
export async function yieldToWebhooks(
  probe: { waitMs: () => Promise<number>; sleep: (ms: number) => Promise<void> } = {
    waitMs: unclaimedWebhookWaitMs,
    sleep,
  },
): Promise<number> {
  let waited = 0;
  while (waited < MAX_WAIT_MS && (await probe.waitMs()) > BEHIND_MS) {
    await probe.sleep(CHECK_EVERY_MS);
    waited += CHECK_EVERY_MS;
  }
  return waited;
}
