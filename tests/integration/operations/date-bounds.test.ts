// A date the calendar has but the product cannot use (`to=9999-12-31`: the day after it is in year
// 10000) used to throw a RangeError out of the filter's parser: every role's list, its JSON route, the
// CSV export and "save view" failed with a 500. Now each answers with the field's message, and so do
// the other places that take a day from the address (statements, audit log).
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createStaff } from "../../support/mirror";
import { pageText } from "../../support/page-text";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.9" }),
}));

const RANGE = /between 1000-01-01 and 9998-12-31/;
const staff = {} as Record<"admin" | "finance" | "approver" | "support", string>;
const signInAs = (role: keyof typeof staff) => {
  session.current = { userId: staff[role], sessionVersion: 0 };
};

beforeAll(async () => {
  for (const role of ["admin", "finance", "approver", "support"] as const)
    staff[role] = (await createStaff(role)).id;
});

type Answer = { ok: boolean; fieldErrors?: Record<string, string[]> };

const CASES = [
  ["to", { to: "9999-12-31" }],
  ["to", { to: "9999-01-01T00:00" }],
  ["from", { from: "0999-12-31" }],
  ["from", { from: "9999-12-31", to: "2026-01-01" }],
] as const;

describe("operations list: a date outside the years the product uses is a field error", () => {
  it.each(["admin", "finance", "approver", "support"] as const)(
    "GET /api/operations?to=9999-12-31 as %s: 400 naming `to`",
    async (role) => {
      signInAs(role);
      const { GET } = await import("@/app/api/operations/route");
      const response = await GET(new Request("http://test/api/operations?to=9999-12-31"));
      expect(response.status).toBe(400);
      const body = (await response.json()) as Answer;
      expect(body.fieldErrors?.to?.[0]).toMatch(RANGE);
    },
  );

  it.each(CASES)("GET /api/operations: %s in %o", async (field, params) => {
    signInAs("support");
    const { GET } = await import("@/app/api/operations/route");
    const response = await GET(new Request(`http://test/api/operations?${new URLSearchParams(params)}`));
    expect(response.status).toBe(400);
    expect(((await response.json()) as Answer).fieldErrors?.[field]?.[0]).toMatch(RANGE);
  });

  it.each(CASES)("GET /api/exports/operations: %s in %o, before any CSV", async (field, params) => {
    signInAs("finance");
    const { GET } = await import("@/app/api/exports/operations/route");
    const response = await GET(
      new Request(`http://test/api/exports/operations?${new URLSearchParams(params)}`),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as Answer).fieldErrors?.[field]?.[0]).toMatch(RANGE);
  });

  // decodeCursor took any four-digit year; PostgreSQL has no year 0 and the query failed with a 500
  it.each(["after", "before", "newerThan"])(
    "GET /api/operations with %s dated year 0000: 400",
    async (key) => {
      signInAs("support");
      const { GET } = await import("@/app/api/operations/route");
      const forged = Buffer.from(`0000-01-01T00:00:00.000Z|${randomUUID()}`).toString("base64url");
      const response = await GET(new Request(`http://test/api/operations?${key}=${forged}`));
      expect(response.status).toBe(400);
      expect(((await response.json()) as Answer).fieldErrors?.[key]?.[0]).toMatch(/\w/);
    },
  );

  it("page /operations shows the field message", async () => {
    signInAs("support");
    const { default: Page } = await import("@/app/(console)/operations/page");
    const tree = await Page({ searchParams: Promise.resolve({ to: "9999-12-31" }) });
    expect(pageText(tree).join("\n")).toMatch(RANGE);
  });

  it("page /operations in Russian", async () => {
    const { parseOperationFilter } = await import("@/lib/operations/list/filter");
    const parsed = parseOperationFilter(new URLSearchParams({ to: "9999-12-31" }), "ru");
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.fieldErrors.to?.[0]).toMatch(/от 1000-01-01 до 9998-12-31/);
  });

  it("saveViewAction refuses the view and stores nothing", async () => {
    signInAs("support");
    const { saveViewAction } = await import("@/lib/actions/operations");
    const name = `view-${randomUUID()}`;
    const answer = (await saveViewAction({ name, query: "to=9999-12-31" })) as Answer;
    expect(answer.ok).toBe(false);
    expect(answer.fieldErrors?.to?.[0]).toMatch(RANGE);
  });
});

describe("other days taken from the address", () => {
  it.each([
    ["9999-12-30", "9999-12-31"],
    ["2026-02-30", "2026-03-01"],
    ["0000-01-01", "0000-01-02"],
  ])("GET /api/statements/export, custom %s to %s: 400", async (from, to) => {
    signInAs("finance");
    const { GET } = await import("@/app/api/statements/export/route");
    const params = new URLSearchParams({ period: "custom", from, to, format: "csv" });
    const response = await GET(new Request(`http://test/api/statements/export?${params}`));
    expect(response.status).toBe(400);
  });

  // the audit log's days are UTC days: 9999-12-31 worked; year 0 failed the query (a CSV cut short
  // after its 200, a page that threw)
  it.each(["9999-12-31", "0000-01-01"])("GET /api/exports/audit?to=%s: 400 naming `to`", async (to) => {
    signInAs("admin");
    const { GET } = await import("@/app/api/exports/audit/route");
    const response = await GET(new Request(`http://test/api/exports/audit?to=${to}`));
    expect(response.status).toBe(400);
    expect(((await response.json()) as Answer).fieldErrors?.to?.[0]).toMatch(RANGE);
  });

  it("page /admin/audit with from=0000-01-01 shows the field message", async () => {
    signInAs("admin");
    const { default: Page } = await import("@/app/(console)/admin/audit/page");
    const tree = await Page({ searchParams: Promise.resolve({ from: "0000-01-01" }) });
    expect(pageText(tree).join("\n")).toMatch(RANGE);
  });
});
