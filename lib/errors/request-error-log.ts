import "server-only";
import type { Logger } from "pino";
import { isDatabaseUnavailable } from "@/lib/errors/database";
import { REQUEST_ID_HEADER } from "@/lib/http/request-id";

/** What Next.js passes to instrumentation's onRequestError (Instrumentation.onRequestError). */
export type RequestErrorRequest = {
  path: string;
  method: string;
  headers: Record<string, string | string[] | undefined>;
};
export type RequestErrorContext = { routePath: string; routeType: string; renderSource?: string };

/**
 * One log line per server error, with the request's id and the error's digest: the two references
 * the error page shows the user. The path is logged without its query (it may hold card digits).
 */
export function logRequestError(
  log: Logger,
  error: unknown,
  request: RequestErrorRequest,
  context: RequestErrorContext,
): void {
  const header = request.headers[REQUEST_ID_HEADER];
  const digest =
    typeof error === "object" && error !== null && "digest" in error ? String(error.digest) : undefined;
  const databaseUnavailable = isDatabaseUnavailable(error);
  log.error(
    {
      requestId: Array.isArray(header) ? header[0] : header,
      digest,
      method: request.method,
      path: request.path.split("?")[0],
      route: context.routePath,
      routeType: context.routeType,
      renderSource: context.renderSource,
      databaseUnavailable,
      err: error,
    },
    databaseUnavailable ? "request failed: the database is unavailable" : "request failed",
  );
}
