// What an action, a route handler or a page did for the signed-in role: the vocabulary of the
// permission-matrix tests.
import { expect } from "vitest";

export type Outcome = "allowed" | "forbidden" | "unauthenticated";

export async function actionOutcome(run: () => Promise<unknown>): Promise<Outcome> {
  const result = (await run()) as { ok: boolean; code?: string };
  if (result.code === "forbidden") return "forbidden";
  if (result.code === "unauthenticated") return "unauthenticated";
  return "allowed";
}

export async function routeOutcome(run: () => Promise<Response>): Promise<Outcome> {
  const response = await run();
  if (response.status === 403) return "forbidden";
  if (response.status === 401) return "unauthenticated";
  expect(response.status).toBe(200);
  await response.body?.cancel();
  return "allowed";
}

/** Pages redirect: to /forbidden without the permission, to /login when signed out. */
export async function pageOutcome(
  run: () => Promise<unknown>,
  options: { notFoundMeansAllowed?: boolean } = {},
): Promise<Outcome> {
  try {
    await run();
    return "allowed";
  } catch (error) {
    const digest = String((error as { digest?: string }).digest ?? "");
    if (digest.includes("/forbidden")) return "forbidden";
    if (digest.includes("/login")) return "unauthenticated";
    // The page passed its permission check, then found the record gone (removed by another test file).
    if (options.notFoundMeansAllowed && digest.includes("404")) return "allowed";
    throw error;
  }
}

/** Every role, written out (not imported from the matrix under test). */
export const ALL_ROLES = ["admin", "finance", "approver", "support"] as const;
export type TestRole = (typeof ALL_ROLES)[number];

/** [role, expected outcome] for each role, from a hand-written list of the roles let through. */
export function expectedOutcomes(allowed: readonly TestRole[]): Array<[TestRole, Outcome]> {
  return ALL_ROLES.map((role) => [role, allowed.includes(role) ? "allowed" : "forbidden"]);
}
