// The reconciliation's signal that webhook processing is behind: the oldest delivery no worker has
// taken yet. Leased deliveries, retries waiting for their time and settled ones are not a backlog.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { unclaimedWebhookWaitMs } from "@/lib/reconcile/yield";
import { isolateDatabase } from "../../support/database";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
}, 60_000);
afterAll(() => restore());

async function delivery(secondsAgo: number, data: { outcome?: "received" | "applied"; claimedUntil?: Date }) {
  await getDb().webhookDelivery.create({
    data: {
      headers: {},
      body: "{}",
      bodyBytes: 2,
      outcome: data.outcome ?? "received",
      claimedUntil: data.claimedUntil ?? null,
      receivedAt: new Date(Date.now() - secondsAgo * 1000),
    },
  });
}

describe("unclaimedWebhookWaitMs", () => {
  it("is 0 for an empty inbox, then the age of the oldest delivery nobody has taken", async () => {
    expect(await unclaimedWebhookWaitMs()).toBe(0);
    await delivery(600, { outcome: "applied" });
    await delivery(300, { claimedUntil: new Date(Date.now() + 60_000) }); // leased
    await delivery(120, { claimedUntil: new Date(Date.now() + 30_000) }); // a retry waiting for its time
    expect(await unclaimedWebhookWaitMs()).toBe(0);
    await delivery(5, {});
    await delivery(2, {});
    const waited = await unclaimedWebhookWaitMs();
    expect(waited).toBeGreaterThanOrEqual(5_000);
    expect(waited).toBeLessThan(60_000);
  });
});
