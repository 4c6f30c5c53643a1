import { NextResponse } from "next/server";
import { getEnv } from "@/lib/env";
import { currentHealth } from "@/lib/health";
import { HEALTH_TOKEN_REFUSED, healthAccess } from "@/lib/http/health-access";

export const dynamic = "force-dynamic";

/**
 * For load balancers and monitoring: 200 when every part is healthy, 503 naming the failing parts.
 * The parts' details only with the monitoring's bearer token (HEALTH_TOKEN).
 */
export async function GET(request: Request) {
  const access = healthAccess(request.headers.get("authorization"), getEnv().HEALTH_TOKEN);
  if (access === "refused")
    return NextResponse.json(
      { status: "refused", error: HEALTH_TOKEN_REFUSED },
      { status: 401, headers: { "www-authenticate": 'Bearer realm="health"', "cache-control": "no-store" } },
    );
  const health = await currentHealth();
  const summary = { status: health.ok ? "ok" : "fail", failing: health.failing };
  return NextResponse.json(access === "details" ? { ...summary, checks: health.parts } : summary, {
    status: health.ok ? 200 : 503,
    headers: { "cache-control": "no-store" },
  });
}
