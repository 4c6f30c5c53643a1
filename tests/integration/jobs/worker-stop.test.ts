// A worker stopped while a webhook's read-back and a reconciliation are both waiting on a platform that
// does not answer: pg-boss must settle the job it holds (failed, to be retried) within the stop's
// timeout. Left active, its stately queue would hold that job back until it expired (15 minutes for the
// incremental run, 3 hours for the full one), whatever other workers there were.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { startWorker } from "@/lib/jobs/worker";
import { isolateDatabase } from "../../support/database";
import { snapshot } from "../../support/operations";
import { deliverOperation } from "../../support/webhooks";

const held: ServerResponse[] = [];
let answering = false;
const seen: string[] = [];
// Takes every request and answers none until `answering`, then refuses each one at once.
const platform = createServer((request: IncomingMessage, response: ServerResponse) => {
  seen.push(`${request.method} ${request.url}`);
  if (answering) response.writeHead(503).end();
  else held.push(response);
});

let restore: () => Promise<void>;
beforeAll(async () => {
  await new Promise<void>((resolve) => platform.listen(0, "127.0.0.1", resolve));
  process.env.PLATFORM_BASE_URL = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
  process.env.PLATFORM_TIMEOUT_MS = "60000";
  process.env.LOG_LEVEL = "warn";
  restore = await isolateDatabase();
});
afterAll(async () => {
  answering = true;
  for (const response of held) response.writeHead(503).end();
  platform.closeAllConnections();
  await new Promise((resolve) => platform.close(resolve));
  await restore();
});

const activeJobs = async () =>
  (
    await getDb().$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM pgboss.job WHERE state = 'active'`)
  ).map((j) => j.name);

describe("stopping a worker", () => {
  it("settles the job it holds within the timeout while a read-back still waits", async () => {
    await deliverOperation(snapshot({ id: randomUUID(), status: "success" }));
    const worker = await startWorker({ webhookLoops: 1 });
    // the start-up reconciliation is under way, and so is the webhook's read-back
    await expect.poll(activeJobs, { timeout: 15_000 }).toEqual(["reconcile-incremental"]);
    await expect.poll(() => seen.some((r) => r.startsWith("GET")), { timeout: 15_000 }).toBe(true);

    const stopped = worker.stop(1_000);
    await expect.poll(activeJobs, { timeout: 15_000, interval: 200 }).toEqual([]);
    const [job] = await getDb().$queryRawUnsafe<{ state: string }[]>(
      `SELECT state FROM pgboss.job WHERE name = 'reconcile-incremental'`,
    );
    expect(job?.state).not.toBe("completed");

    // The platform answers at last (refusing): the read-back ends and the stop completes; the delivery
    // was not settled by the stop, it waits to be tried again.
    answering = true;
    for (const response of held.splice(0)) response.writeHead(503).end();
    await stopped;
    const delivery = await getDb().webhookDelivery.findFirstOrThrow();
    expect(delivery.outcome).toBe("received");
  }, 60_000);
});
