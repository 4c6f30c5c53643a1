// The permission matrix written out by hand: every role against every permission, and the console's
// navigation per role. Nothing here is derived from lib/auth/permissions.ts, so any grant or revoke in
// the role table fails a test that names the role and the permission. Changing a line of the grid is
// a decision to review, not a test to update in passing.
import { describe, expect, test } from "vitest";
import { can, permissions, roles, type Permission, type Role } from "@/lib/auth/permissions";
import { navFor, navItems } from "@/lib/auth/navigation";

const ROLES = ["admin", "finance", "approver", "support"] as const;

// prettier-ignore
const GRID: Record<string, readonly [admin: "✓" | "✗", finance: "✓" | "✗", approver: "✓" | "✗", support: "✓" | "✗"]> = {
  //                          admin finance approver support
  "profile.update":          ["✓",  "✓",    "✓",     "✓"],
  "operations.read":         ["✓",  "✓",    "✓",     "✓"],
  "operations.refresh":      ["✓",  "✓",    "✗",     "✓"],
  "operations.export":       ["✓",  "✓",    "✗",     "✗"],
  "recipients.reveal":       ["✓",  "✓",    "✓",     "✗"],
  "trace.read":              ["✓",  "✓",    "✗",     "✓"],
  "balance.read":            ["✓",  "✓",    "✓",     "✗"],
  "payouts.read":            ["✓",  "✓",    "✓",     "✗"],
  "payouts.create":          ["✓",  "✓",    "✗",     "✗"],
  "payouts.approve":         ["✓",  "✗",    "✓",     "✗"],
  "payouts.overrideDuplicate": ["✓", "✗",    "✗",     "✗"],
  "payouts.cancelAny":       ["✓",  "✗",    "✗",     "✗"],
  "payins.create":           ["✓",  "✓",    "✗",     "✗"],
  "webhooks.read":           ["✓",  "✗",    "✗",     "✓"],
  "webhooks.reprocess":      ["✓",  "✗",    "✗",     "✓"],
  "reconciliation.read":     ["✓",  "✓",    "✗",     "✗"],
  "reconciliation.run":      ["✓",  "✓",    "✗",     "✗"],
  "reconciliation.resolve":  ["✓",  "✓",    "✗",     "✗"],
  "audit.read":              ["✓",  "✗",    "✗",     "✗"],
  "users.manage":            ["✓",  "✗",    "✗",     "✗"],
  "settings.manage":         ["✓",  "✗",    "✗",     "✗"],
  "statements.read":         ["✓",  "✓",    "✗",     "✗"],
  "statements.issue":        ["✓",  "✓",    "✗",     "✗"],
  "balance.annotate":        ["✓",  "✓",    "✗",     "✗"],
};

const cells = Object.entries(GRID).flatMap(([permission, row]) =>
  ROLES.map((role, i) => ({ role, permission, granted: row[i] === "✓" })),
);
const granted = cells.filter((c) => c.granted).map((c) => [c.role, c.permission] as const);
const refused = cells.filter((c) => !c.granted).map((c) => [c.role, c.permission] as const);

describe("roles and permissions are exactly the ones in this grid", () => {
  test("the roles", () => {
    expect([...roles]).toEqual([...ROLES]);
  });

  test("the permissions (a new permission must be added to the grid with its row)", () => {
    expect(Object.keys(permissions).sort()).toEqual(Object.keys(GRID).sort());
  });
});

describe("every role × every permission", () => {
  test.each(granted)("%s is granted %s", (role, permission) => {
    expect(can(role, permission as Permission)).toBe(true);
  });

  test.each(refused)("%s is refused %s", (role, permission) => {
    expect(can(role, permission as Permission)).toBe(false);
  });

  test("a role that is not in the table is refused everything", () => {
    for (const permission of Object.keys(GRID)) {
      expect(can("auditor" as Role, permission as Permission)).toBe(false);
    }
  });
});

describe("console navigation", () => {
  test("each screen and the permission that opens it", () => {
    expect(navItems.map((i) => [i.href, i.key, i.permission, i.group])).toEqual([
      ["/operations", "operations", "operations.read", "main"],
      ["/trace", "trace", "trace.read", "main"],
      ["/balance", "balance", "balance.read", "main"],
      ["/statements", "statements", "statements.read", "main"],
      ["/payouts", "payouts", "payouts.read", "main"],
      ["/payins", "payins", "payins.create", "main"],
      ["/webhooks", "webhooks", "webhooks.read", "control"],
      ["/reconciliation", "reconciliation", "reconciliation.read", "control"],
      ["/admin/audit", "audit", "audit.read", "control"],
      ["/settings", "settings", "settings.manage", "admin"],
      ["/admin/users", "users", "users.manage", "admin"],
    ]);
  });

  test.each([
    [
      "admin",
      [
        "/operations",
        "/trace",
        "/balance",
        "/statements",
        "/payouts",
        "/payins",
        "/webhooks",
        "/reconciliation",
        "/admin/audit",
        "/settings",
        "/admin/users",
      ],
    ],
    [
      "finance",
      ["/operations", "/trace", "/balance", "/statements", "/payouts", "/payins", "/reconciliation"],
    ],
    ["approver", ["/operations", "/balance", "/payouts"]],
    ["support", ["/operations", "/trace", "/webhooks"]],
  ] as const)("%s sees exactly these screens", (role, hrefs) => {
    expect(navFor(role).map((i) => i.href)).toEqual([...hrefs]);
  });
});
