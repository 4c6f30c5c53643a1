/**
 * The one check for where a browser may be sent after sign-in (the login page, the sign-in actions and
 * Auth.js's `redirect` callback all ask it). Only a path on the app's own origin passes; anything else
 * becomes "/".
 *
 * A string check is not enough: browsers read `/\evil.example`, `/<TAB>/evil.example` and
 * `/.//evil.example` as other hosts once the URL parser has turned `\` into `/`, dropped tabs and
 * newlines, or resolved dot segments. So the value is parsed against the origin, as the browser will,
 * and the path rebuilt from the parsed URL must not begin with `//` (a protocol-relative URL), nor
 * with an encoded slash or backslash that a proxy or a later decode could turn into one.
 */
const PLACEHOLDER_ORIGIN = "http://paydesk.invalid";
const MAX_LENGTH = 2048;
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export function safeCallbackPath(value: unknown, appOrigin: string = PLACEHOLDER_ORIGIN): string {
  if (typeof value !== "string" || value === "" || value.length > MAX_LENGTH) return "/";
  if (CONTROL_CHARACTERS.test(value)) return "/";
  let origin: string;
  let target: URL;
  try {
    origin = new URL(appOrigin).origin;
    target = new URL(value, origin);
  } catch {
    return "/";
  }
  if (target.origin !== origin || target.username !== "" || target.password !== "") return "/";
  const path = `${target.pathname}${target.search}${target.hash}`;
  if (!path.startsWith("/") || /^\/(\/|\\|%2f|%5c)/i.test(path)) return "/";
  return path;
}

/** Auth.js's `redirect` callback: the same rule, answered as an absolute URL on the app's origin. */
export function safeCallbackUrl({ url, baseUrl }: { url: string; baseUrl: string }): string {
  return `${new URL(baseUrl).origin}${safeCallbackPath(url, baseUrl)}`;
}
