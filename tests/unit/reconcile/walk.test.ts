import { describe, expect, it } from "vitest";
import type { PlatformClient } from "@/lib/platform/client";
import { walkOperations } from "@/lib/reconcile/walk";
import { snapshot } from "../../support/operations";

const operations = Array.from({ length: 5 }, () => snapshot({ status: "success" }));

/** A platform whose list answers from `operations`, logging each read; `failFrom` makes later reads fail. */
function platform(log: string[], failFrom = Infinity): Pick<PlatformClient, "listOperations"> {
  return {
    async listOperations({ skip = 0, take = 2 }) {
      log.push(`read ${skip}`);
      await new Promise((r) => setTimeout(r, 5));
      if (skip >= failFrom) throw new Error(`list failed at ${skip}`);
      return {
        operations: operations.slice(skip, skip + take),
        totalNumberRecords: operations.length,
        traceID: `t-${skip}`,
      };
    },
  };
}

describe("walking the operation list", () => {
  it("reads the next page while the caller is still storing the current one", async () => {
    const log: string[] = [];
    for await (const page of walkOperations(platform(log), { take: 2 })) {
      log.push(`store ${page.skip}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(log).toEqual(["read 0", "read 2", "store 0", "read 4", "store 2", "store 4"]);
  });

  it("does not fail when it stops with a page read ahead that fails", async () => {
    const log: string[] = [];
    const pages = [];
    for await (const page of walkOperations(platform(log, 2), { take: 2, stop: () => true }))
      pages.push(page);
    await new Promise((r) => setTimeout(r, 20));
    expect(pages.map((p) => p.skip)).toEqual([0]);
    expect(log).toEqual(["read 0", "read 2"]);
  });

  it("passes on a failed read it needs", async () => {
    const walk = async () => {
      for await (const page of walkOperations(platform([], 2), { take: 2 })) void page;
    };
    await expect(walk()).rejects.toThrow("list failed at 2");
  });
});
