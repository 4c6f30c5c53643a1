import "server-only";
import { headers } from "next/headers";
import { databaseUnavailableDigest, readErrorDigest } from "@/lib/errors/digest";
import { REQUEST_ID_HEADER } from "@/lib/http/request-id";

// What an unusable database looks like by the time it reaches our code (checked against Prisma 7
// with @prisma/adapter-pg and pg 8):
// - Prisma's request errors: P1001 can't reach the server, P1002 timed out, P1008 operation timed
//   out, P1017 server closed the connection, P2024 no pool connection in time; the adapter's cause in
//   `meta.driverAdapterError.cause.kind` (DatabaseNotReachable, ConnectionClosed, SocketTimeout...).
// - pg's own errors, which Prisma passes on unchanged: socket codes (ECONNREFUSED...), SQLSTATE class
//   08 (connection exception), 57P01-57P03 (shutting down, starting up), 53300 (too many
//   connections), and untyped ones known only by their message ("Connection terminated
//   unexpectedly", "Connection terminated due to connection timeout", pg-pool's "timeout exceeded
//   when trying to connect").
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
const ADAPTER_KINDS = new Set([
  "DatabaseNotReachable",
  "DatabaseDoesNotExist",
  "DatabaseAccessDenied",
  "AuthenticationFailed",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "TlsConnectionError",
]);
// Only as the error itself: a fetch to the platform fails with a TypeError whose *cause* has these.
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
]);
const SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);
const PG_MESSAGES = [
  /^Connection terminated unexpectedly$/,
  /^Connection terminated due to connection timeout$/,
  /^timeout exceeded when trying to connect$/,
];

type ErrorLike = {
  digest?: unknown;
  name?: unknown;
  code?: unknown;
  errorCode?: unknown;
  message?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: unknown; code?: unknown } } };
};

const isSqlState = (code: unknown) =>
  typeof code === "string" && (code.startsWith("08") || SQLSTATES.has(code));

/**
 * True when the error says the database cannot be used at all (as opposed to a bad query). Auth.js
 * hands a sign-in's error on wrapped as `cause.err`: that one is looked at as if thrown directly.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined; depth++) {
    if (saysUnavailable(current)) return true;
    const cause = (current as { cause?: unknown } | null)?.cause;
    current = cause && typeof cause === "object" && "err" in cause ? cause.err : undefined;
  }
  return false;
}

function saysUnavailable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const e = error as ErrorLike;
  // Ours, already mapped (by its digest: instrumentation.ts is bundled apart, so no instanceof).
  if (readErrorDigest(e.digest).kind === "database-unavailable") return true;
  if (e.name === "PrismaClientInitializationError") return true;
  const prismaCode = e.code ?? e.errorCode;
  if (typeof prismaCode === "string" && PRISMA_CODES.has(prismaCode)) return true;
  const adapterCause = e.meta?.driverAdapterError?.cause;
  if (adapterCause) {
    if (typeof adapterCause.kind === "string" && ADAPTER_KINDS.has(adapterCause.kind)) return true;
    if (adapterCause.kind === "postgres" && isSqlState(adapterCause.code)) return true;
  }
  if (typeof e.code === "string" && (SOCKET_CODES.has(e.code) || isSqlState(e.code))) return true;
  const message = e.message;
  return typeof message === "string" && PG_MESSAGES.some((m) => m.test(message));
}

/**
 * A page could not be rendered because the database is unavailable. Its digest (what the browser
 * gets in production) names the kind and the request, so the error boundary can say so and show the
 * id to quote to support; the original error stays in `cause` for the server log.
 */
export class DatabaseUnavailableError extends Error {
  override name = "DatabaseUnavailableError";
  readonly digest: string;
  constructor(requestId: string | undefined, cause: unknown) {
    super("The database is unavailable.", { cause });
    this.digest = databaseUnavailableDigest(requestId);
  }
}

/**
 * For pages' data loading: an unusable database becomes a DatabaseUnavailableError; anything else
 * (including Next's redirect and not-found signals) is returned unchanged, to be rethrown.
 */
export async function toPageError(error: unknown): Promise<unknown> {
  if (!isDatabaseUnavailable(error)) return error;
  return new DatabaseUnavailableError(await currentRequestId(), error);
}

async function currentRequestId(): Promise<string | undefined> {
  try {
    return (await headers()).get(REQUEST_ID_HEADER) ?? undefined;
  } catch {
    return undefined; // outside a request (a job, a script)
  }
}
