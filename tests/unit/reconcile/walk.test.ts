import { describe, expect, it } from "vitest";
import type { PlatformClient } from "@/lib/platform/client";
import { PlatformError, type PlatformErrorKind } from "@/lib/platform/errors";
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

  it("counts unreadable items in the page for paging: a page of nothing but them does not end the walk", async () => {
    const unreadable = (id: string | null) => ({
      id,
      reason: "status: unknown",
      fields: ["status"],
      raw: {},
    });
    const pages: Awaited<ReturnType<PlatformClient["listOperations"]>>[] = [
      { operations: [operations[0]!], unreadable: [unreadable("u-1")], totalNumberRecords: 6, traceID: "a" },
      // u-1 pushed down a page by a new operation: passed on once
      {
        operations: [],
        unreadable: [unreadable("u-1"), unreadable(null)],
        totalNumberRecords: 7,
        traceID: "b",
      },
      { operations: [operations[1]!, operations[2]!], totalNumberRecords: 7, traceID: "c" },
      { operations: [operations[3]!], totalNumberRecords: 7, traceID: "d" },
    ];
    const skips: number[] = [];
    const source: Pick<PlatformClient, "listOperations"> = {
      async listOperations({ skip }) {
        skips.push(skip);
        return pages.shift()!;
      },
    };
    const walked = [];
    for await (const page of walkOperations(source, { take: 2 })) walked.push(page);
    expect(skips).toEqual([0, 2, 4, 6]);
    expect(walked.map((p) => [p.operations.length, p.unreadable.map((u) => u.id)])).toEqual([
      [1, ["u-1"]],
      [0, [null]],
      [2, []],
      [1, []],
    ]);
  });

  describe("a page the platform failed for a passing reason", () => {
    const failure = (kind: PlatformErrorKind) =>
      new PlatformError({
        kind,
        method: "POST",
        path: "/operation/operation/list",
        description: `${kind} failure`,
      });

    /** Like `platform`, but the reads at `skip` fail with `kinds`, one each, before answering. */
    function flaky(log: string[], skip: number, kinds: PlatformErrorKind[]) {
      const healthy = platform(log);
      return {
        async listOperations(request: Parameters<PlatformClient["listOperations"]>[0]) {
          if (request.skip === skip && kinds.length > 0) {
            log.push(`fail ${skip}`);
            throw failure(kinds.shift()!);
          }
          return healthy.listOperations(request);
        },
      } as Pick<PlatformClient, "listOperations">;
    }

    async function walkAll(source: Pick<PlatformClient, "listOperations">, retryPausesMs?: number[]) {
      const skips: number[] = [];
      for await (const page of walkOperations(source, { take: 2, retryPausesMs })) skips.push(page.skip);
      return skips;
    }

    it("reads it again after each pause and walks on: no operation is missed", async () => {
      const log: string[] = [];
      const skips = await walkAll(flaky(log, 2, ["transport", "timeout", "transport"]), [1, 1, 1]);
      expect(skips).toEqual([0, 2, 4]);
      expect(log.filter((l) => l.endsWith(" 2"))).toEqual(["fail 2", "fail 2", "fail 2", "read 2"]);
    });

    it("passes the failure on once the pauses are spent", async () => {
      const log: string[] = [];
      const walk = walkAll(flaky(log, 2, ["transport", "transport", "transport"]), [1, 1]);
      await expect(walk).rejects.toThrow("transport failure");
      expect(log.filter((l) => l === "fail 2")).toHaveLength(3);
    });

    it("does not read again after a failure that would only repeat (a refusal, credentials, a bad answer)", async () => {
      for (const kind of ["business", "auth", "protocol"] as const) {
        const log: string[] = [];
        await expect(walkAll(flaky(log, 0, [kind]), [1, 1, 1])).rejects.toThrow(`${kind} failure`);
        expect(log).toEqual(["fail 0"]);
      }
    });

    it("when the worker is stopping, ends a pause under way and passes the failure on", async () => {
      const log: string[] = [];
      const stopping = new AbortController();
      const walk = (async () => {
        const pages = walkOperations(flaky(log, 0, ["transport", "transport"]), {
          take: 2,
          retryPausesMs: [60_000, 60_000],
          stopping: stopping.signal,
        });
        for await (const page of pages) void page;
      })();
      await new Promise((r) => setTimeout(r, 20));
      stopping.abort();
      // a minute's pause not ended by the abort would outlast the test's time limit
      await expect(walk).rejects.toThrow("transport failure");
      expect(log).toEqual(["fail 0"]);
    });

    it("waits a second before the first read again by default", async () => {
      const log: string[] = [];
      const started = performance.now();
      expect(await walkAll(flaky(log, 0, ["transport"]))).toEqual([0, 2, 4]);
      expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    });
  });
});
