import "server-only";
import type { Role } from "@/lib/generated/prisma/enums";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Who made a change, for the audit log, logs and platform call records: a staff member, or the
 * system (the command line, a job) with no id and no role. Built once per request (lib/auth/actor.ts).
 */
export type Actor = { id: string | null; email: string | null; role?: Role | null; ip?: string | null };

/** A signed-in staff member as an actor: what server actions and route handlers are handed. */
export type StaffActor = Actor & { id: string; email: string; role: Role };

/** The actor for changes made from the command line on the server. */
export const cliActor: Actor = { id: null, email: "cli", role: null, ip: null };
/** The actor of the worker's own decisions (submitting approved pay-outs, settling their outcome). */
export const systemActor: Actor = { id: null, email: "system", role: null, ip: null };
/** The actor of scheduled upkeep (the monthly statement issued on its own). */
export const automaticActor: Actor = { id: null, email: "automatic", role: null, ip: null };

/** The names the actors without a user are stored under (in the place of an email), worded on the audit page. */
export const SYSTEM_ACTOR_NAMES = [cliActor.email, systemActor.email, automaticActor.email] as string[];

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
    data: { actorUserId: actor.id, actorEmail: actor.email, ip: actor.ip ?? null, ...entry },
  });
}
