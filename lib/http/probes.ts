import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { getDb } from "@/lib/db";
import { sharedResult } from "@/lib/shared-result";

/**
 * Cheap probes for an orchestrator, answered by plain node:http ahead of Next.js (scripts/server.ts):
 *   GET /api/health/live   200 while the process answers at all (restart it when this fails);
 *   GET /api/health/ready  200 when the database answers within a second and the process is not
 *                          shutting down, else 503 (take it out of the load balancer, do not restart).
 * `/api/health` stays the deep check (platform, webhook lag, reconciliation) for monitoring: a
 * platform outage must not make an orchestrator restart every web process.
 */
let draining = false;

/** After SIGTERM: readiness fails so the load balancer stops sending new requests while in-flight ones finish. */
export function startDraining(): void {
  draining = true;
}

const READY_TIMEOUT_MS = 1_000;

async function databaseAnswersNow(): Promise<boolean> {
  const query = getDb().$queryRawUnsafe("SELECT 1");
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error("timeout")), READY_TIMEOUT_MS).unref(),
  );
  try {
    await Promise.race([query, timeout]);
    return true;
  } catch {
    return false;
  }
}

// The probes are public like every route behind the proxy: one query a second answers every request.
const databaseAnswers = sharedResult(databaseAnswersNow, 1_000);

function reply(response: ServerResponse, status: number, body: object) {
  response
    .writeHead(status, { "content-type": "application/json", "cache-control": "no-store" })
    .end(JSON.stringify(body));
}

/** Answers the request when it is a probe (true); leaves it alone otherwise (false). */
export function handleIfProbe(request: IncomingMessage, response: ServerResponse): boolean {
  const path = request.url?.split("?")[0];
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  if (path === "/api/health/live") {
    reply(response, 200, { status: "ok" });
    return true;
  }
  if (path === "/api/health/ready") {
    if (draining) {
      reply(response, 503, { status: "fail", reason: "shutting down" });
      return true;
    }
    void databaseAnswers().then((ok) =>
      reply(response, ok ? 200 : 503, ok ? { status: "ok" } : { status: "fail", reason: "database" }),
    );
    return true;
  }
  return false;
}
