// Tells "the database cannot be reached" apart from every other failure, so that a caller can say
// "try again in a moment" instead of a misleading answer (a sign-in that says "wrong password").

// Prisma's codes for a server that cannot be reached, refuses the login, times out or drops the
// connection, and for a pool that hands out no connection in time.
const PRISMA_CODES = new Set(["P1000", "P1001", "P1002", "P1008", "P1011", "P1017", "P2024"]);
// node-postgres: network errors, and PostgreSQL shutting down, starting up or out of connections.
const DRIVER_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);

type Shape = { name?: unknown; code?: unknown; errorCode?: unknown; cause?: unknown };

/** True when the error (or one it wraps, as Auth.js and Prisma do) says the database is out of reach. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  // Auth.js wraps a thrown error as `cause.err`; Prisma and pg nest it as `cause`.
  for (let depth = 0; depth < 6 && current !== null && typeof current === "object"; depth++) {
    const e = current as Shape;
    if (e.name === "PrismaClientInitializationError") return true;
    if (typeof e.code === "string" && (PRISMA_CODES.has(e.code) || DRIVER_CODES.has(e.code))) return true;
    if (typeof e.errorCode === "string" && PRISMA_CODES.has(e.errorCode)) return true;
    const cause = e.cause as { err?: unknown } | undefined;
    current = cause && typeof cause === "object" && "err" in cause ? cause.err : cause;
  }
  return false;
}
