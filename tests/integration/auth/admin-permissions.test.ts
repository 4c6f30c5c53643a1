// Walks the permission matrix for every server action, route handler and page of the administration,
// webhook inbox, reconciliation, settings and pay-in screens: each role is either let through or refused
// (403 / typed "forbidden" / redirect to /forbidden). Inputs are invalid on purpose where the action
// would otherwise do something: the permission is checked before the input.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { can, roles, type Role } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db";
import { createStaff } from "../../support/mirror";
import {
  actionOutcome,
  expectedOutcomes,
  pageOutcome,
  routeOutcome,
  type Outcome,
  type TestRole,
} from "../../support/permission-outcomes";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({ headers: async () => new Headers({ host: "paydesk.test" }) }));
vi.mock("@/lib/queue/enqueue", () => ({ enqueueJob: async () => null }));

const platform = {
  getBanks: async () => ({ banks: [], traceID: "trace-from-fake" }),
};
(globalThis as { paydeskPlatform?: unknown }).paydeskPlatform = platform;

const users = {} as Record<Role, string>;
let deliveryId = "1";

beforeAll(async () => {
  for (const role of roles) users[role] = (await createStaff(role)).id;
  const delivery = await getDb().webhookDelivery.create({
    data: { headers: {}, body: "{}", bodyBytes: 2, outcome: "malformed" },
  });
  deliveryId = delivery.id.toString();
});

function signInAs(role: Role | null) {
  session.current = role ? { userId: users[role], sessionVersion: 0 } : null;
}

const noParams = () => Promise.resolve({});
const action =
  <M>(load: () => Promise<M>, pick: (m: M) => (input: unknown) => Promise<unknown>, input: unknown) =>
  async () => {
    const fn = pick(await load());
    return actionOutcome(() => fn(input));
  };
const settingsActions = () => import("@/lib/actions/settings");
const userActions = () => import("@/lib/actions/users");
const reconcileActions = () => import("@/lib/actions/reconcile");
const payinActions = () => import("@/lib/actions/payins");
const statementActions = () => import("@/lib/actions/statements");

