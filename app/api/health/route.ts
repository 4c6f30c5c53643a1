import { NextResponse } from "next/server";
import { describeDatabaseProblem } from "@/lib/db-check";
import { getEnv } from "@/lib/env";

export const dynamic = "force-dynamic";

/** Liveness for load balancers: 200 when the database answers, 503 naming the failing part otherwise. */
export async function GET() {
  const problem = await describeDatabaseProblem(getEnv().DATABASE_URL, 2000);
  const body = { status: problem ? "fail" : "ok", checks: { database: problem ? "fail" : "ok" } };
  return NextResponse.json(body, { status: problem ? 503 : 200 });
}
