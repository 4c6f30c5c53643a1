// Pay-out requests for tests: valid forms with a recipient of their own, staff actors, and the audit
// trail of one request as plain objects.
import { randomUUID } from "node:crypto";
import type { Prisma } from "@/lib/generated/prisma/client";
import { getDb } from "@/lib/db";
import type { StaffActor as PayoutActor } from "@/lib/audit/log";
import { payoutFormSchema, type PayoutForm } from "@/lib/payouts/schemas";
import { freshCard } from "./cards";
import { createStaff } from "./mirror";

const RECIPIENT = {
  paymentMethod: "toCard",
  bankName: "Сбербанк",
  recipientName: "Ivan Petrov",
  amount: "1500.25",
  clientIP: "85.143.12.7",
} as const;

export function payoutForm(overrides: Partial<Record<keyof PayoutForm, string>> = {}): PayoutForm {
  return payoutFormSchema.parse({
    ...RECIPIENT,
    recipientNumber: freshCard(),
    clientID: `client-${randomUUID()}`,
    clientDateCreated: "2023-04-17",
    ...overrides,
  });
}

/**
 * A pay-out request row written straight to the table (no form, no audit), with an id and a recipient of
 * its own. One stored as approved, without approvals of its own, was auto-approved (it needs none):
 * submission sends only a request whose approvals still count.
 */
export function storedPayoutRequest(
  makerId: string,
  data: Partial<Prisma.PayoutRequestUncheckedCreateInput> = {},
) {
  return getDb().payoutRequest.create({
    data: {
      ...RECIPIENT,
      idTransactionMerchant: `po-${randomUUID()}`,
      recipientNumber: freshCard(),
      clientID: `client-${randomUUID()}`,
      clientDateCreated: new Date("2023-04-17T00:00:00Z"),
      makerId,
      ...(data.status === "approved" && { requiredApprovals: 0 }),
      ...data,
    },
  });
}

/** Prisma sets updatedAt on every write: put it back where a test wants it. */
export async function setUpdatedAt(payoutRequestId: string, updatedAt: Date): Promise<void> {
  await getDb()
    .$executeRaw`UPDATE "PayoutRequest" SET "updatedAt" = ${updatedAt} WHERE id = ${payoutRequestId}::uuid`;
}

export async function payoutActor(
  role: "admin" | "finance" | "approver" | "support",
  ip: string | null = null,
): Promise<PayoutActor> {
  const u = await createStaff(role);
  return { id: u.id, email: u.email, role, ip };
}

export type AuditRow = {
  action: string;
  actorUserId: string | null;
  actorEmail: string | null;
  ip: string | null;
  targetType: string | null;
  targetId: string | null;
  before: unknown;
  after: unknown;
};

/** Every audit entry about one pay-out request, oldest first. */
export async function auditTrail(payoutRequestId: string): Promise<AuditRow[]> {
  return getDb().auditLog.findMany({
    where: { targetId: payoutRequestId },
    orderBy: { id: "asc" },
    select: {
      action: true,
      actorUserId: true,
      actorEmail: true,
      ip: true,
      targetType: true,
      targetId: true,
      before: true,
      after: true,
    },
  });
}

/** The audit columns that name who did it and to what. */
export function by(actor: PayoutActor, payoutRequestId: string) {
  return {
    actorUserId: actor.id,
    actorEmail: actor.email,
    ip: actor.ip ?? null,
    targetType: "payoutRequest",
    targetId: payoutRequestId,
  };
}
