// Finding the operation created with an idTransactionMerchant: the pages of the list it scans (size,
// offsets, where it stops), then the deprecated endpoint's newest match; a fake platform records calls.
import { describe, expect, it } from "vitest";
import { findOperationByMerchantId } from "@/lib/operations/mirror/find-by-merchant-id";
import type { Operation } from "@/lib/platform/schemas";
import { snapshot } from "../../support/operations";

type Page = { skip: number; take: number };

function fakePlatform(
  pages: Operation[][],
  total: number,
  deprecated: Operation[] = [],
  unreadable: number[] = [],
) {
  const listed: Page[] = [];
  const byId: string[] = [];
  const contexts: unknown[] = [];
  return {
    listed,
    byId,
    contexts,
    platform: {
      listOperations: async (page: Page, context: unknown) => {
        listed.push(page);
        contexts.push(context);
        const unread = Array.from({ length: unreadable[listed.length - 1] ?? 0 }, () => ({ id: null }));
        return {
          operations: pages[listed.length - 1] ?? [],
          unreadable: unread,
          totalNumberRecords: total,
          traceID: null,
        };
      },
      getOperationsByMerchantIdDeprecated: async (id: string, context: unknown) => {
        byId.push(id);
        contexts.push(context);
        return { operations: deprecated, traceID: null };
      },
    },
  };
}

const others = (n: number) => Array.from({ length: n }, () => snapshot());

describe("findOperationByMerchantId", () => {
  it("found on the first page: one list call of 500 from the start, and nothing else", async () => {
    const wanted = snapshot({ idTransactionMerchant: "order-wanted" });
    const fake = fakePlatform([[...others(2), wanted]], 3);
    const found = await findOperationByMerchantId(fake.platform as never, "order-wanted", {
      actorUserId: "u1",
    });
    expect(found).toEqual({ operation: wanted, via: "list" });
    expect(fake.listed).toEqual([{ skip: 0, take: 500 }]);
    expect(fake.byId).toEqual([]);
    expect(fake.contexts).toEqual([{ actorUserId: "u1" }]);
  });

  it("the next page starts after the rows the last one returned", async () => {
    const wanted = snapshot({ idTransactionMerchant: "order-wanted" });
    const fake = fakePlatform([others(3), others(2), [wanted]], 100);
    const found = await findOperationByMerchantId(fake.platform as never, "order-wanted");
    expect(found?.via).toBe("list");
    expect(fake.listed).toEqual([
      { skip: 0, take: 500 },
      { skip: 3, take: 500 },
      { skip: 5, take: 500 },
    ]);
  });

  it("items of a page that did not decode hold their places: the next page starts after them too", async () => {
    const wanted = snapshot({ idTransactionMerchant: "order-wanted" });
    // the second page is only unreadable items: the scan goes on past it rather than stopping there
    const fake = fakePlatform([others(3), [], [wanted]], 100, [], [1, 4]);
    const found = await findOperationByMerchantId(fake.platform as never, "order-wanted");
    expect(found?.via).toBe("list");
    expect(fake.listed).toEqual([
      { skip: 0, take: 500 },
      { skip: 4, take: 500 },
      { skip: 8, take: 500 },
    ]);
  });

  it("stops at the end of the list, then asks the deprecated endpoint for the newest match", async () => {
    const older = snapshot({ idTransactionMerchant: "order-x", dateAdded: "2026-11-01T00:00:00.000Z" });
    const newest = snapshot({ idTransactionMerchant: "order-x", dateAdded: "2026-11-03T00:00:00.000Z" });
    const middle = snapshot({ idTransactionMerchant: "order-x", dateAdded: "2026-11-02T00:00:00.000Z" });
    const fake = fakePlatform([others(2), others(2), others(2)], 4, [older, newest, middle]);
    const found = await findOperationByMerchantId(fake.platform as never, "order-x", { actorUserId: "u2" });
    expect(found).toEqual({ operation: newest, via: "deprecated" });
    expect(fake.listed).toEqual([
      { skip: 0, take: 500 },
      { skip: 2, take: 500 },
    ]);
    expect(fake.byId).toEqual(["order-x"]);
    expect(fake.contexts.at(-1)).toEqual({ actorUserId: "u2" });
  });

  it("an empty page ends the scan even when the total says there is more", async () => {
    const fake = fakePlatform([others(1), []], 1000);
    expect(await findOperationByMerchantId(fake.platform as never, "order-none")).toBeNull();
    expect(fake.listed).toHaveLength(2);
    expect(fake.byId).toEqual(["order-none"]);
  });

  it("scans at most 20 pages", async () => {
    const fake = fakePlatform(
      Array.from({ length: 30 }, () => others(1)),
      10_000,
    );
    expect(await findOperationByMerchantId(fake.platform as never, "order-none")).toBeNull();
    expect(fake.listed).toHaveLength(20);
    expect(fake.listed.at(-1)).toEqual({ skip: 19, take: 500 });
  });
});
