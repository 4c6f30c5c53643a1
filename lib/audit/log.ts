import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";

export type Actor = { userId: string | null; email: string | null; ip?: string | null };

/** The actor for changes made from the command line on the server. */
export const cliActor: Actor = { userId: null, email: "cli", ip: null };

export type AuditEntry = {
  action: string;
  targetType?: string;
  targetId?: string;
  before?: Prisma.InputJsonValue;
  after?: Prisma.InputJsonValue;
};

/** Appends one audit entry; call it inside the transaction that makes the change. */
export async function audit(
  tx: Pick<Prisma.TransactionClient, "auditLog">,
  actor: Actor,
  entry: AuditEntry,
): Promise<void> {
  await tx.auditLog.create({
    data: { actorUserId: actor.userId, actorEmail: actor.email, ip: actor.ip ?? null, ...entry },
  });
}
