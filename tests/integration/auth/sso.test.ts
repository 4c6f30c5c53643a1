// Single sign-on end to end against a local OpenID Connect provider (tests/support/oidc-issuer.ts):
// the provider appears only when configured, the sign-in action sends the browser to the identity
// provider keeping a safe callback path, and the callback admits only an existing, active Paydesk
// user (one server-side session, the last sign-in time), answering an unknown or disabled user and
// an unreachable database each with its own code.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { cliActor } from "@/lib/audit/log";
import { createUser, disableUser } from "@/lib/users/service";
import { APP_ORIGIN, browser, followAction } from "../../support/next-request";
import { startOidcIssuer, type IdClaims } from "../../support/oidc-issuer";

vi.mock("next/headers", async () => (await import("../../support/next-request")).nextHeadersModule());
vi.mock("next/navigation", async () => (await import("../../support/next-request")).nextNavigationModule());

// The environment is read once per process: single sign-on is configured before anything reads it.
const idp = await startOidcIssuer();
process.env.AUTH_OIDC_ISSUER = idp.issuer;
process.env.AUTH_OIDC_CLIENT_ID = idp.clientId;
process.env.AUTH_OIDC_CLIENT_SECRET = idp.clientSecret;

const { handlers, auth, ssoConfigured } = await import("@/lib/auth/config");
const { ssoSignInAction } = await import("@/lib/auth/sign-in-action");
const { currentUser } = await import("@/lib/auth/session");
const { getDb } = await import("@/lib/db");

