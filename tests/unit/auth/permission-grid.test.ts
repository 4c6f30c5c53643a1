// The permission matrix written out by hand: every role against every permission, and the console's
// navigation per role. Nothing here is derived from lib/auth/permissions.ts, so any grant or revoke in
// the role table fails a test that names the role and the permission. Changing a line of the grid is
// a decision to review, not a test to update in passing.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { can, permissions, roles, type Permission, type Role } from "@/lib/auth/permissions";
import { navFor, navItems } from "@/lib/auth/navigation";
import { ALLOWED_BEFORE_ENROLMENT, ENROLMENT_PATH } from "@/lib/auth/two-factor/policy";
import { parseEnv } from "@/lib/env";

const ROLES = ["admin", "finance", "approver", "support"] as const;

// prettier-ignore
const GRID: Record<string, readonly [admin: "✓" | "✗", finance: "✓" | "✗", approver: "✓" | "✗", support: "✓" | "✗"]> = {
  //                          admin finance approver support
  "profile.update":          ["✓",  "✓",    "✓",     "✓"],
  "account.twoFactor":       ["✓",  "✓",    "✓",     "✓"],
  "account.password":        ["✓",  "✓",    "✓",     "✓"],
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

// ---- two-factor (issue 15) -----------------------------------------------------------------------
// The server actions that need a fresh second factor (stepUpAction: the permission, then a code
// verified by this session within the step-up window), written out by hand and compared with the
// source. Moving an action off this list, or adding one, is a decision to review here.

const STEP_UP_ACTIONS: Record<string, string[]> = {
  // enrolling puts a factor of one's own on the account and makes the session's second factor fresh:
  // a session whose single sign-on MFA went stale proves it first (users without a factor are not asked)
  "lib/actions/two-factor.ts": ["startEnrolmentAction", "confirmEnrolmentAction", "resetUserTwoFactorAction"],
  "lib/actions/operations.ts": ["revealRecipientNumberAction"],
  "lib/actions/payouts.ts": ["createPayoutRequestAction", "approvePayoutAction", "submitPayoutAction"],
  "lib/actions/payout-recipients.ts": ["revealPayoutRecipientNumberAction"],
  "lib/actions/settings.ts": ["saveSettingAction"],
  "lib/actions/users.ts": [
    "createUserAction",
    "setUserRoleAction",
    "disableUserAction",
    "enableUserAction",
    "resetUserPasswordAction",
    "removeUserPasswordAction",
  ],
  "lib/actions/webhooks.ts": ["revealWebhookBodyAction"],
};

const ROOT = path.resolve(import.meta.dirname, "../../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(rel);
    return /\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

describe("step-up: the actions that ask for a fresh second factor", () => {
  const found = Object.fromEntries(
    ["lib", "app", "components"]
      .flatMap(sourceFiles)
      .map((file): [string, string[]] => [
        file,
        [...readFileSync(path.join(ROOT, file), "utf8").matchAll(/export const (\w+) = stepUpAction\(/g)].map(
          (m) => m[1]!,
        ),
      ])
      .filter(([, names]) => names.length > 0),
  );

  test("the files with step-up actions are the ones in the list", () => {
    expect(Object.keys(found).sort()).toEqual(Object.keys(STEP_UP_ACTIONS).sort());
  });

  test.each(Object.entries(STEP_UP_ACTIONS))("%s: exactly these actions need step-up", (file, names) => {
    expect(found[file]).toEqual(names);
  });

  test("approving needs step-up, rejecting does not (it moves no money)", () => {
    const source = readFileSync(path.join(ROOT, "lib/actions/payouts.ts"), "utf8");
    expect(source).toMatch(/export const approvePayoutAction = stepUpAction\(/);
    expect(source).toMatch(/export const rejectPayoutAction = authorizedAction\(/);
  });
});

describe("two-factor policy", () => {
  test("by default admin and approver must use two-factor", () => {
    const env = parseEnv({
      DATABASE_URL: "postgresql://u:p@db.internal:5432/paydesk",
      PLATFORM_BASE_URL: "https://api.platform.example",
      PLATFORM_TOKEN: "jwt",
      AUTH_SECRET: "s".repeat(32),
    });
    expect(env.TWO_FACTOR_REQUIRED_ROLES).toEqual(["admin", "approver"]);
  });

  test("before enrolling, a required user may only set it up and choose a language and time zone", () => {
    expect([...ALLOWED_BEFORE_ENROLMENT].sort()).toEqual(["account.twoFactor", "profile.update"]);
    expect(ENROLMENT_PATH).toBe("/two-factor/setup");
  });
});
