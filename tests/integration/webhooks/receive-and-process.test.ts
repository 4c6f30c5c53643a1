import { randomBytes, randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { applySnapshot } from "@/lib/operations/mirror/apply-snapshot";
import { createOnce, type Creation } from "@/lib/operations/mirror/create-once";
import type { PlatformClient } from "@/lib/platform/client";
import type { Operation } from "@/lib/platform/schemas";
import { MAX_PROCESSING_ATTEMPTS, processPendingWebhooks } from "@/lib/webhooks/process";
import { REFUSED_BODY_KEPT, receiveWebhook, type ReceiveConfig } from "@/lib/webhooks/receive";
import { ipAllowed } from "@/lib/http/ip-allowlist";
import { forgetCachedSettings } from "@/lib/settings/settings";
import { snapshot, wireJsonOf } from "../../support/operations";
import { outcomeNoteIn } from "../../support/notes";
import { envelopeBody, webhookBody } from "../../support/webhooks";

const config: ReceiveConfig = { pathSecret: null, maxBodyBytes: 65_536 };
const db = getDb();

function deliver(
  body: string,
  extra: { headers?: Record<string, string>; ip?: string; pathSecret?: string } = {},
  cfg = config,
) {
  return receiveWebhook(
    {
      body,
      bodyBytes: Buffer.byteLength(body),
      headers: new Headers({ "content-type": "application/json", ...extra.headers }),
      sourceIp: extra.ip ?? "203.0.113.10",
      pathSecret: extra.pathSecret ?? null,
    },
    cfg,
  );
}

/** A platform whose GET by id answers from a map (or fails when the map says so). */
function platformReading(
  truth: Map<string, Operation | "fail" | null>,
): Pick<PlatformClient, "getOperation"> {
  return {
    async getOperation(id: string) {
      const value = truth.get(id);
      if (value === "fail") throw new Error("connection reset");
      return { operation: value ?? null, traceID: `readback-${id}` };
    },
  };
}

beforeEach(async () => {
  await db.webhookDelivery.deleteMany();
  await db.setting.deleteMany();
  forgetCachedSettings();
});

describe("webhook receiver: store raw first, then answer", () => {
  it("stores an enveloped event with its operation, status and traceID and answers 200", async () => {
    const op = snapshot({ status: "in_progress" });
    const result = await deliver(webhookBody(op, "11111111-2222-4333-8444-555555555555"));
    expect(result.httpStatus).toBe(200);
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: result.deliveryId } });
    expect(row).toMatchObject({
      outcome: "received",
      operationId: op.id,
      operationStatus: "in_progress",
      traceID: "11111111-2222-4333-8444-555555555555",
      sourceIp: "203.0.113.10",
    });
    expect(row.body).toBe(webhookBody(op, "11111111-2222-4333-8444-555555555555"));
    expect(await db.operation.findUnique({ where: { id: op.id } })).toBeNull();
  });

  it("accepts the bare operation body of the wire notes", async () => {
    const op = snapshot({ status: "in_progress" });
    const result = await deliver(wireJsonOf(op));
    expect(result).toMatchObject({ httpStatus: 200, outcome: "received" });
  });

  it.each([
    ["not JSON", "{nope"],
    ["empty", ""],
    ["an array", "[1,2]"],
    [
      "an operation without id",
      JSON.stringify({ status: "Success", data: { status: "success" }, traceID: "t" }),
    ],
  ])("answers 400 to %s, keeps it for audit and applies nothing", async (_name, body) => {
    const result = await deliver(body);
    expect(result).toMatchObject({ httpStatus: 400, outcome: "malformed" });
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: result.deliveryId } });
    expect(row.body).toBe(body);
    expect(row.outcomeCode).toBeTruthy();
    expect(row.outcomeDetail).toBeNull();
    expect(await processPendingWebhooks(platformReading(new Map()))).toBe(0);
  });

  it("answers 400 to an oversized body and keeps it", async () => {
    const body = JSON.stringify({ pad: "x".repeat(70_000) });
    const result = await deliver(body);
    expect(result).toMatchObject({ httpStatus: 400, outcome: "malformed" });
    expect((await db.webhookDelivery.findUniqueOrThrow({ where: { id: result.deliveryId } })).bodyBytes).toBe(
      Buffer.byteLength(body),
    );
  });

  it("answers 400 to an operation whose field holds an escaped NUL, names the field, and processes nothing", async () => {
    const id = randomUUID();
    const body = webhookBody(snapshot({ id, status: "in_progress" })).replace(
      '"nameMediator":"Ivan I."',
      '"nameMediator":"Ivan\\u0000I."',
    );
    expect(body).toContain("Ivan\\u0000I.");
    const result = await deliver(body);
    expect(result).toMatchObject({ httpStatus: 400, outcome: "malformed" });
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: result.deliveryId } });
    expect(row).toMatchObject({
      outcomeCode: "bodyUnstorableText",
      outcomeArgs: { detail: "data.paymentDetailsData.nameMediator: holds a NUL character (\\u0000)" },
      body,
    });
    expect(await processPendingWebhooks(platformReading(new Map()))).toBe(0);
    expect(await db.operation.count({ where: { id } })).toBe(0);
  });

  // Each of these used to fail the write of the delivery (PostgreSQL refuses U+0000 in text and jsonb, a
  // lone surrogate in jsonb, and an index entry past its size): a 503, nothing kept, delivered again forever.
  it.each([
    [
      "NUL in the envelope's traceID",
      `{"status":"Success","data":${wireJsonOf(snapshot())},"traceID":"abc\\u0000def"}`,
      "traceID: holds a NUL character (\\u0000)",
    ],
    [
      "NUL in the nested dialect's x-request-id",
      `{"result":{"status":"success","x-request-id":"a\\u0000","codeError":"none"},"data":${wireJsonOf(snapshot())}}`,
      "result.x-request-id: holds a NUL character (\\u0000)",
    ],
    [
      "NUL in a refused envelope's status",
      `{"status":"Warn\\u0000","data":null,"traceID":"t"}`,
      "status: holds a NUL character (\\u0000)",
    ],
    [
      "a lone surrogate in a refused envelope's codeError",
      `{"status":"Warning","data":null,"codeError":"x\\ud800","traceID":"t"}`,
      "codeError: holds a lone surrogate (\\ud800)",
    ],
    [
      "a lone surrogate in the traceID",
      `{"status":"Success","data":${wireJsonOf(snapshot())},"traceID":"t\\udc00"}`,
      "traceID: holds a lone surrogate (\\udc00)",
    ],
    [
      "a lone surrogate in a key",
      `{"status":"Success","data":${wireJsonOf(snapshot())},"traceID":"t","x\\ud800":1}`,
      "x\\ud800: holds a lone surrogate (\\ud800)",
    ],
  ])("answers 400 to a body with %s, keeps it for audit and names the place", async (_name, body, detail) => {
    const result = await deliver(body);
    expect(result).toMatchObject({ httpStatus: 400, outcome: "malformed" });
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: result.deliveryId } });
    expect(row).toMatchObject({
      body,
      outcomeCode: "bodyUnstorableText",
      outcomeArgs: { detail },
      traceID: null,
      processedAt: expect.any(Date),
    });
    expect(await outcomeNoteIn("en", row)).toBe(`The body holds text the database cannot store: ${detail}`);
    expect(await outcomeNoteIn("ru", row)).toBe(
      `В теле есть текст, который база данных не может сохранить: ${detail}`,
    );
    expect(await processPendingWebhooks(platformReading(new Map()))).toBe(0);
  });

  // The spec: no scientific notation. The mirror writes amounts out in plain notation: 1e20000000, a few
  // bytes here, is 20 million digits there (1e300000000 ended the worker's process, again and again).
  it("answers 400 to an amount in exponent notation, keeps the body as received, and leaves nothing to process", async () => {
    const id = randomUUID();
    const body = webhookBody(snapshot({ id, status: "in_progress" })).replace(
      '"amount":1500.5,',
      '"amount":1e20000000,',
    );
    expect(body).toContain('"amount":1e20000000,');
    const result = await deliver(body);
    expect(result).toMatchObject({ httpStatus: 400, outcome: "malformed" });
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: result.deliveryId } });
    expect(row).toMatchObject({
      body,
      outcomeCode: "operationInvalid",
      outcomeArgs: { detail: "amount: expected a decimal number" },
      operationId: null,
    });
    expect(await processPendingWebhooks(platformReading(new Map()))).toBe(0);
    expect(await db.operation.findUnique({ where: { id } })).toBeNull();
  });

  it("accepts a body that starts with a UTF-8 byte order mark and keeps it as received", async () => {
    const op = snapshot({ status: "in_progress" });
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(webhookBody(op))]);
    const body = bytes.toString("utf8"); // as the receivers read it: the mark is U+FEFF
    const result = await deliver(body, { headers: { "content-type": "application/json; charset=utf-8" } });
    expect(result).toMatchObject({ httpStatus: 200, outcome: "received" });
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: result.deliveryId } });
    expect(row).toMatchObject({ body, bodyBytes: bytes.length, operationId: op.id, outcomeCode: null });
    expect(row.body.charCodeAt(0)).toBe(0xfeff);
    expect(await processPendingWebhooks(platformReading(new Map([[op.id, op]])))).toBe(1);
    expect((await db.operation.findUniqueOrThrow({ where: { id: op.id } })).status).toBe("in_progress");
  });

  it("answers 400 to a body nested thousands deep and keeps its start", async () => {
    const body = webhookBody().replace('{"id":', `{"deep":${"[".repeat(5000)}${"]".repeat(5000)},"id":`);
    const result = await deliver(body);
    expect(result).toMatchObject({ httpStatus: 400, outcome: "malformed" });
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: result.deliveryId } });
    expect(row).toMatchObject({ outcomeCode: "bodyTooDeep", outcomeArgs: { limit: 32 } });
    expect(await outcomeNoteIn("en", row)).toMatch(
      /^The body nests objects and arrays more than 32 levels deep\./,
    );
    expect(await outcomeNoteIn("ru", row)).toMatch(
      /^Глубина вложенности объектов и массивов в теле больше 32\./,
    );
  });

  it("answers 400 to a traceID far longer than the spec's UUID and keeps the start of the body", async () => {
    // random, so PostgreSQL cannot compress it under the index's limit: the write used to fail
    const body = webhookBody(snapshot({ status: "in_progress" }), randomBytes(3000).toString("hex"));
    const result = await deliver(body);
    expect(result).toMatchObject({ httpStatus: 400, outcome: "malformed" });
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: result.deliveryId } });
    expect(row).toMatchObject({
      outcomeCode: "traceIdTooLong",
      outcomeArgs: { length: 6000, limit: 200 },
      traceID: null,
      bodyBytes: Buffer.byteLength(body),
    });
    expect(row.body).toBe(body.slice(0, REFUSED_BODY_KEPT));
    expect(await outcomeNoteIn("en", row)).toMatch(
      /^The traceID is 6,000 characters long, more than the limit of 200\./,
    );
    expect(await outcomeNoteIn("ru", row)).toMatch(
      /^Длина traceID — 6\s000 символов, допустимо не больше 200\./,
    );
    // a UUID-sized one is taken
    expect(await deliver(webhookBody(snapshot({ status: "in_progress" }), "u".repeat(200)))).toMatchObject({
      httpStatus: 200,
    });
  });

  it("rejects a source outside the IP allowlist, stores it as rejected and changes nothing", async () => {
    await db.setting.create({
      data: { key: "webhookAllowedIps", value: ["198.51.100.0/24", "2001:db8::/32"] },
    });
    const op = snapshot({ status: "in_progress" });
    expect(await deliver(webhookBody(op), { ip: "203.0.113.10" })).toMatchObject({
      httpStatus: 403,
      outcome: "rejected",
    });
    expect(await deliver(webhookBody(op), { ip: "198.51.100.77" })).toMatchObject({
      httpStatus: 200,
      outcome: "received",
    });
    expect(await deliver(webhookBody(op), { ip: "2001:db8::5" })).toMatchObject({
      httpStatus: 200,
      outcome: "received",
    });
    expect(await db.webhookDelivery.count({ where: { outcome: "rejected" } })).toBe(1);
  });

  it("requires the bearer token when one is configured", async () => {
    await db.setting.create({ data: { key: "webhookBearerToken", value: "s3cret-token" } });
    forgetCachedSettings();
    const op = snapshot({ status: "in_progress" });
    expect(await deliver(webhookBody(op))).toMatchObject({ httpStatus: 401, outcome: "rejected" });
    expect(await deliver(webhookBody(op), { headers: { authorization: "Bearer wrong" } })).toMatchObject({
      httpStatus: 401,
    });
    expect(
      await deliver(webhookBody(op), { headers: { authorization: "Bearer s3cret-token" } }),
    ).toMatchObject({
      httpStatus: 200,
    });
    const stored = await db.webhookDelivery.findFirstOrThrow({ where: { outcome: "received" } });
    expect(JSON.stringify(stored.headers)).not.toContain("s3cret-token");
  });

  it("requires the secret path segment when one is configured", async () => {
    const cfg = { ...config, pathSecret: "path-secret-0123456789" };
    const op = snapshot({ status: "in_progress" });
    expect(await deliver(webhookBody(op), {}, cfg)).toMatchObject({ httpStatus: 404, outcome: "rejected" });
    expect(await deliver(webhookBody(op), { pathSecret: "path-secret-0123456789" }, cfg)).toMatchObject({
      httpStatus: 200,
    });
  });
});

