// Which permission each server action, route handler and console page checks, read from the source
// files and compared with tables written out here. A changed permission on an action, a page that
// stops checking, or a new action, route or page that nobody put in these tables fails a test naming it.
// (The behaviour behind the wrappers, role by role, is walked in tests/integration/auth/*.)
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

function walk(dir: string, keep: (file: string) => boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "generated" && entry.name !== "node_modules") out.push(...walk(rel, keep));
    } else if (keep(rel)) out.push(rel);
  }
  return out.sort();
}

const PUBLIC = "public (no permission)";
const SIGNED_IN = "any signed-in user";
const BEFORE_ENROLMENT = "any signed-in user, also before two-factor enrolment";

// ---- server actions ------------------------------------------------------------------------------

const ACTIONS: Record<string, Record<string, string>> = {
  "lib/auth/sign-in-action.ts": {
    signInAction: PUBLIC,
    ssoSignInAction: PUBLIC,
    signOutAction: PUBLIC,
  },
  "lib/actions/account.ts": {
    changeOwnPasswordAction: "account.password",
  },
  "lib/actions/two-factor.ts": {
    startEnrolmentAction: "account.twoFactor",
    confirmEnrolmentAction: "account.twoFactor",
    verifyStepUpAction: "account.twoFactor",
    regenerateRecoveryCodesAction: "account.twoFactor",
    disableTwoFactorAction: "account.twoFactor",
    resetUserTwoFactorAction: "users.manage",
  },
  // The code step of signing in (the challenge cookie decides) and single sign-on again for step-up.
  "lib/auth/two-factor/sign-in-action.ts": {
    signInCodeAction: PUBLIC,
    ssoStepUpAction: PUBLIC,
  },
  "lib/actions/operations.ts": {
    refreshOperationAction: "operations.refresh",
    revealRecipientNumberAction: "recipients.reveal",
    saveViewAction: "operations.read",
    deleteViewAction: "operations.read",
  },
  "lib/actions/payins.ts": {
    createPayInAction: "payins.create",
    createPaymentLinkAction: "payins.create",
  },
  "lib/actions/payout-recipients.ts": {
    revealPayoutRecipientNumberAction: "recipients.reveal",
  },
  "lib/actions/statements.ts": {
    issueStatementAction: "statements.issue",
    annotateMovementAction: "balance.annotate",
  },
  "lib/actions/payouts.ts": {
    reviewPayoutAction: "payouts.create",
    createPayoutRequestAction: "payouts.create",
    approvePayoutAction: "payouts.approve",
    rejectPayoutAction: "payouts.approve",
    cancelPayoutAction: "payouts.create",
    submitPayoutAction: "payouts.create",
  },
  "lib/actions/reconcile.ts": {
    decideDriftAction: "reconciliation.resolve",
    runReconciliationNowAction: "reconciliation.run",
    lookUpGivenUpAction: "reconciliation.run",
  },
  "lib/actions/settings.ts": {
    saveSettingAction: "settings.manage",
    testConnectionAction: "settings.manage",
  },
  "lib/actions/users.ts": {
    createUserAction: "users.manage",
    setUserRoleAction: "users.manage",
    disableUserAction: "users.manage",
    enableUserAction: "users.manage",
    resetUserPasswordAction: "users.manage",
    removeUserPasswordAction: "users.manage",
  },
  "lib/actions/preferences.ts": {
    setLanguage: "profile.update",
    setTimeZone: "profile.update",
  },
  "lib/actions/webhooks.ts": {
    reprocessWebhookAction: "webhooks.reprocess",
    revealWebhookBodyAction: "recipients.reveal",
  },
};

/**
 * Exported action name -> the permission of the authorizedAction (or stepUpAction, the same check and
 * a fresh second factor: see permission-grid.test.ts) it returns (PUBLIC when none).
 */
