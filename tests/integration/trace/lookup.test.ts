import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { applySnapshot } from "@/lib/operations/mirror/apply-snapshot";
import { buildSupportBundle } from "@/lib/trace/bundle";
import { lookupTrace } from "@/lib/trace/lookup";
import { createStaff } from "../../support/mirror";
import { snapshot } from "../../support/operations";

const id = randomUUID();
const merchantId = `trace-${randomUUID()}`;
const createTrace = randomUUID();
const readBackTrace = randomUUID();
const refusedMerchantId = `refused-${randomUUID()}`;
const refusedTrace = randomUUID();
const TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtZXJjaGFudCJ9.c2lnbmF0dXJlLXNlY3JldA";
let actorEmail = "";

beforeAll(async () => {
  const actor = await createStaff("finance");
  actorEmail = actor.email;
  await applySnapshot(
    snapshot({
      id,
      idTransactionMerchant: merchantId,
      status: "created",
      dateAdded: "2007-01-01T10:00:00.000Z",
    }),
    "creation",
    {
      sourceRef: createTrace,
    },
  );
  const db = getDb();
  await db.apiCall.createMany({
    data: [
      {
        method: "POST",
        path: "/host2host/payout",
        traceID: createTrace,
        latencyMs: 80,
        actorUserId: actor.id,
        operationId: id,
        idTransactionMerchant: merchantId,
        envelopeStatus: "Success",
        requestBody: `{"amount":1500.5,"number":"************1234","bankName":"Sberbank"}`,
        responseBody: `{"status":"Success","data":{"id":"${id}","paymentDetailsData":{"number":"4276000000000001"}},"traceID":"${createTrace}"}`,
        message: `echo of ${TOKEN}`,
      },
      {
        method: "GET",
        path: `/operation/operation/platform/${id}`,
        traceID: readBackTrace,
        latencyMs: 20,
        operationId: id,
      },
      {
        method: "POST",
        path: "/host2host/payin",
        traceID: refusedTrace,
        latencyMs: 30,
        idTransactionMerchant: refusedMerchantId,
        envelopeStatus: "Warning",
        codeError: "fraud",
      },
    ],
  });
  await db.webhookDelivery.create({
    data: {
      headers: {},
      body: "{}",
      bodyBytes: 2,
      operationId: id,
      operationStatus: "success",
      readBackTraceID: readBackTrace,
      outcome: "applied",
      processedAt: new Date("2007-01-01T10:05:00.000Z"),
    },
  });
});

describe("trace lookup", () => {
  it("finds the call by traceID with who made it, masked bodies, and the operation's timeline", async () => {
    const r = await lookupTrace(` ${createTrace} `);
    expect(r.matchedBy).toBe("traceID");
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      traceID: createTrace,
      actor: { email: actorEmail, role: "finance" },
      path: "/host2host/payout",
    });
    expect(JSON.stringify(r.calls[0]!.response)).toContain("************0001");
    expect(JSON.stringify(r)).not.toContain("4276000000000001");
    expect(r.operations.map((o) => o.id)).toEqual([id]);
    expect(r.operations[0]!.timeline[0]).toMatchObject({ status: "created", source: "creation" });
  });

  it("finds a read-back traceID through the webhook it confirmed", async () => {
    const r = await lookupTrace(readBackTrace);
    expect(r.matchedBy).toBe("traceID");
    // as the operation's page shows a delivery: its operation and when it was processed, never its body
    expect(r.webhooks).toEqual([
      {
        id: expect.stringMatching(/^\d+$/),
        receivedAt: expect.any(String),
        outcome: "applied",
        outcomeCode: null,
        outcomeArgs: null,
        outcomeDetail: null,
        operationId: id,
        operationStatus: "success",
        traceID: null,
        readBackTraceID: readBackTrace,
        processedAt: "2007-01-01T10:05:00.000Z",
      },
    ]);
    expect(r.operations.map((o) => o.id)).toEqual([id]);
  });

  it("finds everything about an operation by its id or merchant id", async () => {
    for (const q of [id, id.toUpperCase(), merchantId]) {
      const r = await lookupTrace(q);
      expect(r.matchedBy).toBe(q === merchantId ? "idTransactionMerchant" : "operationId");
      expect(new Set(r.calls.map((c) => c.traceID))).toEqual(new Set([createTrace, readBackTrace]));
      expect(r.webhooks).toHaveLength(1);
    }
  });

  it("finds a refused creation by its merchant id, with no operation", async () => {
    const r = await lookupTrace(refusedMerchantId);
    expect(r.matchedBy).toBe("idTransactionMerchant");
    expect(r.calls.map((c) => c.codeError)).toEqual(["fraud"]);
    expect(r.operations).toEqual([]);
  });

  it("says when nothing matches", async () => {
    expect((await lookupTrace(randomUUID())).matchedBy).toBeNull();
  });
});

describe("support bundle", () => {
  it("holds traceIDs, calls and the timeline, never a token, a staff identity or a full number", async () => {
    const r = await lookupTrace(id);
    const text = buildSupportBundle(r, [TOKEN], new Date("2007-02-01T00:00:00.000Z"));
    const bundle = JSON.parse(text) as {
      traceIDs: string[];
      calls: unknown[];
      operations: Array<{ statusHistory: unknown[] }>;
    };
    expect(new Set(bundle.traceIDs)).toEqual(new Set([createTrace, readBackTrace]));
    expect(bundle.calls).toHaveLength(2);
    expect(bundle.operations[0]!.statusHistory).toHaveLength(1);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain("eyJhbGciOiJIUzI1NiJ9");
    expect(text).not.toContain(actorEmail);
    expect(text).not.toContain("4276000000000001");
    expect(text).toContain("************1234");
  });
});