describe("webhook processing job", () => {
  it("applies a non-final event, marks a repeated one as duplicate and an older one as stale", async () => {
    const id = randomUUID();
    const truth = snapshot({ id, status: "in_progress", dateUpdated: "2026-11-20T10:05:00.000Z" });
    await deliver(
      webhookBody(snapshot({ id, status: "in_progress", dateUpdated: "2026-11-20T10:05:00.000Z" })),
    );
    await deliver(
      webhookBody(snapshot({ id, status: "in_progress", dateUpdated: "2026-11-20T10:05:00.000Z" })),
    );
    await deliver(webhookBody(snapshot({ id, status: "created", dateUpdated: "2026-11-20T10:00:00.000Z" })));
    // the first one is for an operation the mirror does not have yet: read back before it is applied
    expect(await processPendingWebhooks(platformReading(new Map([[id, truth]])))).toBe(3);
    const outcomes = (await db.webhookDelivery.findMany({ orderBy: { id: "asc" } })).map((d) => d.outcome);
    expect(outcomes).toEqual(["applied", "duplicate", "stale"]);
    expect((await db.operation.findUniqueOrThrow({ where: { id } })).status).toBe("in_progress");
  });

  it("confirms a final status by GET before applying it and records both traceIDs", async () => {
    const id = randomUUID();
    const final = snapshot({ id, status: "success", dateUpdated: "2026-11-20T10:09:00.000Z" });
    const result = await deliver(webhookBody(final, "22222222-2222-4333-8444-555555555555"));
    await processPendingWebhooks(platformReading(new Map([[id, final]])));
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: result.deliveryId } });
    expect(row).toMatchObject({
      outcome: "applied",
      traceID: "22222222-2222-4333-8444-555555555555",
      readBackTraceID: `readback-${id}`,
      outcomeCode: null,
      claimedUntil: null,
      processingAttempts: 1,
    });
    expect(row.processedAt).toBeInstanceOf(Date);
    // No note: SQL NULL, not a JSON null, so "has a note" queries stay plain IS NULL checks.
    const [note] = await db.$queryRaw<{ none: boolean }[]>`
      SELECT "outcomeArgs" IS NULL AS none FROM "WebhookDelivery" WHERE id = ${result.deliveryId}`;
    expect(note?.none).toBe(true);
    const history = await db.operationStatusChange.findMany({ where: { operationId: id } });
    expect(history.map((h) => [h.toStatus, h.source, h.sourceRef])).toEqual([
      ["success", "readBack", `readback-${id}`],
    ]);
  });

  it("applies the read-back when it disagrees with the webhook and flags the delivery", async () => {
    const id = randomUUID();
    await deliver(webhookBody(snapshot({ id, status: "success", dateUpdated: "2026-11-20T10:09:00.000Z" })));
    const truth = snapshot({ id, status: "in_progress", dateUpdated: "2026-11-20T10:08:00.000Z" });
    await processPendingWebhooks(platformReading(new Map([[id, truth]])));
    const row = await db.webhookDelivery.findFirstOrThrow();
    expect(row.outcome).toBe("disagreement");
    expect(row).toMatchObject({
      outcomeCode: "readBackStatusDiffers",
      outcomeArgs: { said: "success", read: "in_progress" },
      outcomeDetail: null,
    });
    expect(await outcomeNoteIn("en", row)).toBe(
      "The webhook said “success”, the read-back says “in_progress”; the read-back was applied.",
    );
    expect(await outcomeNoteIn("ru", row)).toBe(
      "Вебхук сообщил «успешно», контрольный запрос показал «в обработке»; применён результат контрольного запроса.",
    );
    expect((await db.operation.findUniqueOrThrow({ where: { id } })).status).toBe("in_progress");
  });

  it("flags a final event for an operation the platform does not know, and applies nothing", async () => {
    const id = randomUUID();
    await deliver(webhookBody(snapshot({ id, status: "failed" })));
    await processPendingWebhooks(platformReading(new Map([[id, null]])));
    expect((await db.webhookDelivery.findFirstOrThrow()).outcome).toBe("disagreement");
    expect(await db.operation.findUnique({ where: { id } })).toBeNull();
  });

  it("keeps an event whose read-back fails for a later pass (after a backoff), and gives up only after the attempts", async () => {
    const id = randomUUID();
    await deliver(webhookBody(snapshot({ id, status: "success" })));
    const failing = platformReading(new Map([[id, "fail"]]));
    await processPendingWebhooks(failing, 1);
    const first = await db.webhookDelivery.findFirstOrThrow();
    expect(first).toMatchObject({ outcome: "received", processingAttempts: 1 });
    expect(first.claimedUntil!.getTime()).toBeGreaterThan(Date.now());
    expect(await processPendingWebhooks(failing, 1)).toBe(0); // still backing off
    for (let i = 1; i < MAX_PROCESSING_ATTEMPTS; i++) {
      await db.webhookDelivery.updateMany({ data: { claimedUntil: null } }); // the backoff has passed
      await processPendingWebhooks(failing, 1);
    }
    expect(await db.webhookDelivery.findFirstOrThrow()).toMatchObject({
      outcome: "failed",
      processingAttempts: MAX_PROCESSING_ATTEMPTS,
    });
  });

  it("stores the last read-back error as it was, quotes, backslashes and bidi controls included (a NUL as U+FFFD)", async () => {
    // The decision is written into its statement as escaped literals (lib/webhooks/process.ts).
    const id = randomUUID();
    const message = `platform's answer: \\"\u202eteg\u202c' ; DROP TABLE "WebhookDelivery"; -- нет\u0000ответа \\u0000`;
    await deliver(webhookBody(snapshot({ id, status: "success" })));
    await db.webhookDelivery.updateMany({ data: { processingAttempts: MAX_PROCESSING_ATTEMPTS - 1 } });
    await processPendingWebhooks({
      getOperation: async () => {
        throw new Error(message);
      },
    });
    const delivery = await db.webhookDelivery.findFirstOrThrow();
    expect(delivery).toMatchObject({ outcome: "failed", outcomeCode: "readBackFailed" });
    expect(delivery.outcomeArgs).toEqual({
      attempts: MAX_PROCESSING_ATTEMPTS,
      error: message.replace("\u0000", "\ufffd"),
    });
  });
});

