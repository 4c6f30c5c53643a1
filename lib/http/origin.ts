/** The origin of the current request from its Host header (and X-Forwarded-Proto behind a proxy). */
export function originFrom(headers: Headers): string | null {
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  if (!host || !/^[A-Za-z0-9.\-[\]:]+$/.test(host)) return null;
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ? "https" : "http";
  return `${proto}://${host}`;
}
