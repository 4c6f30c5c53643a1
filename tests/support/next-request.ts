// A stand-in for Next's request scope, so integration tests can run the real sign-in and sign-out server
// actions and `auth()` (Auth.js, its JWT cookie, our callbacks) outside a Next server. Use with
//   vi.mock("next/headers", async () => (await import("../../support/next-request")).nextHeadersModule());
//   vi.mock("next/navigation", async () => (await import("../../support/next-request")).nextNavigationModule());

export const APP_ORIGIN = "http://paydesk.test";

/** What `redirect()` throws here (Next throws its own signal the same way). */
export class RedirectSignal extends Error {
  constructor(readonly url: string) {
    super(`redirect to ${url}`);
  }
}

type Cookie = { value: string; options?: { expires?: Date; maxAge?: number } };

/** The browser of these tests: one cookie jar, sent with every request. */
export const browser = {
  jar: new Map<string, Cookie>(),
  clear() {
    this.jar.clear();
  },
  cookieHeader(): string {
    return [...this.jar].map(([name, c]) => `${name}=${c.value}`).join("; ");
  },
  /** The session cookie(s) as they are now, to replay later as an attacker would. */
  capture(): Map<string, Cookie> {
    return new Map(this.jar);
  },
  restore(captured: Map<string, Cookie>) {
    this.jar = new Map(captured);
  },
};

function setCookie(name: string, value: string, options?: Cookie["options"]) {
  const expired =
    (options?.maxAge !== undefined && options.maxAge <= 0) ||
    (options?.expires !== undefined && options.expires.getTime() <= Date.now());
  if (expired || value === "") browser.jar.delete(name);
  else browser.jar.set(name, { value, options });
}

export function nextHeadersModule() {
  return {
    headers: async () =>
      new Headers({
        host: new URL(APP_ORIGIN).host,
        cookie: browser.cookieHeader(),
        "x-forwarded-proto": "http",
      }),
    cookies: async () => ({
      get: (name: string) => {
        const c = browser.jar.get(name);
        return c ? { name, value: c.value } : undefined;
      },
      getAll: () => [...browser.jar].map(([name, c]) => ({ name, value: c.value })),
      has: (name: string) => browser.jar.has(name),
      set: (name: string, value: string, options?: Cookie["options"]) => setCookie(name, value, options),
      delete: (name: string) => browser.jar.delete(name),
    }),
  };
}

export function nextNavigationModule() {
  return {
    redirect: (url: string): never => {
      throw new RedirectSignal(url);
    },
  };
}

/** Runs a server action that ends in `redirect()`; returns where it sent the browser, or its result. */
export async function followAction<T>(
  run: () => Promise<T>,
): Promise<{ redirectedTo: string } | { result: T }> {
  try {
    return { result: await run() };
  } catch (error) {
    if (error instanceof RedirectSignal) return { redirectedTo: error.url };
    throw error;
  }
}

type AuthRouteHandlers = {
  GET: (request: never) => Promise<Response>;
  POST: (request: never) => Promise<Response>;
};

/**
 * Posts straight to Auth.js's credentials callback with its own CSRF token and cookie, as a browser
 * without our form would: the answer and where it sends the browser.
 */
export async function postCredentials(handlers: AuthRouteHandlers, fields: Record<string, string>) {
  const csrf = await handlers.GET(new Request(`${APP_ORIGIN}/api/auth/csrf`) as never);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const response = await handlers.POST(
    new Request(`${APP_ORIGIN}/api/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrfToken, ...fields }),
    }) as never,
  );
  return { response, location: new URL(response.headers.get("location") ?? "", APP_ORIGIN) };
}
