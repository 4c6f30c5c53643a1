// Walks the permission matrix for every server action, route handler and page of the console's read
// side: each role is either let through or refused (403 / typed "forbidden" / redirect to /forbidden).
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { roles, type Role } from "@/lib/auth/permissions";
import { PlatformError } from "@/lib/platform/errors";
import { createStaff, insertOperations } from "../../support/mirror";
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
// Pages, actions and routes word their answers in the request's language: a request scope to read.
vi.mock("next/headers", () => ({ headers: async () => new Headers({ host: "paydesk.test" }) }));

const platform = {
  getOperation: async () => ({ operation: null, traceID: "trace-from-fake" }),
  // the balance page then shows the last snapshot, without writing one
  getBalance: async () => {
    throw new PlatformError({ kind: "transport", method: "GET", path: "/balance", description: "down" });
  },
};
(globalThis as { paydeskPlatform?: unknown }).paydeskPlatform = platform;

const users = {} as Record<Role, string>;
const operationId = randomUUID();
let issuedStatementId = "";

beforeAll(async () => {
  for (const role of roles) users[role] = (await createStaff(role)).id;
  await insertOperations([{ id: operationId, dateAdded: new Date("2004-02-02T00:00:00Z") }]);
  const { issueStatement } = await import("@/lib/statements/issue");
  const period = { from: new Date("2004-02-01T00:00:00Z"), to: new Date("2004-02-02T00:00:00Z"), tz: "UTC" };
  issuedStatementId = (await issueStatement(period, { id: null, email: "test" })).id;
});

function signInAs(role: Role | null) {
  session.current = role ? { userId: users[role], sessionVersion: 0 } : null;
}

const noParams = () => Promise.resolve({});

// `allowed`: the roles let through, written out by hand (never computed from the matrix under test).
const checks: Array<{ name: string; allowed: readonly TestRole[]; run: () => Promise<Outcome> }> = [
  {
    name: "action refreshOperationAction",
    allowed: ["admin", "finance", "support"],
    run: async () => {
      const { refreshOperationAction } = await import("@/lib/actions/operations");
      return actionOutcome(() => refreshOperationAction({ id: operationId }));
    },
  },
  {
    name: "action revealRecipientNumberAction",
    allowed: ["admin", "finance", "approver"],
    run: async () => {
      const { revealRecipientNumberAction } = await import("@/lib/actions/operations");
      return actionOutcome(() => revealRecipientNumberAction({ id: operationId }));
    },
  },
  {
    name: "action saveViewAction",
    allowed: ["admin", "finance", "approver", "support"],
    run: async () => {
      const { saveViewAction } = await import("@/lib/actions/operations");
      return actionOutcome(() => saveViewAction({ name: `v-${randomUUID()}`, query: "status=failed" }));
    },
  },
  {
    name: "action deleteViewAction",
    allowed: ["admin", "finance", "approver", "support"],
    run: async () => {
      const { deleteViewAction } = await import("@/lib/actions/operations");
      return actionOutcome(() => deleteViewAction({ id: randomUUID() }));
    },
  },
  {
    name: "GET /api/operations",
    allowed: ["admin", "finance", "approver", "support"],
    run: async () => {
      const { GET } = await import("@/app/api/operations/route");
      return routeOutcome(() => GET(new Request("http://test/api/operations?from=2004-02-01&to=2004-02-03")));
    },
  },
  {
    name: "GET /api/exports/operations",
    allowed: ["admin", "finance"],
    run: async () => {
      const { GET } = await import("@/app/api/exports/operations/route");
      return routeOutcome(() =>
        GET(new Request("http://test/api/exports/operations?from=2004-02-01&to=2004-02-03")),
      );
    },
  },
  {
    name: "page /operations",
    allowed: ["admin", "finance", "approver", "support"],
    run: async () => {
      const { default: Page } = await import("@/app/(console)/operations/page");
      return pageOutcome(() => Page({ searchParams: Promise.resolve({ from: "2004-02-01" }) }));
    },
  },
  {
    name: "page /operations/[id]",
    allowed: ["admin", "finance", "approver", "support"],
    run: async () => {
      const { default: Page } = await import("@/app/(console)/operations/[id]/page");
      return pageOutcome(() =>
        Page({ params: Promise.resolve({ id: operationId }), searchParams: noParams() }),
      );
    },
  },
  {
    name: "page /trace",
    allowed: ["admin", "finance", "support"],
    run: async () => {
      const { default: Page } = await import("@/app/(console)/trace/page");
      return pageOutcome(() => Page({ searchParams: Promise.resolve({ q: operationId }) }));
    },
  },
  {
    name: "page /statements",
    allowed: ["admin", "finance"],
    run: async () => {
      const { default: Page } = await import("@/app/(console)/statements/page");
      return pageOutcome(() => Page({ searchParams: Promise.resolve({ period: "yesterday" }) }));
    },
  },
  {
    name: "GET /api/statements/export",
    allowed: ["admin", "finance"],
    run: async () => {
      const { GET } = await import("@/app/api/statements/export/route");
      return routeOutcome(() =>
        GET(new Request("http://test/api/statements/export?period=yesterday&format=csv")),
      );
    },
  },
  {
    name: "GET /api/statements/issued/[id]",
    allowed: ["admin", "finance"],
    run: async () => {
      const { GET } = await import("@/app/api/statements/issued/[id]/route");
      return routeOutcome(() =>
        GET(new Request(`http://test/api/statements/issued/${issuedStatementId}?format=csv`)),
      );
    },
  },
  {
    name: "page /balance",
    allowed: ["admin", "finance", "approver"],
    run: async () => {
      const { default: Page } = await import("@/app/(console)/balance/page");
      return pageOutcome(() => Page({ searchParams: noParams() }));
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
