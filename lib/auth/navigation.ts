import { can, type Permission, type Role } from "@/lib/auth/permissions";

/** `key` names the label in the `shell.nav` catalog; `group` places the item in the header. */
export type NavItem = { href: string; key: string; permission: Permission; group: NavGroup };
export type NavGroup = "main" | "control" | "admin";

// The console's screens, each shown only to roles that may open it.
export const navItems: NavItem[] = [
  { href: "/operations", key: "operations", permission: "operations.read", group: "main" },
  { href: "/trace", key: "trace", permission: "trace.read", group: "main" },
  { href: "/balance", key: "balance", permission: "balance.read", group: "main" },
  { href: "/statements", key: "statements", permission: "statements.read", group: "main" },
  { href: "/payouts", key: "payouts", permission: "payouts.read", group: "main" },
  { href: "/payins", key: "payins", permission: "payins.create", group: "main" },
  { href: "/webhooks", key: "webhooks", permission: "webhooks.read", group: "control" },
  { href: "/reconciliation", key: "reconciliation", permission: "reconciliation.read", group: "control" },
  { href: "/admin/audit", key: "audit", permission: "audit.read", group: "control" },
  { href: "/settings", key: "settings", permission: "settings.manage", group: "admin" },
  { href: "/admin/users", key: "users", permission: "users.manage", group: "admin" },
];

export function navFor(role: Role): NavItem[] {
  return navItems.filter((item) => can(role, item.permission));
}