// `allowed`: the roles let through, written out by hand (never computed from the matrix under test).
const checks: Array<{ name: string; allowed: readonly TestRole[]; run: () => Promise<Outcome> }> = [
  {
    name: "action saveSettingAction",
    allowed: ["admin"],
    run: action(settingsActions, (m) => m.saveSettingAction, { key: "stuckOperationMinutes", value: "x" }),
  },
  {
    name: "action testConnectionAction",
    allowed: ["admin"],
    run: action(settingsActions, (m) => m.testConnectionAction, undefined),
  },
  {
    name: "action reprocessWebhookAction",
    allowed: ["admin", "support"],
    run: action(
      () => import("@/lib/actions/webhooks"),
      (m) => m.reprocessWebhookAction,
      { id: "x" },
    ),
  },
  {
    name: "action issueStatementAction",
    allowed: ["admin", "finance"],
    run: action(statementActions, (m) => m.issueStatementAction, { period: "x" }),
  },
  {
    name: "action annotateMovementAction",
    allowed: ["admin", "finance"],
    run: action(statementActions, (m) => m.annotateMovementAction, { id: "x" }),
  },
  {
    name: "action decideDriftAction",
    allowed: ["admin", "finance"],
    run: action(reconcileActions, (m) => m.decideDriftAction, { id: "x" }),
  },
  {
    name: "action runReconciliationNowAction",
    allowed: ["admin", "finance"],
    run: action(reconcileActions, (m) => m.runReconciliationNowAction, { kind: "x" }),
  },
  {
    name: "action createUserAction",
    allowed: ["admin"],
    run: action(userActions, (m) => m.createUserAction, { email: "" }),
  },
  {
    name: "action setUserRoleAction",
    allowed: ["admin"],
    run: action(userActions, (m) => m.setUserRoleAction, { userId: "x" }),
  },
  {
    name: "action disableUserAction",
    allowed: ["admin"],
    run: action(userActions, (m) => m.disableUserAction, { userId: "x" }),
  },
  {
    name: "action resetUserPasswordAction",
    allowed: ["admin"],
    run: action(userActions, (m) => m.resetUserPasswordAction, { userId: "x" }),
  },
  {
    name: "action createPayInAction",
    allowed: ["admin", "finance"],
    run: action(payinActions, (m) => m.createPayInAction, { amount: "1e3" }),
  },
  {
    name: "action createPaymentLinkAction",
    allowed: ["admin", "finance"],
    run: action(payinActions, (m) => m.createPaymentLinkAction, { mode: "x" }),
  },
  {
    name: "GET /api/exports/audit",
    allowed: ["admin"],
    run: async () => {
      const { GET } = await import("@/app/api/exports/audit/route");
      return routeOutcome(() => GET(new Request(`http://test/api/exports/audit?action=${randomUUID()}`)));
    },
  },
  {
    name: "page /settings",
    allowed: ["admin"],
    run: async () => {
      const { default: Page } = await import("@/app/(console)/settings/page");
      return pageOutcome(() => Page());
    },
  },
  {
    name: "page /webhooks",
    allowed: ["admin", "support"],
    run: async () => {
      const { default: Page } = await import("@/app/(console)/webhooks/page");
      return pageOutcome(() => Page({ searchParams: Promise.resolve({ outcome: "malformed" }) }));
    },
  },
  {
    name: "page /webhooks/[id]",
    allowed: ["admin", "support"],
    run: async () => {
      const { default: Page } = await import("@/app/(console)/webhooks/[id]/page");
      return pageOutcome(() => Page({ params: Promise.resolve({ id: deliveryId }) }), {
        notFoundMeansAllowed: true,
      });
    },
  },
  {
    name: "page /reconciliation",
    allowed: ["admin", "finance"],
    run: async () => {
      const { default: Page } = await import("@/app/(console)/reconciliation/page");
      return pageOutcome(() => Page({ searchParams: noParams() }));
    },
  },
  {
    name: "page /payins",
    allowed: ["admin", "finance"],
    run: async () => {
      const { default: Page } = await import("@/app/(console)/payins/page");
      return pageOutcome(() => Page());
    },
  },
  {
    name: "page /admin/users",
    allowed: ["admin"],
    run: async () => {
      const { default: Page } = await import("@/app/(console)/admin/users/page");
      return pageOutcome(() => Page());
    },
  },
  {
    name: "page /admin/audit",
    allowed: ["admin"],
    run: async () => {
      const { default: Page } = await import("@/app/(console)/admin/audit/page");
      return pageOutcome(() => Page({ searchParams: Promise.resolve({ action: randomUUID() }) }));
    },
  },
];

describe.each(checks)("$name", ({ allowed, run }) => {
  it.each(expectedOutcomes(allowed))("%s: %s", async (role, outcome) => {
    signInAs(role);
    expect(await run()).toBe(outcome);
  });

  it("refuses a visitor without a session", async () => {
    signInAs(null);
    expect(await run()).toBe("unauthenticated");
  });
});

// Permissions a rule asks rather than an action's door (lib/payouts/policy.ts): who holds them, written
// out. Their effect on each role is walked in tests/integration/payouts/policy.test.ts.
describe.each([
  ["payouts.overrideDuplicate", ["admin"]],
  ["payouts.cancelAny", ["admin"]],
] as const)("%s (asked by the pay-out policy)", (permission, holders) => {
  it("is held by exactly these roles", () => {
    expect(roles.filter((role) => can(role, permission))).toEqual(holders);
  });
});

describe("page / (home)", () => {
  it.each(roles)("%s sees the welcome heading", async (role) => {
    signInAs(role);
    const { default: Home } = await import("@/app/(console)/page");
    expect(await pageOutcome(() => Home())).toBe("allowed");
  });
  it("sends a visitor to sign in", async () => {
    signInAs(null);
    const { default: Home } = await import("@/app/(console)/page");
    expect(await pageOutcome(() => Home())).toBe("unauthenticated");
  });
});
