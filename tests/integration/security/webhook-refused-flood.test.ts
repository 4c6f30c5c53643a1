// Finding 10: refused and malformed webhook requests must not fill the database. They keep their
// metadata and the first 4 KiB of the body, and past 60 a minute from one source they are answered
// 429 and not stored. Deliveries that pass the checks are never limited.
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { getLog } from "@/lib/log";
import { REFUSED_BODY_KEPT } from "@/lib/webhooks/receive";
import { createRefusedLimit, type RefusedLimit } from "@/lib/webhooks/refused-limit";
import { outcomeNoteIn } from "../../support/notes";
import { sourceCheckedReceivers } from "../../support/webhook-receivers";
import { webhookBody } from "../../support/webhooks";

let clock = Date.UTC(2030, 0, 1, 12, 0, 5);
const limit: RefusedLimit = createRefusedLimit(60, () => clock);
// Behind the trusted proxy, X-Forwarded-For names the source: several sources from one test.
const receivers = sourceCheckedReceivers({ allowedIps: ["198.51.100.0/24"], refusedLimit: limit });
let db: ReturnType<typeof getDb>;
beforeAll(() => {
  db = getDb();
});
beforeEach(() => {
  limit.reset();
  clock += 60_000;
});

async function post(url: string, body: string, source?: string): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...(source ? { "x-forwarded-for": source } : {}) },
  });
  await response.arrayBuffer();
  return response.status;
}

const storedFrom = (sourceIp: string) => db.webhookDelivery.count({ where: { sourceIp } });

describe("refused webhook bodies", () => {
  it("keeps the metadata and the first 4 KiB of each 5 MB refused body, with its real size", async () => {
    const big = "7".repeat(5_000_000);
    for (let i = 0; i < 10; i++) expect(await post(receivers.direct, big)).toBe(403);
    const rows = await db.webhookDelivery.findMany({ orderBy: { id: "asc" } });
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      expect(row).toMatchObject({ sourceIp: "127.0.0.1", outcome: "rejected", bodyBytes: 5_000_000 });
      expect(row.body.length).toBeLessThanOrEqual(REFUSED_BODY_KEPT);
      expect(row.body).toBe("7".repeat(REFUSED_BODY_KEPT));
      expect(row.outcomeArgs).toMatchObject({
        cut: { kept: REFUSED_BODY_KEPT, total: 5_000_000, totalKind: "declared" },
      });
      expect(await outcomeNoteIn("en", row)).toContain(
        `Only its first ${REFUSED_BODY_KEPT.toLocaleString("en")} bytes kept (of 5,000,000 declared).`,
      );
      expect(await outcomeNoteIn("ru", row)).toContain(
        `Сохранены только первые ${REFUSED_BODY_KEPT.toLocaleString("ru")} байт (из 5\u00a0000\u00a0000 заявленных).`,
      );
    }
    const [{ stored }] = await db.$queryRaw<[{ stored: number }]>`
      SELECT sum(octet_length(body))::int AS stored FROM "WebhookDelivery"`;
    expect(stored).toBeLessThanOrEqual(10 * REFUSED_BODY_KEPT);
  });

  it("keeps only the start of an oversized or malformed body from an allowed source", async () => {
    expect(await post(receivers.behindProxy, "x".repeat(3_000_000), "198.51.100.7")).toBe(400);
    expect(await post(receivers.behindProxy, `{"pad":"${"y".repeat(20_000)}"`, "198.51.100.7")).toBe(400);
    const rows = await db.webhookDelivery.findMany({ orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.outcome, r.bodyBytes, r.body.length])).toEqual([
      ["malformed", 3_000_000, REFUSED_BODY_KEPT],
      ["malformed", 20_009, REFUSED_BODY_KEPT],
    ]);
  });
});

describe("per-source limit of refused requests", () => {
  it("answers the 61st refused request of a minute from one source 429 and stores nothing; others are unaffected", async () => {
    const warn = vi.spyOn(getLog(), "warn");
    for (let i = 0; i < 60; i++)
      expect(await post(receivers.behindProxy, webhookBody(), "203.0.113.5")).toBe(403);
    expect(await post(receivers.behindProxy, webhookBody(), "203.0.113.5")).toBe(429);
    expect(await post(receivers.behindProxy, webhookBody(), "203.0.113.5")).toBe(429);
    expect(await storedFrom("203.0.113.5")).toBe(60);

    expect(await post(receivers.behindProxy, webhookBody(), "203.0.113.6")).toBe(403);
    expect(await storedFrom("203.0.113.6")).toBe(1);

    // one warning for the source in this minute, with the count
    const warnings = warn.mock.calls.filter(([fields]) => JSON.stringify(fields).includes("203.0.113.5"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]![0]).toMatchObject({ refusedThisMinute: 61, limitPerMinute: 60 });
    warn.mockRestore();

    clock += 60_000;
    expect(await post(receivers.behindProxy, webhookBody(), "203.0.113.5")).toBe(403);
    expect(await storedFrom("203.0.113.5")).toBe(61);
  });

  it("counts malformed requests too, but never limits deliveries that pass the checks", async () => {
    for (let i = 0; i < 60; i++)
      expect(await post(receivers.behindProxy, "{not json", "198.51.100.8")).toBe(400);
    expect(await post(receivers.behindProxy, "{not json", "198.51.100.8")).toBe(429);
    const accepted = await Promise.all(
      Array.from({ length: 150 }, () => post(receivers.behindProxy, webhookBody(), "198.51.100.8")),
    );
    expect(accepted.every((status) => status === 200)).toBe(true);
    expect(await db.webhookDelivery.count({ where: { sourceIp: "198.51.100.8", outcome: "received" } })).toBe(
      150,
    );
    expect(
      await db.webhookDelivery.count({ where: { sourceIp: "198.51.100.8", outcome: "malformed" } }),
    ).toBe(60);
  });

  it("counts an IPv6 source by its /64, so one host cannot rotate addresses", async () => {
    for (let i = 0; i < 60; i++) {
      expect(await post(receivers.behindProxy, webhookBody(), `2001:db8:1:2::${(i + 1).toString(16)}`)).toBe(
        403,
      );
    }
    expect(await post(receivers.behindProxy, webhookBody(), "2001:db8:1:2:ffff::1")).toBe(429);
    expect(await post(receivers.behindProxy, webhookBody(), "2001:db8:1:3::1")).toBe(403);
  });
});