afterAll(async () => {
  await idp.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const password = "correct horse battery";

async function newUser() {
  const email = `sso-${randomUUID()}@example.test`;
  const user = await createUser(cliActor, { email, role: "approver", password });
  return { id: user.id, email };
}

/** Presses "Single sign-on" on the login page; returns where the browser is sent. */
async function startSso(callbackUrl?: string): Promise<URL> {
  browser.clear();
  const form = new FormData();
  if (callbackUrl !== undefined) form.set("callbackUrl", callbackUrl);
  const outcome = await followAction(() => ssoSignInAction(form));
  if (!("redirectedTo" in outcome)) throw new Error(`no redirect: ${JSON.stringify(outcome)}`);
  return new URL(outcome.redirectedTo);
}

/** The identity provider sends the browser back with a code for these claims; returns the Location. */
async function comeBack(authorization: URL, claims: IdClaims): Promise<URL> {
  const code = idp.codeFor(claims, authorization.searchParams.get("nonce"));
  const callback = new URL(`${APP_ORIGIN}/api/auth/callback/oidc`);
  callback.searchParams.set("code", code);
  const state = authorization.searchParams.get("state");
  if (state) callback.searchParams.set("state", state);
  const response = await handlers.GET(
    new Request(callback, { headers: { cookie: browser.cookieHeader() } }) as never,
  );
  for (const cookie of response.headers.getSetCookie()) {
    const [pair = "", ...attributes] = cookie.split(";");
    const [name = "", value = ""] = pair.split("=");
    const cleared = value === "" || attributes.some((a) => /max-age=0/i.test(a.trim()));
    if (cleared) browser.jar.delete(name.trim());
    else browser.jar.set(name.trim(), { value });
  }
  return new URL(response.headers.get("location") ?? "", APP_ORIGIN);
}

describe("configuration", () => {
  it("offers single sign-on next to the credentials", async () => {
    expect(ssoConfigured()).toBe(true);
    const response = await handlers.GET(new Request(`${APP_ORIGIN}/api/auth/providers`) as never);
    const providers = (await response.json()) as Record<string, { id: string; name: string; type: string }>;
    expect(Object.keys(providers)).toEqual(["credentials", "oidc"]);
    expect(providers.oidc).toMatchObject({ id: "oidc", name: "Single sign-on", type: "oidc" });
  });
});

describe("starting single sign-on", () => {
  it("sends the browser to the identity provider's authorization endpoint", async () => {
    const target = await startSso("/payouts?status=pending");
    expect(`${target.origin}${target.pathname}`).toBe(`${idp.issuer}/authorize`);
    expect(target.searchParams.get("client_id")).toBe(idp.clientId);
    expect(target.searchParams.get("redirect_uri")).toBe(`${APP_ORIGIN}/api/auth/callback/oidc`);
    expect(target.searchParams.get("response_type")).toBe("code");
  });

  it("keeps a safe callback path for after the sign-in", async () => {
    const user = await newUser();
    const location = await comeBack(await startSso("/payouts?status=pending"), { email: user.email });
    expect(location.toString()).toBe(`${APP_ORIGIN}/payouts?status=pending`);
  });

  it("drops an unsafe or oversized callback for the home page", async () => {
    const user = await newUser();
    const unsafe = await comeBack(await startSso("//evil.example/x"), { email: user.email });
    expect(unsafe.toString()).toBe(`${APP_ORIGIN}/`);
    const oversized = await comeBack(await startSso(`/${"a".repeat(2000)}`), { email: user.email });
    expect(oversized.toString()).toBe(`${APP_ORIGIN}/`);
  });
});

describe("coming back from the identity provider", () => {
  it("signs in an existing, active user matched by email whatever its case", async () => {
    const user = await newUser();
    const before = new Date();
    const location = await comeBack(await startSso("/operations"), { email: user.email.toUpperCase() });
    expect(location.toString()).toBe(`${APP_ORIGIN}/operations`);
    expect(await auth()).toMatchObject({ userId: user.id });
    expect(await currentUser()).toEqual({
      id: user.id,
      email: user.email,
      name: null,
      role: "approver",
      locale: null,
      timeZone: null,
    });
    expect(await getDb().session.count({ where: { userId: user.id } })).toBe(1);
    const stored = await getDb().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(stored.lastSignInAt?.getTime()).toBeGreaterThanOrEqual(before.getTime());
  });

  it("turns away an email without a Paydesk user, a disabled user and a token without an email", async () => {
    const disabled = await newUser();
    await disableUser(cliActor, disabled.email);
    for (const claims of [{ email: `nobody-${randomUUID()}@example.test` }, { email: disabled.email }, {}]) {
      const location = await comeBack(await startSso("/operations"), claims);
      expect(`${location.pathname}${location.search}`).toBe("/login?error=sso-unknown");
      expect(await auth()).toBeNull();
    }
    expect(await getDb().session.count({ where: { userId: disabled.id } })).toBe(0);
  });

  it("says the database is unavailable when it cannot be reached to match the user", async () => {
    const user = await newUser();
    const authorization = await startSso("/operations");
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    vi.spyOn(getDb().user, "findUnique").mockRejectedValueOnce(refused);
    const location = await comeBack(authorization, { email: user.email });
    expect(`${location.pathname}${location.search}`).toBe("/login?error=unavailable");
    expect(await auth()).toBeNull();
  });

  it("any other failure while matching the user is an error, not a refusal code, and signs no one in", async () => {
    const user = await newUser();
    const authorization = await startSso("/operations");
    vi.spyOn(getDb().user, "findUnique").mockRejectedValueOnce(new Error("something else broke"));
    const { getLog } = await import("@/lib/log");
    vi.spyOn(getLog(), "error").mockImplementation(() => undefined);
    const location = await comeBack(authorization, { email: user.email });
    expect(location.searchParams.get("error")).not.toBe("sso-unknown");
    expect(location.searchParams.get("error")).not.toBe("unavailable");
    expect(location.pathname).not.toBe("/operations");
    expect(await auth()).toBeNull();
    expect(await getDb().session.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe("the identity provider's MFA and the moment of its sign-in", () => {
  async function sessionAfter(claims: Omit<IdClaims, "email">) {
    const user = await newUser();
    await comeBack(await startSso("/operations"), { email: user.email, ...claims });
    return getDb().session.findFirstOrThrow({
      where: { userId: user.id },
      select: { identityProviderMfa: true, secondFactorAt: true },
    });
  }

  it("MFA with auth_time: the session proved its second factor at that moment", async () => {
    const authTime = Math.floor(Date.now() / 1000) - 60;
    expect(await sessionAfter({ amr: ["pwd", "mfa"], auth_time: authTime })).toEqual({
      identityProviderMfa: true,
      secondFactorAt: new Date(authTime * 1000),
    });
  });

  it("MFA without auth_time (a provider that may have reused its session): no moment, so no fresh step-up", async () => {
    expect(await sessionAfter({ amr: ["mfa"] })).toEqual({ identityProviderMfa: true, secondFactorAt: null });
  });

  it("a non-numeric auth_time: the id token check refuses the sign-in before Paydesk reads it", async () => {
    const user = await newUser();
    const { getLog } = await import("@/lib/log");
    vi.spyOn(getLog(), "error").mockImplementation(() => undefined);
    const location = await comeBack(await startSso("/operations"), {
      email: user.email,
      amr: ["mfa"],
      auth_time: "now",
    });
    expect(location.pathname).not.toBe("/operations");
    expect(await getDb().session.count({ where: { userId: user.id } })).toBe(0);
  });
});