// Rows stored before the receiver refused unstorable text (or any delivery whose processing throws) used
// to throw out of processPendingWebhooks: the rows leased with it stayed leased, and the bad one was
// claimed again every minute, forever.
describe("webhook processing: one delivery that fails holds up no other", () => {
  /** A row as the receiver stored it before it checked the whole body. */
  async function storedAsReceived(op: Operation, body: string) {
    return db.webhookDelivery.create({
      data: {
        headers: {},
        body,
        bodyBytes: Buffer.byteLength(body),
        outcome: "received",
        operationId: op.id,
        operationStatus: op.status,
        traceID: "t",
      },
    });
  }

  it("settles a stored body that can never be mirrored, and processes the delivery leased with it", async () => {
    const [poisoned, innocent] = [randomUUID(), randomUUID()];
    for (const id of [poisoned, innocent])
      await applySnapshot(snapshot({ id, status: "created" }), "readBack");
    const later = { status: "in_progress", dateUpdated: "2026-11-20T10:05:00.000Z" } as const;
    const bad = snapshot({ id: poisoned, ...later });
    const badBody = envelopeBody(JSON.parse(wireJsonOf(bad))).replace(
      '{"id":',
      '{"comment":"x\\ud800y","id":',
    );
    expect(badBody).toContain('"comment":"x\\ud800y"');
    const first = await storedAsReceived(bad, badBody);
    const good = snapshot({ id: innocent, ...later });
    const second = await storedAsReceived(good, webhookBody(good));

    expect(await processPendingWebhooks(platformReading(new Map()))).toBe(2);
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({
      outcome: "malformed",
      outcomeCode: "bodyUnstorableText",
      outcomeArgs: { detail: "data.comment: holds a lone surrogate (\\ud800)" },
      claimedUntil: null,
      processedAt: expect.any(Date),
    });
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: second.id } })).toMatchObject({
      outcome: "applied",
      claimedUntil: null,
    });
    expect((await db.operation.findUniqueOrThrow({ where: { id: poisoned } })).status).toBe("created");
    expect((await db.operation.findUniqueOrThrow({ where: { id: innocent } })).status).toBe("in_progress");
    expect(await processPendingWebhooks(platformReading(new Map()))).toBe(0);
  });

  it("settles a stored body with an amount in exponent notation without writing its digits out", async () => {
    const id = randomUUID();
    const op = snapshot({ id, status: "in_progress" });
    const body = webhookBody(op).replace('"amount":1500.5,', '"amount":1e20000000,');
    expect(body).toContain('"amount":1e20000000,');
    const stored = await storedAsReceived(op, body);

    expect(await processPendingWebhooks(platformReading(new Map([[id, op]])))).toBe(1);
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: stored.id } })).toMatchObject({
      outcome: "malformed",
      outcomeCode: "operationInvalid",
      outcomeArgs: { detail: "amount: expected a decimal number" },
      processingAttempts: 1,
    });
    expect(await db.operation.findUnique({ where: { id } })).toBeNull();
  });

  it("retries a delivery whose processing throws, with the others of its batch processed, and fails it after the attempts", async () => {
    const [stuck, innocent] = [randomUUID(), randomUUID()];
    const final = snapshot({ id: stuck, status: "success" });
    // A read-back the mirror cannot write: an amount past its column (the decoder refuses one from the
    // wire). A lone surrogate in its raw payload used to serve; the mirror now stores it as U+FFFD.
    const unwritable = { ...final, amount: new Prisma.Decimal("1e21") };
    const truth = new Map<string, Operation>([
      [stuck, unwritable],
      [innocent, snapshot({ id: innocent, status: "success" })],
    ]);
    const first = await deliver(webhookBody(final));
    const second = await deliver(webhookBody(snapshot({ id: innocent, status: "success" })));

    expect(await processPendingWebhooks(platformReading(truth))).toBe(2);
    const afterOne = await db.webhookDelivery.findUniqueOrThrow({ where: { id: first.deliveryId } });
    expect(afterOne).toMatchObject({ outcome: "received", processingAttempts: 1 });
    expect(afterOne.claimedUntil!.getTime()).toBeGreaterThan(Date.now());
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: second.deliveryId } })).toMatchObject({
      outcome: "applied",
    });
    for (let i = 1; i < MAX_PROCESSING_ATTEMPTS; i++) {
      await db.webhookDelivery.updateMany({ data: { claimedUntil: null } }); // the backoff has passed
      expect(await processPendingWebhooks(platformReading(truth))).toBe(1);
    }
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: first.deliveryId } });
    expect(row).toMatchObject({
      outcome: "failed",
      outcomeCode: "processingFailed",
      processingAttempts: MAX_PROCESSING_ATTEMPTS,
      claimedUntil: null,
      processedAt: expect.any(Date),
    });
    expect(row.outcomeArgs).toMatchObject({
      attempts: MAX_PROCESSING_ATTEMPTS,
      error: expect.stringMatching(/^numeric field overflow/),
    });
    expect(await outcomeNoteIn("en", row)).toMatch(/^Processing failed 8 times: numeric field overflow/);
    expect(await outcomeNoteIn("ru", row)).toMatch(/^Обработка не удалась 8 раз: numeric field overflow/);
    expect(await db.operation.findUnique({ where: { id: stuck } })).toBeNull();
    await db.webhookDelivery.updateMany({ data: { claimedUntil: null } });
    expect(await processPendingWebhooks(platformReading(truth))).toBe(0);
  });

  it("stores a read-back error holding lone surrogates and NUL, each as U+FFFD", async () => {
    const id = randomUUID();
    await deliver(webhookBody(snapshot({ id, status: "success" })));
    await db.webhookDelivery.updateMany({ data: { processingAttempts: MAX_PROCESSING_ATTEMPTS - 1 } });
    await processPendingWebhooks({
      getOperation: async () => {
        throw new Error("bad \ud800 and \udc00\ud800 but 😀 \u0000 end");
      },
    });
    expect(await db.webhookDelivery.findFirstOrThrow()).toMatchObject({
      outcome: "failed",
      outcomeCode: "readBackFailed",
      outcomeArgs: {
        attempts: MAX_PROCESSING_ATTEMPTS,
        error: "bad \ufffd and \ufffd\ufffd but 😀 \ufffd end",
      },
    });
  });
});

