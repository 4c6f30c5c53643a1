// A worker's processing loops confirm several deliveries at once: the platform's read-back latency, not
// one read after another, bounds a worker. Observed from the platform's side (read-backs in flight),
// never from a clock, so a slow machine cannot make it flaky.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import type { PlatformClient } from "@/lib/platform/client";
import type { Operation } from "@/lib/platform/schemas";
import { startProcessingLoops } from "@/lib/webhooks/processing-loops";
import { isolateDatabase } from "../../support/database";
import { deliverOperation } from "../../support/webhooks";
import { snapshot } from "../../support/operations";

const READ_BACK_MS = 200;

/** A platform answering GET by id after READ_BACK_MS, counting the reads it serves at once. */
function slowPlatform(truth: Map<string, Operation>) {
  const seen = { inFlight: 0, maxInFlight: 0, reads: 0 };
  const platform: Pick<PlatformClient, "getOperation"> = {
    async getOperation(id: string) {
      seen.inFlight++;
      seen.reads++;
      seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
      await new Promise((r) => setTimeout(r, READ_BACK_MS));
      seen.inFlight--;
      return { operation: truth.get(id) ?? null, traceID: `readback-${id}` };
    },
  };
  return { platform, seen };
}

async function untilInboxDrained(): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if ((await getDb().webhookDelivery.count({ where: { outcome: "received" } })) === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the inbox did not drain in 60 s");
}

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(async () => restore());

describe("webhook processing loops", () => {
  it("keep several read-backs in flight and confirm every final status once", async () => {
    const finals = Array.from({ length: 12 }, () =>
      snapshot({ status: "success", dateUpdated: "2026-11-20T10:09:00.000Z" }),
    );
    const { platform, seen } = slowPlatform(new Map(finals.map((op) => [op.id, op])));
    for (const op of finals) await deliverOperation(op);
    const errors: unknown[] = [];
    const loops = startProcessingLoops(platform, 4, (error) => errors.push(error));
    await untilInboxDrained();
    await loops.stop();
    expect(errors).toEqual([]);
    expect(seen.maxInFlight).toBeGreaterThanOrEqual(2);
    expect(seen.maxInFlight).toBeLessThanOrEqual(4);
    expect(seen.reads).toBe(finals.length);
    const deliveries = await getDb().webhookDelivery.findMany();
    expect(deliveries.map((d) => d.outcome)).toEqual(finals.map(() => "applied"));
    const mirrored = await getDb().operation.findMany({ where: { id: { in: finals.map((op) => op.id) } } });
    expect(mirrored.map((op) => op.status)).toEqual(finals.map(() => "success"));
    const history = await getDb().operationStatusChange.count({
      where: { operationId: { in: finals.map((op) => op.id) } },
    });
    expect(history).toBe(finals.length);
  }, 90_000);

  it("never move an operation back when its events are handled by different loops at once", async () => {
    const id = randomUUID();
    const final = snapshot({ id, status: "success", dateUpdated: "2026-11-20T10:09:00.000Z" });
    const { platform } = slowPlatform(new Map([[id, final]]));
    await deliverOperation(snapshot({ id, status: "created", dateUpdated: "2026-11-20T10:00:00.000Z" }));
    await deliverOperation(final);
    await deliverOperation(snapshot({ id, status: "in_progress", dateUpdated: "2026-11-20T10:05:00.000Z" }));
    await deliverOperation(final);
    await deliverOperation(snapshot({ id, status: "created", dateUpdated: "2026-11-20T10:00:00.000Z" }));
    const errors: unknown[] = [];
    const loops = startProcessingLoops(platform, 5, (error) => errors.push(error));
    await untilInboxDrained();
    await loops.stop();
    expect(errors).toEqual([]);
    expect((await getDb().operation.findUniqueOrThrow({ where: { id } })).status).toBe("success");
    const history = await getDb().operationStatusChange.findMany({
      where: { operationId: id },
      orderBy: { id: "asc" },
    });
    expect(history.at(-1)?.toStatus).toBe("success");
    expect(history.filter((h) => h.toStatus === "success")).toHaveLength(1);
  }, 90_000);
});
