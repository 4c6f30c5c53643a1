import { can, type Permission, type Role } from "@/lib/auth/permissions";

export type NavItem = { href: string; label: string; permission: Permission };

// The console's screens, each shown only to roles that may open it.
export const navItems: NavItem[] = [
  { href: "/operations", label: "Operations", permission: "operations.read" },
  { href: "/trace", label: "Trace lookup", permission: "trace.read" },
  { href: "/balance", label: "Balance", permission: "balance.read" },
  { href: "/statements", label: "Statements", permission: "statements.read" },
  { href: "/payouts", label: "Pay-outs", permission: "payouts.read" },
  { href: "/payins", label: "Pay-ins", permission: "payins.create" },
  { href: "/webhooks", label: "Webhooks", permission: "webhooks.read" },
  { href: "/reconciliation", label: "Reconciliation", permission: "reconciliation.read" },
  { href: "/settings", label: "Settings", permission: "settings.manage" },
  { href: "/admin/users", label: "Users", permission: "users.manage" },
  { href: "/admin/audit", label: "Audit log", permission: "audit.read" },
];

export function navFor(role: Role): NavItem[] {
  return navItems.filter((item) => can(role, item.permission));
}