describe("webhook processing: a hint applied on its word moves the status and date, nothing else", () => {
  const noReadBack: Pick<PlatformClient, "getOperation"> = {
    async getOperation() {
      throw new Error("read-back not expected");
    },
  };

  it("keeps the last read's raw snapshot and amounts: a webhook's extra keys and digits are not stored", async () => {
    const id = randomUUID();
    await applySnapshot(snapshot({ id, status: "created" }), "readBack");
    const before = await db.operation.findUniqueOrThrow({ where: { id } });
    const hint = snapshot({ id, status: "in_progress", dateUpdated: "2026-11-20T10:05:00.000Z" });
    const padding = "x".repeat(30_000);
    const body = webhookBody(hint)
      .replace('"amount":1500.5,', '"amount":1500.50004,')
      .replace(
        '{"id":',
        `{"supportNote":"\u202Eefas si tnuocca ,2107 999 7+ llac","padding":"${padding}","id":`,
      );
    const received = await deliver(body);
    expect(received.httpStatus).toBe(200);

    await processPendingWebhooks(noReadBack);
    const delivery = await db.webhookDelivery.findUniqueOrThrow({ where: { id: received.deliveryId } });
    expect(delivery.outcome).toBe("applied");
    const after = await db.operation.findUniqueOrThrow({ where: { id } });
    expect(after).toMatchObject({
      status: "in_progress",
      dateUpdated: new Date("2026-11-20T10:05:00.000Z"),
      lastSource: "webhook",
      snapshotReceivedAt: delivery.receivedAt,
    });
    expect(after.raw).toEqual(before.raw);
    expect(after.amount.toFixed()).toBe("1500.5");
    const history = await db.operationStatusChange.findMany({
      where: { operationId: id },
      orderBy: { id: "asc" },
    });
    expect(history.map((h) => [h.toStatus, h.source])).toEqual([
      ["created", "readBack"],
      ["in_progress", "webhook"],
    ]);
  });
});

