// A Moscow user filtering the list by a UTC day (tz=UTC): the links the page writes (older pages, the
// saved view, the first page) used to leave tz out when it was UTC, and the page then read them in the
// user's own zone: page 2 walked the Moscow day, losing rows of the UTC day and showing the day before.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { OperationTable } from "@/components/operations/operation-table";
import { Pagination } from "@/components/operations/pagination";
import { SavedViews } from "@/components/operations/saved-views";
import { getDb } from "@/lib/db";
import { createStaff, insertOperations } from "../../support/mirror";
import { propsOf } from "../../support/page-text";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.9" }),
}));

// This file owns the year 1994 of the mirror.
const utcDay = [
  "1994-05-10T22:30:00.000Z",
  "1994-05-10T20:00:00.000Z",
  "1994-05-10T15:00:00.000Z",
  "1994-05-10T10:00:00.000Z",
  "1994-05-10T05:00:00.000Z",
  "1994-05-10T01:00:00.000Z",
];
// Still 1994-05-10 in Moscow (UTC+4 that summer).
const dayBefore = ["1994-05-09T22:00:00.000Z", "1994-05-09T21:30:00.000Z"];

beforeAll(async () => {
  await insertOperations([...utcDay, ...dayBefore].map((iso) => ({ dateAdded: new Date(iso) })));
  const user = await createStaff("support");
  await getDb().user.update({ where: { id: user.id }, data: { timeZone: "Europe/Moscow" } });
  session.current = { userId: user.id, sessionVersion: 0 };
});

async function operationsPage(params: Record<string, string>) {
  const { default: Page } = await import("@/app/(console)/operations/page");
  return Page({ searchParams: Promise.resolve(params) });
}

describe("tz=UTC chosen by a user whose own zone is Moscow", () => {
  it("the page's 'older' links walk the UTC day", async () => {
    let params: Record<string, string> = { from: "1994-05-10", to: "1994-05-10", tz: "UTC", size: "2" };
    const seen: string[] = [];
    for (let n = 0; n < 10; n++) {
      const tree = await operationsPage(params);
      seen.push(
        ...propsOf<{ rows: { dateAdded: string }[] }>(tree, OperationTable)[0]!.rows.map((r) => r.dateAdded),
      );
      const pagination = propsOf<{ params: URLSearchParams; nextCursor: string | null }>(
        tree,
        Pagination,
      )[0]!;
      if (!pagination.nextCursor) break;
      const next = new URLSearchParams(pagination.params);
      next.set("after", pagination.nextCursor);
      params = Object.fromEntries(next);
    }
    expect(seen).toEqual(utcDay);
  });

  it("the saved view and the first-page link keep tz=UTC", async () => {
    const tree = await operationsPage({ from: "1994-05-10", to: "1994-05-10", tz: "UTC" });
    const view = new URLSearchParams(propsOf<{ currentQuery: string }>(tree, SavedViews)[0]!.currentQuery);
    expect(view.get("tz")).toBe("UTC");
    const table = propsOf<{ firstPageHref: string; filterQuery: string }>(tree, OperationTable)[0]!;
    expect(new URL(table.firstPageHref, "http://test").searchParams.get("tz")).toBe("UTC");
    expect(new URLSearchParams(table.filterQuery).get("tz")).toBe("UTC");
  });
});
