import { describe, expect, it } from "vitest";
import { parseOperationFilter, type OperationFilter } from "@/lib/operations/list/filter";
import { decodeCursor } from "@/lib/operations/list/cursor";
import { listOperations } from "@/lib/operations/list/queries";
import { insertOperations } from "../../support/mirror";

// This file owns the year 2001 of the mirror.
const base = Date.UTC(2001, 0, 1);

function filter(query: string): OperationFilter {
  const r = parseOperationFilter(new URLSearchParams(`from=2001-01-01&to=2001-12-31&${query}`));
  if (!r.ok) throw new Error(JSON.stringify(r.fieldErrors));
  return r.filter;
}

async function walkForward(query: string, onPage?: (n: number) => Promise<void>) {
  const seen: Array<{ id: string; dateAdded: Date }> = [];
  let after: string | null = null;
  for (let n = 0; n < 1000; n++) {
    const page = await listOperations(filter(after ? `${query}&after=${after}` : query));
    seen.push(...page.rows);
    await onPage?.(n);
    if (!page.nextCursor) break;
    after = page.nextCursor;
  }
  return seen;
}

function expectStrictlyDescending(rows: Array<{ id: string; dateAdded: Date }>) {
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1]!;
    const b = rows[i]!;
    const ordered =
      a.dateAdded.getTime() > b.dateAdded.getTime() ||
      (a.dateAdded.getTime() === b.dateAdded.getTime() && a.id > b.id);
    expect(ordered, `row ${i} out of order`).toBe(true);
  }
}

describe("keyset paging of the operations list", () => {
  it("visits every one of 2,500 rows with tied dates exactly once, forward and back", async () => {
    // seven operations share each millisecond
    const ids = await insertOperations(
      Array.from({ length: 2500 }, (_, i) => ({ dateAdded: new Date(base + Math.floor(i / 7) * 1000) })),
    );
    const seen = await walkForward("size=200&status=created");
    expect(seen).toHaveLength(2500);
    expect(new Set(seen.map((r) => r.id))).toEqual(new Set(ids));
    expectStrictlyDescending(seen);

    // back from the last page with `before`
    const last = seen[seen.length - 1]!;
    const back: string[] = [];
    let before: string | null = Buffer.from(`${last.dateAdded.toISOString()}|${last.id}`).toString(
      "base64url",
    );
    back.push(last.id);
    while (before) {
      const page = await listOperations(filter(`size=150&status=created&before=${before}`));
      back.unshift(...page.rows.map((r) => r.id));
      before = page.prevCursor;
    }
    expect(back).toEqual(seen.map((r) => r.id));
  });

  it("neither repeats nor skips rows when operations arrive between pages", async () => {
    const day = Date.UTC(2001, 5, 1);
    const original = await insertOperations(
      Array.from({ length: 600 }, (_, i) => ({
        dateAdded: new Date(day + Math.floor(i / 3) * 1000),
        status: "in_progress" as const,
      })),
    );
    const lateOlder: string[] = [];
    const seen = await walkForward("size=100&status=in_progress", async (n) => {
      if (n === 0) {
        // newer operations (above the user's place) and older ones (still ahead of the user)
        await insertOperations(
          Array.from({ length: 20 }, () => ({
            dateAdded: new Date(day + 10_000_000),
            status: "in_progress" as const,
          })),
        );
        lateOlder.push(
          ...(await insertOperations(
            Array.from({ length: 5 }, () => ({
              dateAdded: new Date(day - 5000),
              status: "in_progress" as const,
            })),
          )),
        );
      }
    });
    const seenIds = seen.map((r) => r.id);
    expect(new Set(seenIds).size).toBe(seenIds.length);
    expect(new Set(seenIds)).toEqual(new Set([...original, ...lateOlder]));
    expectStrictlyDescending(seen);
  });

  it("gives cursors that decode to the page's edge rows", async () => {
    const page = await listOperations(filter("size=10&status=created"));
    expect(page.prevCursor).toBeNull();
    const cursor = decodeCursor(page.nextCursor!);
    expect(cursor?.id).toBe(page.rows[9]!.id);
  });
});
