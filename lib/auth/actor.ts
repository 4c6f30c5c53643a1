import "server-only";
import { headers } from "next/headers";
import type { StaffActor } from "@/lib/audit/log";
import type { StaffUser } from "@/lib/auth/session";
import { clientIpFromHeaders } from "@/lib/http/client-ip";

/**
 * The actor for a change made by the signed-in user: id, email, role and the client IP of the request
 * as the web server determined it (lib/http/client-ip). Outside a request (jobs, scripts), or when the
 * app runs without that server, the IP is null. Built by the action and route helpers
 * (lib/auth/action.ts, lib/auth/route.ts), which hand it to their handlers.
 */
export async function actorFor(user: StaffUser): Promise<StaffActor> {
  let ip: string | null = null;
  try {
    ip = clientIpFromHeaders(await headers());
  } catch {
    // not inside a request: no client address to record
  }
  return { id: user.id, email: user.email, role: user.role, ip };
}