describe("webhook processing: a forged date holds back no genuine hint", () => {
  let reads = 0;
  const reading = (truth: Operation): Pick<PlatformClient, "getOperation"> => ({
    async getOperation() {
      reads++;
      return { operation: truth, traceID: "rb" };
    },
  });
  beforeEach(() => {
    reads = 0;
  });

  it("a hint repeating the status with a later date changes nothing; the genuine move after it is applied", async () => {
    const id = randomUUID();
    const t0 = new Date(Date.now() - 60_000).toISOString();
    await applySnapshot(snapshot({ id, status: "created", dateAdded: t0 }), "creation");
    const future = new Date(Date.now() + 4 * 60_000).toISOString();
    await deliver(webhookBody(snapshot({ id, status: "created", dateAdded: t0, dateUpdated: future })));
    const now = new Date().toISOString();
    const genuine = snapshot({ id, status: "in_progress", dateAdded: t0, dateUpdated: now });
    await deliver(webhookBody(genuine));

    await processPendingWebhooks(reading(genuine));
    const outcomes = (await db.webhookDelivery.findMany({ orderBy: { id: "asc" } })).map((d) => d.outcome);
    expect(outcomes).toEqual(["duplicate", "applied"]);
    expect(reads).toBe(0);
    const op = await db.operation.findUniqueOrThrow({ where: { id } });
    expect(op).toMatchObject({ status: "in_progress", dateUpdated: new Date(now) });
  });

  it("a later status dated before the mirror is read back, not dropped as stale", async () => {
    const id = randomUUID();
    const t0 = new Date(Date.now() - 60_000).toISOString();
    // the platform's clock a little ahead: the mirror's date is later than the genuine hint's
    const ahead = new Date(Date.now() + 4 * 60_000).toISOString();
    await applySnapshot(snapshot({ id, status: "created", dateAdded: t0, dateUpdated: ahead }), "creation");
    const genuine = snapshot({
      id,
      status: "in_progress",
      dateAdded: t0,
      dateUpdated: new Date().toISOString(),
    });
    const received = await deliver(webhookBody(genuine));

    await processPendingWebhooks(reading(genuine));
    expect(reads).toBe(1);
    const delivery = await db.webhookDelivery.findUniqueOrThrow({ where: { id: received.deliveryId } });
    expect(delivery).toMatchObject({
      outcome: "applied",
      outcomeCode: "readBack",
      outcomeArgs: expect.objectContaining({ why: "differsFromMirror", fields: ["status", "dateUpdated"] }),
    });
    expect((await db.operation.findUniqueOrThrow({ where: { id } })).status).toBe("in_progress");
  });
});

