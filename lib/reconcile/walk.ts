import type { PlatformClient } from "@/lib/platform/client";
import type { Operation } from "@/lib/platform/schemas";

export type WalkedPage = {
  operations: Operation[];
  skip: number;
  totalNumberRecords: number;
  traceID: string | null;
  /** When the page was requested: its snapshots are the platform's state from then on. */
  readAt: Date;
};

/**
 * Walks POST /operation/operation/list newest first until the spec's stop rule (skip + returned >=
 * totalNumberRecords) or until `stop` says enough. Operations created during the walk are inserted at the
 * top and push older ones down a page: nothing is missed, and the ones seen twice are dropped here.
 */
export async function* walkOperations(
  platform: Pick<PlatformClient, "listOperations">,
  options: { take: number; stop?: (page: WalkedPage) => boolean },
): AsyncGenerator<WalkedPage> {
  const seen = new Set<string>();
  const read = (skip: number) => {
    const readAt = new Date();
    const page = platform.listOperations({ skip, take: options.take }).then((p) => ({ ...p, readAt }));
    page.catch(() => {}); // a page read ahead and then not needed must not fail the process
    return page;
  };
  let skip = 0;
  let next = read(skip);
  for (;;) {
    const page = await next;
    const fresh = page.operations.filter((op) => !seen.has(op.id));
    for (const op of fresh) seen.add(op.id);
    const walked = {
      operations: fresh,
      skip,
      totalNumberRecords: page.totalNumberRecords,
      traceID: page.traceID,
      readAt: page.readAt,
    };
    skip += page.operations.length;
    const end = page.operations.length === 0 || skip >= page.totalNumberRecords;
    // The next page is read while the caller stores this one: the platform and the database work at once.
    if (!end) next = read(skip);
    yield walked;
    if (end || options.stop?.(walked)) return;
  }
}
