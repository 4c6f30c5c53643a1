import { setTimeout as sleep } from "node:timers/promises";
import { getLog } from "@/lib/log";
import type { PlatformClient } from "@/lib/platform/client";
import { isPlatformError } from "@/lib/platform/errors";
import type { Operation, UnreadableOperation } from "@/lib/platform/schemas";

export type WalkedPage = {
  operations: Operation[];
  /** Items of the page that did not decode, not seen before in this walk: drift for staff to see. */
  unreadable: UnreadableOperation[];
  skip: number;
  totalNumberRecords: number;
  traceID: string | null;
  /** When the page was requested: its snapshots are the platform's state from then on. */
  readAt: Date;
};

/**
 * Pauses before a page is read again when the platform failed it for a passing reason (no answer, a
 * timeout, HTTP 5xx without an envelope) after the transport's own retries, which span a second or so:
 * a walk of a hundred pages is not thrown away for an outage of a few seconds.
 */
export const PAGE_RETRY_PAUSES_MS: readonly number[] = [1_000, 4_000, 10_000];

function isPassing(error: unknown): boolean {
  return isPlatformError(error) && (error.kind === "transport" || error.kind === "timeout");
}

/**
 * Walks POST /operation/operation/list newest first until the spec's stop rule (skip + returned >=
 * totalNumberRecords) or until `stop` says enough. Operations created during the walk are inserted at the
 * top and push older ones down a page: nothing is missed, and the ones seen twice are dropped here.
 */
export async function* walkOperations(
  platform: Pick<PlatformClient, "listOperations">,
  options: {
    take: number;
    stop?: (page: WalkedPage) => boolean;
    retryPausesMs?: readonly number[];
    /** Once aborted (the worker is stopping), a failed page is not read again: the failure passes on. */
    stopping?: AbortSignal;
  },
): AsyncGenerator<WalkedPage> {
  const seen = new Set<string>();
  /** Ids of unreadable items already passed on (an item without a readable id is passed on each time). */
  const seenUnreadable = new Set<string>();
  const pauses = options.retryPausesMs ?? PAGE_RETRY_PAUSES_MS;
  const readPatiently = async (skip: number) => {
    for (let retry = 0; ; retry++) {
      const readAt = new Date();
      try {
        return { ...(await platform.listOperations({ skip, take: options.take })), readAt };
      } catch (error) {
        const pause = pauses[retry];
        if (pause === undefined || !isPassing(error) || options.stopping?.aborted) throw error;
        getLog().warn({ err: error, skip, pauseMs: pause }, "reconciliation: reading the page again");
        await sleep(pause, undefined, { signal: options.stopping }).catch(() => undefined);
        if (options.stopping?.aborted) throw error;
      }
    }
  };
  const read = (skip: number) => {
    const page = readPatiently(skip);
    page.catch(() => {}); // a page read ahead and then not needed must not fail the process
    return page;
  };
  let skip = 0;
  let next = read(skip);
  for (;;) {
    const page = await next;
    const fresh = page.operations.filter((op) => !seen.has(op.id));
    for (const op of fresh) seen.add(op.id);
    const unreadable = (page.unreadable ?? []).filter(
      (item) => item.id === null || !(seen.has(item.id) || seenUnreadable.has(item.id)),
    );
    for (const item of unreadable) if (item.id !== null) seenUnreadable.add(item.id);
    const walked = {
      operations: fresh,
      unreadable,
      skip,
      totalNumberRecords: page.totalNumberRecords,
      traceID: page.traceID,
      readAt: page.readAt,
    };
    // An unreadable item takes its place in the list like any other: paging counts it.
    const returned = page.operations.length + (page.unreadable?.length ?? 0);
    skip += returned;
    const end = returned === 0 || skip >= page.totalNumberRecords;
    // The next page is read while the caller stores this one: the platform and the database work at once.
    if (!end) next = read(skip);
    yield walked;
    if (end || options.stop?.(walked)) return;
  }
}
