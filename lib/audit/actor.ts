import "server-only";
import { headers } from "next/headers";
import type { Actor } from "@/lib/audit/log";
import type { StaffUser } from "@/lib/auth/session";
import { clientIpFromHeaders } from "@/lib/http/client-ip";

/**
 * The audit actor for a change made by the signed-in user: id, email and the client IP of the request
 * as the web server determined it (lib/http/client-ip). Outside a request (jobs, scripts), or when the
 * app runs without that server, the IP is null.
 */
export async function actorFor(user: StaffUser): Promise<Actor> {
  let ip: string | null = null;
  try {
    ip = clientIpFromHeaders(await headers());
  } catch {
    // not inside a request: no client address to record
  }
  return { userId: user.id, email: user.email, ip };
}
