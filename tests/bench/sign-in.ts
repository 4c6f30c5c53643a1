// Signs a user in over HTTP, as a browser would: for the bench, and for e2e tests that need a cookie
// rather than a page. Nothing here may import a server-only module (Playwright's runner loads it too).
import { codeAt } from "../../lib/auth/two-factor/totp";

const SESSION_COOKIE = "authjs.session-token=";
const CHALLENGE_COOKIE = "paydesk-sign-in="; // lib/auth/two-factor/sign-in.ts

/** `name=value` of the response's cookie whose Set-Cookie starts with `prefix`, or undefined. */
function cookieOf(response: Response, prefix: string): string | undefined {
  return response.headers
    .getSetCookie()
    .find((c) => c.startsWith(prefix))
    ?.split(";")[0];
}

/**
 * Signs in through Auth.js's credentials endpoint; returns the session cookie as `name=value`. A user
 * enrolled in two-factor needs `totpSecret`: the password step then opens a challenge, and the code
 * step (the challenge and a current code) opens the session, as the sign-in page does.
 */
export async function signIn(
  url: string,
  email: string,
  password: string,
  totpSecret?: string,
): Promise<string> {
  const csrf = await fetch(`${url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const post = (fields: Record<string, string>, cookie: string) =>
    fetch(`${url}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrfToken, ...fields, callbackUrl: `${url}/` }),
    });
  const first = await post({ email, password }, csrfCookie);
  let session = cookieOf(first, SESSION_COOKIE);
  const challenge = cookieOf(first, CHALLENGE_COOKIE);
  if (!session && challenge && totpSecret) {
    const token = challenge.slice(CHALLENGE_COOKIE.length);
    const second = await post(
      { challenge: token, code: codeAt(totpSecret, new Date()) },
      `${csrfCookie}; ${challenge}`,
    );
    session = cookieOf(second, SESSION_COOKIE);
  }
  if (!session) {
    const why =
      challenge && !totpSecret ? ": the user is enrolled in two-factor and no secret was given" : "";
    throw new Error(`sign-in as ${email} failed (HTTP ${first.status})${why}`);
  }
  return session;
}
