// The three doors every permission check goes through: authorizedAction (server actions), withPermission
// (route handlers) and requirePagePermission / requireSignedIn (pages), and the session lookup behind
// them. Exact answers for each refusal, and the handler never runs when refused.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { authorizedAction } from "@/lib/auth/action";
import { withPermission } from "@/lib/auth/route";
import { currentUser, requirePagePermission, requireSignedIn } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { createStaff } from "../../support/mirror";

const session = vi.hoisted(() => ({ current: null as null | { userId?: string; sessionVersion?: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
// currentUser is wrapped in React's cache(): outside a request every call reads the database again.

let finance: { id: string; email: string; name: string | null; role: "finance" };

beforeAll(async () => {
  finance = (await createStaff("finance")) as typeof finance;
});

const signIn = (userId: string, sessionVersion = 0) => (session.current = { userId, sessionVersion });
const signOut = () => (session.current = null);

async function redirectOf(run: () => Promise<unknown>): Promise<string> {
  const error = await run().then(
    () => null,
    (e: unknown) => e,
  );
  return String((error as { digest?: string } | null)?.digest ?? "no redirect");
}

describe("authorizedAction", () => {
  const handler = vi.fn(async (input: { n: number }, { user }: { user: unknown }) => ({
    ok: true as const,
    input,
    user,
  }));
  const action = authorizedAction("payouts.create", z.object({ n: z.coerce.number().int() }), handler);

  it("signed out: unauthenticated, with the sign-in message; the handler does not run", async () => {
    signOut();
    handler.mockClear();
    expect(await action({ n: "1" })).toEqual({
      ok: false,
      code: "unauthenticated",
      message: "Sign in to continue.",
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it("without the permission: forbidden, checked before the input", async () => {
    const approver = await createStaff("approver");
    signIn(approver.id);
    handler.mockClear();
    expect(await action({ n: "not a number" })).toEqual({
      ok: false,
      code: "forbidden",
      message: "Your role does not allow this.",
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it("invalid input: the field errors, and the handler does not run", async () => {
    signIn(finance.id);
    handler.mockClear();
    const result = await action({ n: "1.5" });
    expect(result).toMatchObject({ ok: false, code: "invalid", message: "Check the highlighted fields." });
    expect(Object.keys((result as { fieldErrors: object }).fieldErrors)).toEqual(["n"]);
    expect(handler).not.toHaveBeenCalled();
  });

  it("allowed: the handler gets the parsed input and the signed-in user from the database", async () => {
    signIn(finance.id);
    handler.mockClear();
    expect(await action({ n: "7" })).toEqual({
      ok: true,
      input: { n: 7 },
      // with no saved language or zone yet: the browser's decide
      user: { ...finance, role: "finance", locale: null, timeZone: null },
    });
    expect(handler).toHaveBeenCalledTimes(1);
  });
});

describe("withPermission", () => {
  const handler = vi.fn(async (_request: Request, { user }: { user: { id: string } }) =>
    Response.json({ user: user.id }),
  );
  const GET = withPermission("operations.export", handler);

  it("signed out: 401 with a typed JSON body", async () => {
    signOut();
    handler.mockClear();
    const response = await GET(new Request("http://test/x"));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      ok: false,
      code: "unauthenticated",
      message: "Sign in to continue.",
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it("without the permission: 403 with a typed JSON body", async () => {
    const support = await createStaff("support");
    signIn(support.id);
    handler.mockClear();
    const response = await GET(new Request("http://test/x"));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      ok: false,
      code: "forbidden",
      message: "Your role does not allow this.",
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it("allowed: the handler answers, with the request and the user", async () => {
    signIn(finance.id);
    const request = new Request("http://test/x");
    const response = await GET(request);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ user: finance.id });
    expect(handler).toHaveBeenCalledWith(request, {
      user: expect.objectContaining({ id: finance.id }),
      actor: expect.objectContaining({ id: finance.id, email: finance.email, role: "finance" }),
    });
  });
});

describe("pages", () => {
  it("requirePagePermission: signed out -> /login; without the permission -> /forbidden; else the user", async () => {
    signOut();
    expect(await redirectOf(() => requirePagePermission("balance.read"))).toContain(";/login;");
    const support = await createStaff("support");
    signIn(support.id);
    expect(await redirectOf(() => requirePagePermission("balance.read"))).toContain(";/forbidden;");
    signIn(finance.id);
    expect(await requirePagePermission("balance.read")).toEqual({
      id: finance.id,
      email: finance.email,
      name: finance.name,
      role: "finance",
      locale: null,
      timeZone: null,
    });
  });

  it("requireSignedIn: signed out -> /login; any role passes", async () => {
    signOut();
    expect(await redirectOf(() => requireSignedIn())).toContain(";/login;");
    const support = await createStaff("support");
    signIn(support.id);
    expect(await requireSignedIn()).toMatchObject({ id: support.id, role: "support" });
  });
});

describe("currentUser: the session is checked against the database on every request", () => {
  it.each([
    ["no session", () => signOut()],
    ["a session without a user id", () => (session.current = { sessionVersion: 0 })],
    ["an unknown user id", () => signIn("00000000-0000-4000-8000-000000000000")],
  ])("%s -> null", async (_name, arrange) => {
    arrange();
    expect(await currentUser()).toBeNull();
  });

  it("a disabled user is signed out at once", async () => {
    const user = await createStaff("admin");
    signIn(user.id);
    expect(await currentUser()).toMatchObject({ id: user.id, role: "admin" });
    await getDb().user.update({ where: { id: user.id }, data: { disabledAt: new Date() } });
    expect(await currentUser()).toBeNull();
  });

  it("a session of an older version (password reset, role change) is refused", async () => {
    const user = await createStaff("admin");
    await getDb().user.update({ where: { id: user.id }, data: { sessionVersion: 3 } });
    signIn(user.id, 2);
    expect(await currentUser()).toBeNull();
    signIn(user.id, 3);
    expect(await currentUser()).toMatchObject({ id: user.id });
  });

  it("a role change takes effect on the next request", async () => {
    const user = await createStaff("finance");
    signIn(user.id);
    expect(await redirectOf(() => requirePagePermission("users.manage"))).toContain(";/forbidden;");
    await getDb().user.update({ where: { id: user.id }, data: { role: "admin" } });
    expect(await requirePagePermission("users.manage")).toMatchObject({ role: "admin" });
  });
});
