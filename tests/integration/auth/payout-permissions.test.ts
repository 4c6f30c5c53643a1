// Walks the permission matrix for every pay-out server action and page: each role is either let
// through or refused (typed "forbidden" / redirect to /forbidden), with the roles written out by hand.
// Inputs are invalid on purpose: the permission is checked before the input, so nothing is created.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { createStaff } from "../../support/mirror";
import {
  ALL_ROLES,
  actionOutcome,
  expectedOutcomes,
  pageOutcome,
  type Outcome,
  type TestRole,
} from "../../support/permission-outcomes";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
// Actions read the request's language (Accept-Language): no request here, no header.
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));

const platform = {
  getBanks: async () => ({ banks: [{ id: null, name: "Сбербанк" }], traceID: "trace-from-fake" }),
};
(globalThis as { paydeskPlatform?: unknown }).paydeskPlatform = platform;

const users = {} as Record<TestRole, string>;

beforeAll(async () => {
  for (const role of ALL_ROLES) users[role] = (await createStaff(role)).id;
});

function signInAs(role: TestRole | null) {
  session.current = role ? { userId: users[role], sessionVersion: 0 } : null;
}

type Actions = typeof import("@/lib/actions/payouts");
const action = (pick: (m: Actions) => (input: unknown) => Promise<unknown>, input: unknown) => async () => {
  const fn = pick(await import("@/lib/actions/payouts"));
  return actionOutcome(() => fn(input));
};
const badForm = { amount: "1e3" };
const badId = { id: "not-a-uuid" };

const checks: Array<{ name: string; allowed: readonly TestRole[]; run: () => Promise<Outcome> }> = [
  {
    name: "action reviewPayoutAction",
    allowed: ["admin", "finance"],
    run: action((m) => m.reviewPayoutAction, badForm),
  },
  {
    name: "action createPayoutRequestAction",
    allowed: ["admin", "finance"],
    run: action((m) => m.createPayoutRequestAction, badForm),
  },
  {
    name: "action approvePayoutAction",
    allowed: ["admin", "approver"],
    run: action((m) => m.approvePayoutAction, badId),
  },
  {
    name: "action rejectPayoutAction",
    allowed: ["admin", "approver"],
    run: action((m) => m.rejectPayoutAction, badId),
  },
  {
    name: "action cancelPayoutAction",
    allowed: ["admin", "finance"],
    run: action((m) => m.cancelPayoutAction, badId),
  },
  {
    name: "action submitPayoutAction",
    allowed: ["admin", "finance"],
    run: action((m) => m.submitPayoutAction, badId),
  },
  {
    name: "page /payouts",
    allowed: ["admin", "finance", "approver"],
    run: async () => {
      const { default: Page } = await import("@/app/(console)/payouts/page");
      return pageOutcome(() => Page({ searchParams: Promise.resolve({}) }));
    },
  },
  {
    name: "page /payouts/new",
    allowed: ["admin", "finance"],
    run: async () => {
      const { default: Page } = await import("@/app/(console)/payouts/new/page");
      return pageOutcome(() => Page());
    },
  },
  {
    name: "page /payouts/[id]",
    allowed: ["admin", "finance", "approver"],
    run: async () => {
      const { default: Page } = await import("@/app/(console)/payouts/[id]/page");
      return pageOutcome(() => Page({ params: Promise.resolve({ id: randomUUID() }) }), {
        notFoundMeansAllowed: true,
      });
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

it("no refused or invalid call above created a pay-out request or a decision", async () => {
  const makers = Object.values(users);
  expect(await getDb().payoutRequest.count({ where: { makerId: { in: makers } } })).toBe(0);
  expect(await getDb().payoutApproval.count({ where: { approverId: { in: makers } } })).toBe(0);
});
