// The one permission matrix. Pages, server actions and route handlers check a named permission here.
import type { Role } from "@/lib/roles";

export { roles, type Role } from "@/lib/roles";

export const permissions = {
  // One's own interface language and time zone.
  "profile.update": ["admin", "finance", "approver", "support"],
  // One's own second factor: enrol, step up, regenerate recovery codes, disable with a code.
  "account.twoFactor": ["admin", "finance", "approver", "support"],
  // One's own password, with the current one (not for a user who signs in only with single sign-on).
  "account.password": ["admin", "finance", "approver", "support"],
  "operations.read": ["admin", "finance", "approver", "support"],
  "operations.refresh": ["admin", "finance", "support"],
  "operations.export": ["admin", "finance"],
  "recipients.reveal": ["admin", "finance", "approver"],
  "trace.read": ["admin", "finance", "support"],
  "balance.read": ["admin", "finance", "approver"],
  // Statements (read, download) and issuing (freezing) one; annotating a movement outside operations.
  "statements.read": ["admin", "finance"],
  "statements.issue": ["admin", "finance"],
  "balance.annotate": ["admin", "finance"],
  "payouts.read": ["admin", "finance", "approver"],
  "payouts.create": ["admin", "finance"],
  "payouts.approve": ["admin", "approver"],
  // Creates a pay-out the duplicate guard blocked, with a reason (stored and audited).
  "payouts.overrideDuplicate": ["admin"],
  // Cancels a request someone else made (the maker may always cancel their own).
  "payouts.cancelAny": ["admin"],
  "payins.create": ["admin", "finance"],
  "webhooks.read": ["admin", "support"],
  // Puts a processed delivery back in the queue: the worker reads the operation back again.
  "webhooks.reprocess": ["admin", "support"],
  "reconciliation.read": ["admin", "finance"],
  "reconciliation.run": ["admin", "finance"],
  // Acknowledge or resolve a drift item (with a note).
  "reconciliation.resolve": ["admin", "finance"],
  "audit.read": ["admin"],
  "users.manage": ["admin"],
  "settings.manage": ["admin"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof permissions;

export function can(role: Role, permission: Permission): boolean {
  return (permissions[permission] as readonly Role[]).includes(role);
}

/** The roles that hold a permission (for a query over users, e.g. "the other user managers"). */
export function rolesWith(permission: Permission): Role[] {
  return [...permissions[permission]];
}
