import { NextResponse } from "next/server";
import { checkHealth } from "@/lib/health";

export const dynamic = "force-dynamic";

/** For load balancers and monitoring: 200 when every part is healthy, 503 naming the failing parts. */
export async function GET() {
  const health = await checkHealth();
  return NextResponse.json(
    { status: health.ok ? "ok" : "fail", failing: health.failing, checks: health.parts },
    { status: health.ok ? 200 : 503 },
  );
}
