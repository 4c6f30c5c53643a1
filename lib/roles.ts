// The staff roles, listed once (the database's Role enum is kept in step by a test). Who may do what is
// lib/auth/permissions.ts; configuration and settings name roles without depending on it.
export const roles = ["admin", "finance", "approver", "support"] as const;
export type Role = (typeof roles)[number];
