import "server-only";
import type { PlatformClient } from "@/lib/platform/client";
import type { Operation } from "@/lib/platform/schemas";

const PAGE = 500;
const MAX_PAGES = 20;

/**
 * Finds the operation created with an idTransactionMerchant: a scan of the newest operations (the one we
 * look for was created moments ago), and only then the deprecated by-merchant-id endpoint.
 */
export async function findOperationByMerchantId(
  platform: Pick<PlatformClient, "listOperations" | "getOperationsByMerchantIdDeprecated">,
  idTransactionMerchant: string,
  context: { actorUserId?: string } = {},
): Promise<{ operation: Operation; via: "list" | "deprecated" } | null> {
  let skip = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const {
      operations,
      unreadable = [],
      totalNumberRecords,
    } = await platform.listOperations({ skip, take: PAGE }, context);
    const match = operations.find((op) => op.idTransactionMerchant === idTransactionMerchant);
    if (match) return { operation: match, via: "list" };
    // items that did not decode hold places on the page all the same
    const read = operations.length + unreadable.length;
    skip += read;
    if (read === 0 || skip >= totalNumberRecords) break;
  }
  const { operations } = await platform.getOperationsByMerchantIdDeprecated(idTransactionMerchant, context);
  // The endpoint is not trusted to filter: only an operation with our id is ours.
  const newest = operations
    .filter((op) => op.idTransactionMerchant === idTransactionMerchant)
    .sort((a, b) => b.dateAdded.getTime() - a.dateAdded.getTime())[0];
  return newest ? { operation: newest, via: "deprecated" } : null;
}