// "Webhooks may arrive before the creation call has returned" (wire notes): the webhook's read-back
// inserts the operation; the creation answer, placed when its request was sent, is then stale.
describe("webhook processing: a webhook that beats the creation answer", () => {
  /** A platform whose creation call answers `answer` after the operation's webhook was processed. */
  function racing(method: "createPayOut" | "createFullPaymentForm", hook: Operation, answer: unknown) {
    return {
      [method]: async () => {
        await deliver(webhookBody(hook));
        await processPendingWebhooks(platformReading(new Map([[hook.id, hook]])));
        return answer;
      },
    } as unknown as Parameters<typeof createOnce>[0];
  }
  const request = (idTransactionMerchant: string) => ({
    idTransactionMerchant,
    amount: "1500.5",
    clientID: "client-7731",
    clientIP: "203.0.113.7",
    clientDateCreated: "2024-05-01T10:00:00.000Z",
  });

  it("a pay-out keeps the method of our creation request (pay-out reads carry none)", async () => {
    const id = randomUUID();
    const order = `po-${id}`;
    const hook = snapshot({
      id,
      typeOperation: "payOut",
      status: "in_progress",
      idTransactionMerchant: order,
    });
    const answer = snapshot({ id, typeOperation: "payOut", status: "created", idTransactionMerchant: order });
    const creation = {
      kind: "payOut",
      request: { ...request(order), paymentMethod: "toCard", number: "4276380012345678" },
    } as unknown as Creation;
    const platform = racing("createPayOut", hook, { operation: answer, traceID: "t-create" });
    expect(await createOnce(platform, creation)).toMatchObject({ status: "created", operationId: id });
    expect(await db.operation.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "in_progress",
      lastSource: "readBack",
      paymentMethod: "toCard",
    });
  });

  it("a payment form's operation keeps the form's link", async () => {
    const id = randomUUID();
    const order = `pf-${id}`;
    const link = `https://form.example/payment/${id}`;
    const hook = snapshot({ id, status: "in_progress", idTransactionMerchant: order });
    const operation = {
      ...snapshot({ id, status: "created", idTransactionMerchant: order }),
      linkPaymentForm: link,
    };
    const creation = { kind: "formFull", request: request(order) } as unknown as Creation;
    const platform = racing("createFullPaymentForm", hook, {
      form: { linkPaymentForm: link, id, operation },
      traceID: "t-form",
    });
    expect(await createOnce(platform, creation)).toMatchObject({ status: "created", linkPaymentForm: link });
    expect(await db.operation.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "in_progress",
      linkPaymentForm: link,
    });
  });
});

describe("ipAllowed", () => {
  it.each([
    ["10.1.2.3", ["10.0.0.0/8"], true],
    ["11.1.2.3", ["10.0.0.0/8"], false],
    ["192.0.2.1", ["192.0.2.1"], true],
    ["2001:db8::1", ["2001:db8::/32"], true],
    ["2001:db9::1", ["2001:db8::/32"], false],
    [null, ["10.0.0.0/8"], false],
    ["anything", [], true],
  ] as const)("%s in %o -> %s", (ip, list, allowed) => {
    expect(ipAllowed(ip, list)).toBe(allowed);
  });
});