function actionsIn(source: string): Record<string, string> {
  const wrapped = new Map(
    [...source.matchAll(/const (\w+) = (?:authorizedAction|stepUpAction)\(\s*"([^"]+)"/g)].map((m) => [
      m[1]!,
      m[2]!,
    ]),
  );
  const out: Record<string, string> = {};
  for (const m of source.matchAll(/export const (\w+) = (?:authorizedAction|stepUpAction)\(\s*"([^"]+)"/g))
    out[m[1]!] = m[2]!;
  for (const m of source.matchAll(/export async function (\w+)\s*\(([^)]*)\)[^{]*\{([^}]*)\}/g)) {
    const body = /^\s*return (\w+)\(input\);\s*$/.exec(m[3]!);
    out[m[1]!] = body ? (wrapped.get(body[1]!) ?? `unwrapped ${body[1]}`) : PUBLIC;
  }
  return out;
}

describe("server actions", () => {
  const files = ["lib", "app", "components"].flatMap((dir) =>
    walk(dir, (f) => /\.tsx?$/.test(f) && /^\s*["']use server["']/m.test(read(f))),
  );

  test("the files of server actions are the ones in the table", () => {
    expect(files).toEqual(Object.keys(ACTIONS).sort());
  });

  test.each(Object.entries(ACTIONS))("%s: each action checks its permission", (file, expected) => {
    expect(actionsIn(read(file))).toEqual(expected);
  });
});

// ---- route handlers ------------------------------------------------------------------------------

const ROUTES: Record<string, Record<string, string>> = {
  "app/api/auth/[...nextauth]/route.ts": { "GET, POST": "Auth.js handlers" },
  "app/api/exports/audit/route.ts": { GET: "audit.read" },
  "app/api/exports/operations/route.ts": { GET: "operations.export" },
  "app/api/health/route.ts": { GET: PUBLIC },
  "app/api/operations/route.ts": { GET: "operations.read" },
  "app/api/payouts/[id]/status/route.ts": { GET: "payouts.read" },
  "app/api/statements/export/route.ts": { GET: "statements.read" },
  "app/api/statements/issued/[id]/route.ts": { GET: "statements.read" },
  // The platform's webhook: no session; the secret path, IP allowlist and bearer token decide.
  "app/api/webhooks/platform/[[...secret]]/route.ts": { POST: PUBLIC },
};

function handlersIn(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE) = withPermission\(\s*"([^"]+)"/g))
    out[m[1]!] = m[2]!;
  for (const m of source.matchAll(/export (?:async )?function (GET|POST|PUT|PATCH|DELETE)\b/g)) {
    // A handler with route params wraps its body in withPermission inside the function.
    const body = source.slice(m.index).split(/\nexport /)[0]!;
    out[m[1]!] = /withPermission\(\s*"([^"]+)"/.exec(body)?.[1] ?? PUBLIC;
  }
  for (const m of source.matchAll(/export const \{ ([^}]+) \} = handlers;/g))
    out[m[1]!.trim()] = "Auth.js handlers";
  for (const m of source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE) = (?!withPermission\()/g))
    out[m[1]!] = "unwrapped";
  return out;
}

describe("route handlers", () => {
  test("the route files are the ones in the table", () => {
    expect(walk("app", (f) => /\/route\.tsx?$/.test(f))).toEqual(Object.keys(ROUTES).sort());
  });

  test.each(Object.entries(ROUTES))("%s: each method checks its permission", (file, expected) => {
    expect(handlersIn(read(file))).toEqual(expected);
  });
});

// ---- pages ---------------------------------------------------------------------------------------

const PAGES: Record<string, string> = {
  "app/(auth)/login/page.tsx": PUBLIC,
  // The sign-in's code step: the challenge cookie of a password already checked, no session yet.
  "app/(auth)/login/two-factor/page.tsx": PUBLIC,
  // The one page a user who must enrol in two-factor can open before they have.
  "app/(auth)/two-factor/setup/page.tsx": BEFORE_ENROLMENT,
  "app/(console)/account/password/page.tsx": "account.password",
  "app/(console)/account/two-factor/page.tsx": SIGNED_IN,
  "app/(console)/admin/audit/page.tsx": "audit.read",
  "app/(console)/admin/users/page.tsx": "users.manage",
  "app/(console)/balance/page.tsx": "balance.read",
  // Fails on purpose for the e2e error-page tests (E2E_ERROR_PROBE); a 404 everywhere else.
  "app/(console)/error-probe/page.tsx": SIGNED_IN,
  "app/(console)/operations/[id]/page.tsx": "operations.read",
  "app/(console)/operations/page.tsx": "operations.read",
  "app/(console)/page.tsx": SIGNED_IN,
  "app/(console)/payins/page.tsx": "payins.create",
  "app/(console)/payouts/[id]/page.tsx": "payouts.read",
  "app/(console)/payouts/new/page.tsx": "payouts.create",
  "app/(console)/payouts/page.tsx": "payouts.read",
  "app/(console)/reconciliation/page.tsx": "reconciliation.read",
  "app/(console)/settings/page.tsx": "settings.manage",
  "app/(console)/statements/page.tsx": "statements.read",
  "app/(console)/trace/page.tsx": "trace.read",
  "app/(console)/webhooks/[id]/page.tsx": "webhooks.read",
  "app/(console)/webhooks/page.tsx": "webhooks.read",
  "app/forbidden/page.tsx": PUBLIC,
};

