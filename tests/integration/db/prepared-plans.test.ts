// The webhook path and the mirror's writes send some statements as named (prepared) queries, planned once
// per connection. PostgreSQL keeps such a plan: one made while a table was empty stays a sequential scan
// after the table has grown. Only statements whose plan cannot depend on a table's size may be named;
// every query that finds rows by a condition (the inbox claim, the mirror read, a delivery's update) is
// planned afresh each time. Found in the processing bench: named, the claim and the mirror read took the
// database from ~2 to ~5 ms of CPU per event once the inbox held a backlog.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { getDatabaseUrl } from "@/lib/env";
import { applySnapshotsBatch } from "@/lib/operations/mirror/apply-batch";
import { databaseRecorder } from "@/lib/platform/record-to-db";
import { CLAIM_SETTINGS, claimStatement, processPendingWebhooks } from "@/lib/webhooks/process";
import { isolateDatabase, withClient } from "../../support/database";
import { callRecord } from "../../support/in-memory-recorder";
import { explainAnalyze, planOf, rowsRead, type ExplainRow } from "../../support/plans";
import { deliverOperation } from "../../support/webhooks";
import { snapshot } from "../../support/operations";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(() => restore());

/** Every query config the code sends through pg while `fn` runs. */
type Sent = pg.QueryConfig & { client: pg.Client };

async function queriesDuring(fn: () => Promise<unknown>): Promise<Sent[]> {
  const seen: Sent[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first, values] = args;
    if (typeof first === "string") seen.push({ text: first, values: values as unknown[], client: this });
    else if (first && typeof first === "object" && "text" in first)
      seen.push({ ...(first as pg.QueryConfig), client: this });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = original;
  }
  return seen;
}

const cheapToPrepare = (text: string) =>
  /^\s*INSERT INTO "(Operation|OperationStatusChange|ApiCall|WebhookDelivery)"/.test(text);

describe("prepared statements", () => {
  it("PostgreSQL keeps a plan made on an empty inbox: a search prepared then reads the whole backlog later", async () => {
    await withClient(getDatabaseUrl(), async (client) => {
      const rowsReadBy = async (explain: string) => {
        const { rows } = await client.query<ExplainRow>(explainAnalyze(explain));
        return rowsRead(planOf(rows));
      };
      // The inbox claim's search as it was written until the partial index of waiting deliveries.
      const lookup = `SELECT id FROM "WebhookDelivery"
        WHERE (outcome, id) >= ($1::"WebhookOutcome", 1) AND (outcome, id) <= ($1::"WebhookOutcome", 9223372036854775807)
        ORDER BY outcome, id LIMIT 1`;
      await client.query("BEGIN");
      await client.query(`TRUNCATE "WebhookDelivery"`);
      await client.query(`PREPARE early_lookup("WebhookOutcome") AS ${lookup}`);
      for (let i = 0; i < 6; i++) await client.query(`EXECUTE early_lookup('received')`);
      await client.query(`
        INSERT INTO "WebhookDelivery" (headers, body, "bodyBytes", outcome)
        SELECT '{}'::jsonb, '{}', 2, 'received' FROM generate_series(1, 5000)`);
      // (Until the next ANALYZE of the table invalidates it: autovacuum's comes a minute or more later.)
      expect(await rowsReadBy("EXECUTE early_lookup('received')")).toBeGreaterThanOrEqual(5000);
      // Planned afresh once the table's statistics are known, the same text reads a handful of rows.
      await client.query(`ANALYZE "WebhookDelivery"`);
      expect(await rowsReadBy(lookup.replaceAll("$1", "'received'"))).toBeLessThan(10);
      await client.query("ROLLBACK");
    });
  });

  it("receipt, webhook processing, the mirror's writes and call records name only inserts", async () => {
    const id = randomUUID();
    const open = snapshot({ id, status: "in_progress", dateUpdated: "2026-11-20T10:01:00.000Z" });
    const final = snapshot({ id, status: "success", dateUpdated: "2026-11-20T10:02:00.000Z" });
    const queries = await queriesDuring(async () => {
      await applySnapshotsBatch([open], "reconciliation", "page-1", new Date("2026-11-20T10:01:30.000Z"));
      await deliverOperation(final);
      await processPendingWebhooks({
        getOperation: async () => {
          await databaseRecorder.record(
            callRecord({ path: `/operation/${id}`, traceID: "read-1", operationId: id }),
          );
          return { operation: final, traceID: "read-1" };
        },
      });
    });
    expect((await getDb().operation.findUniqueOrThrow({ where: { id } })).status).toBe("success");
    const named = queries.filter((q) => q.name);
    expect(new Set(named.map((q) => q.name))).toEqual(
      new Set(["inbox-insert", "mirror-upsert", "mirror-history", "api-call-insert-read"]),
    );
    for (const q of named) expect(cheapToPrepare(q.text), q.text).toBe(true);
    const unnamed = queries.filter((q) => !q.name).map((q) => q.text);
    expect(unnamed.some((t) => t.includes(`FROM "Operation" WHERE id = ANY`))).toBe(true);
    // The lease alone is committed without waiting for the disk: one statement, its own transaction.
    const claims = unnamed.filter((t) => t.includes(claimStatement(4)));
    expect(claims.length).toBeGreaterThan(0);
    for (const t of claims) expect(t).toBe(`${CLAIM_SETTINGS}; ${claimStatement(4)}`);
    // So is the settlement with its snapshot (redone from the inbox if a crash undoes it), and the record
    // of a read: nothing else. The transaction's BEGIN travels with its first statement (the mirror's
    // lock and read) and the delivery's settlement with its COMMIT.
    const relaxed = queries.filter((q) => q.text.includes("synchronous_commit")).map((q) => q.text);
    const begin = "BEGIN; SET LOCAL statement_timeout = 30000; SET LOCAL synchronous_commit = off; ";
    expect(relaxed.filter((t) => !claims.includes(t))).toEqual([
      expect.stringMatching(
        /^INSERT INTO "ApiCall" .* RETURNING set_config\('synchronous_commit', 'off', true\)$/s,
      ),
      expect.stringMatching(new RegExp(`^${begin}SELECT count\\(pg_advisory_xact_lock`)),
    ]);
    // The read-back's snapshot and the delivery's outcome are one transaction: one commit for both.
    const settle = queries.find((q) => q.text.includes(`UPDATE "WebhookDelivery" SET outcome =`))!;
    expect(settle.text).toMatch(/'applied'::"WebhookOutcome".*; COMMIT$/s);
    const onItsConnection = queries.filter((q) => q.client === settle.client).map((q) => q.text);
    const at = onItsConnection.indexOf(settle.text);
    const opened = onItsConnection.findLastIndex((t, i) => i < at && t.startsWith(begin));
    const between = onItsConnection.slice(opened + 1, at);
    expect(between.some((t) => t.startsWith(`INSERT INTO "Operation"`))).toBe(true);
    expect(between.some((t) => t.startsWith(`INSERT INTO "OperationStatusChange"`))).toBe(true);
    expect(between.some((t) => t.includes("BEGIN") || t.includes("COMMIT"))).toBe(false);
  });
});
