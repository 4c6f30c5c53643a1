// Auth.js wiring (lib/auth/config.ts) and the sign-in form action at their edges: the form's own field
// errors, the credentials provider's refusal of malformed input, one server-side session per sign-in,
// the cookie's lifetime, the session version carried in the token, a token naming another user's
// session, what is logged, and refusals that are not about the credentials (an outage, another error).
import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cliActor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { getLog } from "@/lib/log";
import { SESSION_LIFETIME_MAX_MINUTES } from "@/lib/settings/settings";
import { createUser, resetPassword } from "@/lib/users/service";
import { APP_ORIGIN, browser, followAction, postCredentials } from "../../support/next-request";

vi.mock("next/headers", async () => (await import("../../support/next-request")).nextHeadersModule());
vi.mock("next/navigation", async () => (await import("../../support/next-request")).nextNavigationModule());

const { signInAction } = await import("@/lib/auth/sign-in-action");
const { auth, handlers, ssoConfigured } = await import("@/lib/auth/config");
const { currentUser } = await import("@/lib/auth/session");
const { startSession } = await import("@/lib/auth/session-store");

const password = "correct horse battery";
const SESSION_COOKIE = "authjs.session-token";

afterEach(() => {
  vi.restoreAllMocks();
});

async function newUser(role: "finance" | "support" = "finance") {
  const email = `sign-in-edge-${randomUUID()}@example.test`;
  const user = await createUser(cliActor, { email, role, password });
  return { id: user.id, email };
}

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

async function signInAs(email: string, secret = password) {
  browser.clear();
  return followAction(() => signInAction(null, form({ email, password: secret })));
}

describe("the sign-in form", () => {
  it("answers bad fields with its own messages and signs no one in", async () => {
    browser.clear();
    const outcome = await followAction(() =>
      signInAction(null, form({ email: "not-an-email", password: "" })),
    );
    expect(outcome).toEqual({
      result: {
        ok: false,
        code: "fields",
        message: "Check the highlighted fields.",
        fieldErrors: {
          email: ["Enter the email address you sign in with."],
          password: ["Enter your password."],
        },
      },
    });
    expect(browser.jar.has(SESSION_COOKIE)).toBe(false);
  });

  it("a refusal that is not a credentials one reads as a failed sign-in", async () => {
    const user = await newUser();
    // the sign-in passes the password check, then opening its session fails for another reason
    vi.spyOn(getLog(), "error").mockImplementation(() => undefined);
    const db = getDb();
    vi.spyOn(db.session, "create").mockRejectedValueOnce(new Error("disk full"));
    const outcome = await signInAs(user.email);
    expect(outcome).toEqual({
      result: { ok: false, code: "failed", message: "Sign-in did not work; try again in a moment." },
    });
    expect(browser.jar.has(SESSION_COOKIE)).toBe(false);
  });

  it("a database out of reach while the session opens reads as unavailable, not as a failure", async () => {
    const user = await newUser();
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    vi.spyOn(getDb().session, "create").mockRejectedValueOnce(refused);
    expect(await signInAs(user.email)).toEqual({
      result: {
        ok: false,
        code: "unavailable",
        message: "The database is unavailable; try again in a moment.",
      },
    });
    expect(await getDb().session.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe("the credentials provider", () => {
  it("is the only provider when single sign-on is not configured", async () => {
    expect(ssoConfigured()).toBe(false);
    const response = await handlers.GET(new Request(`${APP_ORIGIN}/api/auth/providers`) as never);
    expect(Object.keys((await response.json()) as object)).toEqual(["credentials"]);
  });

  it("refuses malformed input posted past the form as invalid credentials", async () => {
    const { location } = await postCredentials(handlers, { email: "not-an-email", password });
    expect(location.pathname).toBe("/login");
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      error: "CredentialsSignin",
      code: "invalid",
    });
  });

  it("opens exactly one server-side session per sign-in", async () => {
    const user = await newUser();
    expect(await signInAs(user.email)).toHaveProperty("redirectedTo");
    expect(await getDb().session.count({ where: { userId: user.id } })).toBe(1);
  });

  it("sets a session cookie that lives as long as the longest lifetime an admin may set", async () => {
    const user = await newUser();
    const before = Date.now();
    await signInAs(user.email);
    const expires = browser.jar.get(SESSION_COOKIE)?.options?.expires;
    expect(expires).toBeInstanceOf(Date);
    const lifetimeMs = SESSION_LIFETIME_MAX_MINUTES * 60_000;
    expect(expires!.getTime()).toBeGreaterThanOrEqual(before + lifetimeMs - 1_000);
    expect(expires!.getTime()).toBeLessThanOrEqual(Date.now() + lifetimeMs + 1_000);
  });

  it("carries the user's session version: a user whose password was reset signs in and stays in", async () => {
    const user = await newUser();
    await resetPassword(cliActor, user.email, "another long password");
    expect((await getDb().user.findUniqueOrThrow({ where: { id: user.id } })).sessionVersion).toBeGreaterThan(
      0,
    );
    expect(await signInAs(user.email, "another long password")).toHaveProperty("redirectedTo");
    expect(await currentUser()).toMatchObject({ id: user.id });
  });
});

describe("the session token", () => {
  async function tokenCookie(claims: { sub: string; sid: string; sessionVersion: number }) {
    const value = await encode({
      token: claims,
      secret: process.env.AUTH_SECRET!,
      salt: SESSION_COOKIE,
    });
    browser.clear();
    browser.jar.set(SESSION_COOKIE, { value });
  }

  it("is honoured when its session belongs to its user", async () => {
    const user = await newUser();
    await tokenCookie({ sub: user.id, sid: await startSession(user.id), sessionVersion: 0 });
    expect(await auth()).toMatchObject({ userId: user.id });
  });

  it("is refused when it names another user's session", async () => {
    const user = await newUser();
    const other = await newUser();
    await tokenCookie({ sub: user.id, sid: await startSession(other.id), sessionVersion: 0 });
    expect(await auth()).toBeNull();
    expect(await currentUser()).toBeNull();
  });
});

describe("logging", () => {
  it("a wrong password is not logged as an error; an Auth.js failure is", async () => {
    const user = await newUser();
    const error = vi.spyOn(getLog(), "error").mockImplementation(() => undefined);
    expect(await signInAs(user.email, "wrong password!")).toMatchObject({ result: { code: "invalid" } });
    expect(error).not.toHaveBeenCalled();

    const response = await handlers.GET(new Request(`${APP_ORIGIN}/api/auth/no-such-action`) as never);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(error).toHaveBeenCalledWith(
      { err: expect.objectContaining({ type: "UnknownAction" }) },
      "auth error",
    );
  });
});
