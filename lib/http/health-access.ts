import "server-only";
import { z } from "zod";
import { sameSecret } from "@/lib/http/same-secret";

/**
 * What a caller of the public /api/health may read: without credentials, whether it is healthy and
 * which parts fail; with `Authorization: Bearer <HEALTH_TOKEN>`, also why (database host and error,
 * the platform's last failure, the queue's age), which is for the operators' monitoring only.
 */
export type HealthAccess = "summary" | "details" | "refused";

const bearerHeader = z
  .string()
  .max(1024)
  .regex(/^bearer [\x21-\x7e]+$/i);

export function healthAccess(authorization: string | null, expectedToken: string | undefined): HealthAccess {
  if (authorization === null) return "summary";
  const header = bearerHeader.safeParse(authorization);
  if (!header.success || expectedToken === undefined) return "refused";
  return sameSecret(header.data.slice("bearer ".length), expectedToken) ? "details" : "refused";
}

export const HEALTH_TOKEN_REFUSED =
  "Authorization must be `Bearer <HEALTH_TOKEN>` of this deployment; without it, the answer has no details.";
