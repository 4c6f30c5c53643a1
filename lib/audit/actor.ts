import "server-only";
import { headers } from "next/headers";
import type { Actor } from "@/lib/audit/log";
import type { StaffUser } from "@/lib/auth/session";
import { sourceIpFrom } from "@/lib/webhooks/source-ip";

/**
 * The audit actor for a change made by the signed-in user: id, email and the client IP of the request
 * (right-most X-Forwarded-For, as for webhooks). Outside a request (jobs, scripts) the IP is null.
 */
export async function actorFor(user: StaffUser): Promise<Actor> {
  let ip: string | null = null;
  try {
    ip = sourceIpFrom(await headers());
  } catch {
    // not inside a request: no client address to record
  }
  return { userId: user.id, email: user.email, ip };
}
