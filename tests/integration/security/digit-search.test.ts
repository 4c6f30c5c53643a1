// Security review, finding 1: the last-digits search accepted any suffix of 4–34 digits, so `d + known`
// for d = 0..9 revealed one more digit of a card per ten requests, unaudited. Now a user without
// recipients.reveal searches by exactly the last 4 digits, longer digit searches need the permission
// and are audited (masked), and every digit search counts against a per-user limit.
import { randomInt, randomUUID } from "node:crypto";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { encodeCursor } from "@/lib/operations/list/cursor";
import { searchCondition } from "@/lib/operations/list/search";
import { OperationTable } from "@/components/operations/operation-table";
import { createStaff, insertOperations } from "../../support/mirror";
import { pageText, propsOf } from "../../support/page-text";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.7" }),
}));
// Every search that reaches the database builds its condition here: not called means no search ran.
vi.mock("@/lib/operations/list/search", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/operations/list/search")>();
  return { ...original, searchCondition: vi.fn(original.searchCondition) };
});

// This file owns the year 2013 of the mirror.
const RANGE = "from=2013-01-01&to=2013-12-31";
const digits = (n: number) => Array.from({ length: n }, () => String(randomInt(10))).join("");
const card = `4${digits(15)}`;
const last4 = card.slice(-4);
const payoutCard = `5${digits(15)}`;
const phone = `7999${digits(7)}`;
const payIn = randomUUID();
const payOut = randomUUID();
const phoneOp = randomUUID();

const PER_MINUTE = 30;

// A new user per test: the limit counts per user, so tests do not share an allowance.
async function signInAsNew(role: "support" | "finance") {
  const user = await createStaff(role);
  session.current = { userId: user.id, sessionVersion: 0 };
  return user;
}
const searchRan = () => vi.mocked(searchCondition).mock.calls.length;

type ListAnswer = {
  ok: boolean;
  code?: string;
  rows?: Array<{ id: string; numberMasked: string | null }>;
  fieldErrors?: Record<string, string[]>;
};

async function api(query: string, range = RANGE): Promise<{ status: number; body: ListAnswer }> {
  const { GET } = await import("@/app/api/operations/route");
  const response = await GET(new Request(`http://test/api/operations?${range ? `${range}&` : ""}${query}`));
  return { status: response.status, body: (await response.json()) as ListAnswer };
}

async function page(q: string) {
  const { default: Page } = await import("@/app/(console)/operations/page");
  return Page({ searchParams: Promise.resolve({ from: "2013-01-01", to: "2013-12-31", q }) });
}

beforeAll(async () => {
  const maker = await createStaff("finance");
  await insertOperations([
    { id: payIn, dateAdded: new Date("2013-03-01T10:00:00Z"), detailsNumber: card },
    { id: payOut, dateAdded: new Date("2013-03-02T10:00:00Z"), typeOperation: "payOut", detailsNumber: null },
    { id: phoneOp, dateAdded: new Date("2013-03-03T10:00:00Z"), paymentMethod: "sbp", detailsNumber: phone },
  ]);
  await getDb().payoutRequest.create({
    data: {
      idTransactionMerchant: `po-${randomUUID()}`,
      paymentMethod: "toCard",
      bankName: "Tinkoff",
      recipientNumber: payoutCard,
      recipientName: "Petr P.",
      amount: "250",
      clientID: "c1",
      clientIP: "10.0.0.1",
      clientDateCreated: new Date("2013-01-01T00:00:00Z"),
      makerId: maker.id,
      operationId: payOut,
    },
  });
});

