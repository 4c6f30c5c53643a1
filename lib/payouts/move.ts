import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { assertMove, type PayoutRequestStatus } from "./state";

type Tx = Pick<Prisma.TransactionClient, "payoutRequest">;

/**
 * The one way a pay-out request changes status. The move must be in the transitions table (state.ts),
 * else IllegalTransitionError is thrown before anything is written. The write is a compare-and-set on
 * the status the caller read (`from`): it moves only a request still in that status and answers whether
 * it moved, so of two callers racing for the same move exactly one wins (two approvers, a double
 * submit, a cancel against a submission). `data` sets other columns in the same write.
 */
export async function moveRequest(
  tx: Tx,
  id: string,
  from: PayoutRequestStatus,
  to: PayoutRequestStatus,
  data: Omit<Prisma.PayoutRequestUncheckedUpdateManyInput, "id" | "status"> = {},
): Promise<boolean> {
  assertMove(from, to);
  const moved = await tx.payoutRequest.updateMany({
    where: { id, status: from },
    data: { ...data, status: to },
  });
  return moved.count === 1;
}