function pageCheck(source: string): string {
  const checks = [...source.matchAll(/requirePagePermission\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1]!);
  if (checks.length > 1) return `several checks: ${checks.join(", ")}`;
  if (checks.length === 1) return checks[0]!;
  if (/requireSignedIn\(\{ allowBeforeEnrolment: true \}\)/.test(source)) return BEFORE_ENROLMENT;
  return /requireSignedIn\(\)/.test(source) ? SIGNED_IN : PUBLIC;
}

describe("console pages", () => {
  test("the pages are the ones in the table", () => {
    expect(walk("app", (f) => /\/page\.tsx?$/.test(f))).toEqual(Object.keys(PAGES).sort());
  });

  test.each(Object.entries(PAGES))("%s requires %s", (file, expected) => {
    expect(pageCheck(read(file))).toBe(expected);
  });

  test("the console layout sends signed-out visitors to sign in", () => {
    expect(read("app/(console)/layout.tsx")).toMatch(/await requireSignedIn\(\)/);
  });
});

// ---- what a screen shows depending on the role (buttons, links, attention items) -----------------

const SHOWN_IF: Record<string, string[]> = {
  "app/(console)/balance/page.tsx": ["balance.annotate"],
  "app/(console)/operations/[id]/page.tsx": ["operations.refresh", "recipients.reveal", "trace.read"],
  "app/(console)/operations/page.tsx": ["operations.export"],
  "app/(console)/page.tsx": [
    "payouts.read",
    "operations.read",
    "webhooks.read",
    "reconciliation.read",
    "statements.read",
  ],
  "app/(console)/payouts/[id]/page.tsx": ["recipients.reveal", "payouts.approve"],
  "app/(console)/payouts/page.tsx": ["recipients.reveal", "payouts.create"],
  "app/(console)/reconciliation/page.tsx": ["reconciliation.resolve", "reconciliation.run"],
  "app/(console)/statements/page.tsx": ["statements.issue"],
  "app/(console)/webhooks/[id]/page.tsx": ["webhooks.reprocess", "recipients.reveal"],
  // The pay-out policy: who may decide, cancel any request, cancel their own, override the guard.
  "lib/payouts/policy.ts": [
    "payouts.approve",
    "payouts.cancelAny",
    "payouts.create",
    "payouts.overrideDuplicate",
  ],
  "lib/payouts/queries.ts": ["payouts.create"],
  "lib/users/service.ts": ["users.manage"],
};

describe("role-dependent parts of screens", () => {
  const found = Object.fromEntries(
    ["app", "lib", "components"]
      .flatMap((dir) => walk(dir, (f) => /\.tsx?$/.test(f) && !f.startsWith("lib/auth/")))
      .map((f): [string, string[]] => [
        f,
        [...read(f).matchAll(/\bcan\(\s*\w+\.role,\s*"([^"]+)"\s*\)/g)].map((m) => m[1]!),
      ])
      .filter(([, perms]) => perms.length > 0),
  );

  test("the files that ask can() are the ones in the table", () => {
    expect(Object.keys(found).sort()).toEqual(Object.keys(SHOWN_IF).sort());
  });

  test.each(Object.entries(SHOWN_IF))("%s asks for %j", (file, expected) => {
    expect(found[file]).toEqual(expected);
  });
});