beforeEach(() => {
  vi.mocked(searchCondition).mockClear();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("a user without recipients.reveal (support)", () => {
  it.each([
    ["5 digits", () => card.slice(-5)],
    ["8 digits", () => card.slice(-8)],
    ["the whole pay-in number (an exact match confirms a guess)", () => card],
    ["the whole pay-out recipient number", () => payoutCard],
  ])("is refused a search by %s: 400 naming q, and no search runs", async (_name, q) => {
    await signInAsNew("support");
    const { status, body } = await api(`q=${q()}`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ ok: false, code: "search_not_allowed" });
    expect(body.fieldErrors?.q?.[0]).toMatch(/last 4 digits/);
    expect(searchRan()).toBe(0);
  });

  it("can confirm the last 4 digits and nothing more: the digit walk meets one refusal, no oracle", async () => {
    await signInAsNew("support");
    // Exactly the last 4 digits (what the list shows) still find the operation, the number masked.
    const shown = await api(`q=${last4}`);
    expect(shown.status).toBe(200);
    expect(shown.body.rows?.find((r) => r.id === payIn)?.numberMasked).toBe(`************${last4}`);
    const out = await api(`q=${payoutCard.slice(-4)}`);
    expect(out.body.rows?.map((r) => r.id)).toContain(payOut);
    // A phone number written with + or spaces is matched as a merchant id only, never as a number.
    const spaced = `+${phone.slice(0, 1)} ${phone.slice(1, 4)} ${phone.slice(4, 7)} ${phone.slice(7)}`;
    for (const text of [spaced, `+${phone}`]) {
      const { status, body } = await api(`q=${encodeURIComponent(text)}`);
      expect(status).toBe(200);
      expect(body.rows?.map((r) => r.id)).not.toContain(phoneOp);
    }

    vi.mocked(searchCondition).mockClear();
    const answers = new Set<string>();
    let known = last4;
    // What the review did: try d + known for d = 0..9, keep the d that matches, repeat.
    for (let position = 0; position < 12; position++) {
      let next: string | null = null;
      for (let d = 0; d <= 9; d++) {
        const { status, body } = await api(`q=${d}${known}`);
        answers.add(`${status} ${JSON.stringify(body)}`);
        if (status === 200 && body.rows?.some((r) => r.id === payIn)) next = `${d}${known}`;
      }
      if (next === null) break;
      known = next;
    }
    expect(known).toBe(last4);
    expect(answers.size).toBe(1);
    expect(searchRan()).toBe(0);
  });

  it("is refused a longer search through the live refresh's count of newer rows too", async () => {
    await signInAsNew("support");
    const cursor = encodeCursor({ dateAdded: new Date("2013-01-01T00:00:00Z"), id: randomUUID() });
    const { status, body } = await api(`q=${card.slice(-6)}&newerThan=${cursor}`);
    expect(status).toBe(400);
    expect(body.fieldErrors?.q).toHaveLength(1);
    expect(searchRan()).toBe(0);
  });

  it("sees the refusal on the list page, where no search runs either", async () => {
    await signInAsNew("support");
    const text = pageText(await page(card.slice(-7))).join("\n");
    expect(text).toMatch(/last 4 digits/);
    expect(searchRan()).toBe(0);
  });

  it("cannot save a view that searches by more than 4 digits", async () => {
    const support = await signInAsNew("support");
    const { saveViewAction } = await import("@/lib/actions/operations");
    const name = `walk-${randomUUID()}`;
    const result = (await saveViewAction({ name, query: `q=${card.slice(-9)}` })) as {
      ok: boolean;
      fieldErrors?: Record<string, string[]>;
    };
    expect(result.ok).toBe(false);
    expect(result.fieldErrors?.q?.[0]).toMatch(/last 4 digits/);
    expect(await getDb().savedView.count({ where: { userId: support.id, name } })).toBe(0);
  });
});

describe("a user with recipients.reveal (finance)", () => {
  it("searches by 8 digits; the search is audited with its length and masked digits, never the digits", async () => {
    const finance = await signInAsNew("finance");
    const eight = card.slice(-8);
    const { status, body } = await api(`q=${eight}`);
    expect(status).toBe(200);
    expect(body.rows?.map((r) => r.id)).toEqual([payIn]);
    const entries = await getDb().auditLog.findMany({
      where: { actorUserId: finance.id, action: "operations.search_digits" },
      select: { ip: true, targetType: true, targetId: true, before: true, after: true },
    });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      ip: "198.51.100.7",
      after: { searched: `****${last4}`, digits: 8, via: "api" },
    });
    expect(JSON.stringify(entries)).not.toContain(eight);
  });

  it("exports by a whole number; neither audit entry holds the number", async () => {
    const finance = await signInAsNew("finance");
    const { GET } = await import("@/app/api/exports/operations/route");
    const response = await GET(new Request(`http://test/api/exports/operations?${RANGE}&q=${card}`));
    expect(response.status).toBe(200);
    const csv = await response.text();
    expect(csv).toContain(payIn);
    expect(csv).not.toContain(card);
    const entries = await getDb().auditLog.findMany({
      where: { actorUserId: finance.id, action: { in: ["operations.export", "operations.search_digits"] } },
      select: { action: true, targetType: true, targetId: true, before: true, after: true },
    });
    expect(entries.map((e) => e.action)).toEqual(
      expect.arrayContaining(["operations.export", "operations.search_digits"]),
    );
    expect(JSON.stringify(entries)).not.toContain(card.slice(-8));
  });
});

describe("rate limit on digit searches", () => {
  it(`refuses a user's digit searches past ${PER_MINUTE} a minute (429), other users unaffected`, async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2030-01-01T00:00:05Z"));
    const limitedUser = await signInAsNew("support");
    // A brute force over the 10,000 possible last-4 values stops early.
    const statuses: number[] = [];
    for (let n = 0; n < PER_MINUTE + 5; n++) {
      statuses.push((await api(`q=${String(n).padStart(4, "0")}`)).status);
    }
    expect(statuses.slice(0, PER_MINUTE).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(PER_MINUTE).every((s) => s === 429)).toBe(true);
    expect(searchRan()).toBe(PER_MINUTE);
    const limited = await api(`q=${last4}`);
    expect(limited.body).toMatchObject({ ok: false, code: "rate_limited" });
    expect(limited.body.fieldErrors?.q?.[0]).toMatch(/a minute/);
    expect(pageText(await page(last4)).join("\n")).toMatch(/a minute/);
    // Looking an operation up by its id is not a number search and stays open.
    expect((await api(`q=${payIn}`)).body.rows?.map((r) => r.id)).toEqual([payIn]);

    await signInAsNew("support");
    expect((await api(`q=${last4}`)).status).toBe(200);

    session.current = { userId: limitedUser.id, sessionVersion: 0 };
    vi.setSystemTime(new Date("2030-01-01T00:01:05Z"));
    expect((await api(`q=${last4}`)).status).toBe(200);
  });

  it("does not re-run (or count) a digit search for the list's live refresh of the rows shown", async () => {
    await signInAsNew("support");
    const tree = await page(last4);
    const [table] = propsOf<{ watchNewerThan: string | null; filterQuery: string }>(tree, OperationTable);
    expect(table?.watchNewerThan).toBeNull();
    vi.mocked(searchCondition).mockClear();
    const { status } = await api(`${table!.filterQuery}&ids=${payIn}`, "");
    expect(status).toBe(200);
    expect(searchRan()).toBe(0);
  });
});
