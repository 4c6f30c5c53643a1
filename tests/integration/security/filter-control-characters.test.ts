// Security review, finding 11: a NUL byte in a text filter reached PostgreSQL (a 500, or a CSV cut short
// after its 200). Every text filter now refuses control and invisible formatting characters with a 400
// (or the page's field message) naming the field, before anything is queried.
import { randomUUID } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { exportAuditCsv, listAudit } from "@/lib/audit/queries";
import { getDb } from "@/lib/db";
import { listOperations } from "@/lib/operations/list/queries";
import { searchCondition } from "@/lib/operations/list/search";
import { lookupTrace } from "@/lib/trace/lookup";
import { createStaff } from "../../support/mirror";
import { pageText } from "../../support/page-text";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.9" }),
}));
// The functions that would query with the filter: spied on, to see that none of them ran.
vi.mock("@/lib/operations/list/search", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/operations/list/search")>();
  return { ...original, searchCondition: vi.fn(original.searchCondition) };
});
vi.mock("@/lib/operations/list/queries", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/operations/list/queries")>();
  return { ...original, listOperations: vi.fn(original.listOperations) };
});
vi.mock("@/lib/audit/queries", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/audit/queries")>();
  return {
    ...original,
    listAudit: vi.fn(original.listAudit),
    exportAuditCsv: vi.fn(original.exportAuditCsv),
  };
});
vi.mock("@/lib/trace/lookup", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/trace/lookup")>();
  return { ...original, lookupTrace: vi.fn(original.lookupTrace) };
});

// Filters say it in one sentence, human-text fields (a view name) name the field and the character.
const MESSAGE = /control or invisible formatting characters|invisible or control characters \(U\+/;
const CHARACTERS = [
  ["NUL", "\u0000"],
  ["U+0001", "\u0001"],
  ["U+0085 (NEL)", "\u0085"],
  ["U+202E (right-to-left override)", "\u202E"],
] as const;
const cases = (fields: readonly string[]) =>
  fields.flatMap((field) => CHARACTERS.map(([name, ch]) => [field, name, `ab${ch}cd`] as const));

const staff = {} as Record<"admin" | "finance" | "support", string>;
const signInAs = (role: keyof typeof staff) => {
  session.current = { userId: staff[role], sessionVersion: 0 };
};
const spies = [searchCondition, listOperations, listAudit, exportAuditCsv, lookupTrace];
const nothingQueried = () => {
  for (const spy of spies) expect(vi.mocked(spy)).not.toHaveBeenCalled();
};

async function expectFieldError(response: Response, field: string) {
  expect(response.status).toBe(400);
  expect(response.headers.get("content-type")).toMatch(/application\/json/);
  const body = (await response.json()) as { ok: boolean; fieldErrors: Record<string, string[]> };
  expect(body.ok).toBe(false);
  expect(body.fieldErrors[field]?.[0]).toMatch(MESSAGE);
}

beforeAll(async () => {
  for (const role of ["admin", "finance", "support"] as const) staff[role] = (await createStaff(role)).id;
});

beforeEach(() => {
  for (const spy of spies) vi.mocked(spy).mockClear();
});

describe("operations filters", () => {
  it.each(cases(["q", "tz"]))(
    "GET /api/operations: %s with %s is a 400 naming it",
    async (field, _n, value) => {
      signInAs("support");
      const { GET } = await import("@/app/api/operations/route");
      const params = new URLSearchParams({ from: "2014-01-01", [field]: value });
      await expectFieldError(await GET(new Request(`http://test/api/operations?${params}`)), field);
      nothingQueried();
    },
  );

  it.each(cases(["q", "tz"]))(
    "GET /api/exports/operations: %s with %s is a 400 before any CSV",
    async (field, _n, value) => {
      signInAs("finance");
      const { GET } = await import("@/app/api/exports/operations/route");
      const params = new URLSearchParams({ from: "2014-01-01", [field]: value });
      await expectFieldError(await GET(new Request(`http://test/api/exports/operations?${params}`)), field);
      nothingQueried();
    },
  );

  it.each(cases(["q", "tz"]))(
    "page /operations: %s with %s shows the field message",
    async (field, _n, value) => {
      signInAs("support");
      const { default: Page } = await import("@/app/(console)/operations/page");
      const tree = await Page({ searchParams: Promise.resolve({ from: "2014-01-01", [field]: value }) });
      expect(pageText(tree).join("\n")).toMatch(MESSAGE);
      nothingQueried();
    },
  );

  it.each(CHARACTERS)("a saved view's name or query with %s is refused and not stored", async (_n, ch) => {
    signInAs("support");
    const { saveViewAction } = await import("@/lib/actions/operations");
    const name = `view-${randomUUID()}`;
    const badName = (await saveViewAction({ name: `${name}${ch}`, query: "status=failed" })) as {
      ok: boolean;
      fieldErrors?: Record<string, string[]>;
    };
    expect(badName.ok).toBe(false);
    expect(badName.fieldErrors?.name?.[0]).toMatch(MESSAGE);
    const badQuery = (await saveViewAction({
      name,
      query: new URLSearchParams({ q: `ab${ch}cd` }).toString(),
    })) as { ok: boolean; fieldErrors?: Record<string, string[]> };
    expect(badQuery.ok).toBe(false);
    expect(badQuery.fieldErrors?.q?.[0]).toMatch(MESSAGE);
    expect(
      await getDb().savedView.count({ where: { userId: staff.support, name: { startsWith: name } } }),
    ).toBe(0);
  });
});

describe("audit log filters", () => {
  it.each(cases(["actor", "action", "target"]))(
    "GET /api/exports/audit: %s with %s is a 400 before any CSV, and no export is recorded",
    async (field, _n, value) => {
      signInAs("admin");
      const { GET } = await import("@/app/api/exports/audit/route");
      const before = await getDb().auditLog.count({
        where: { actorUserId: staff.admin, action: "audit.export" },
      });
      const params = new URLSearchParams({ [field]: value });
      await expectFieldError(await GET(new Request(`http://test/api/exports/audit?${params}`)), field);
      nothingQueried();
      expect(
        await getDb().auditLog.count({ where: { actorUserId: staff.admin, action: "audit.export" } }),
      ).toBe(before);
    },
  );

  it.each(cases(["actor", "action", "target"]))(
    "page /admin/audit: %s with %s shows the field message",
    async (field, _n, value) => {
      signInAs("admin");
      const { default: Page } = await import("@/app/(console)/admin/audit/page");
      const tree = await Page({ searchParams: Promise.resolve({ [field]: value }) });
      expect(pageText(tree).join("\n")).toMatch(MESSAGE);
      nothingQueried();
    },
  );
});

describe("trace lookup", () => {
  it.each(CHARACTERS)("page /trace: q with %s shows the field message", async (_n, ch) => {
    signInAs("support");
    const { default: Page } = await import("@/app/(console)/trace/page");
    const tree = await Page({ searchParams: Promise.resolve({ q: `${randomUUID()}${ch}` }) });
    expect(pageText(tree).join("\n")).toMatch(MESSAGE);
    nothingQueried();
  });
});
