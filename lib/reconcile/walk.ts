import type { PlatformClient } from "@/lib/platform/client";
import type { Operation } from "@/lib/platform/schemas";

export type WalkedPage = {
  operations: Operation[];
  skip: number;
  totalNumberRecords: number;
  traceID: string | null;
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
  let skip = 0;
  for (;;) {
    const page = await platform.listOperations({ skip, take: options.take });
    const fresh = page.operations.filter((op) => !seen.has(op.id));
    for (const op of fresh) seen.add(op.id);
    const walked = {
      operations: fresh,
      skip,
      totalNumberRecords: page.totalNumberRecords,
      traceID: page.traceID,
    };
    yield walked;
    skip += page.operations.length;
    if (page.operations.length === 0 || skip >= page.totalNumberRecords) return;
    if (options.stop?.(walked)) return;
  }
}
