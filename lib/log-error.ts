/**
 * What a logged error may carry: its type, message, stack and its own plain fields (code, traceID,
 * httpStatus, a query's name...). Nested objects are left out, so an error that holds a database
 * client, a connection or a request (pg, Prisma, fetch errors do) never serialises it into the log.
 * The cause is followed by its message only.
 */
export function serializeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error) };
  const out: Record<string, unknown> = { type: error.name || error.constructor.name, message: error.message };
  for (const [key, value] of Object.entries(error)) {
    if (key === "cause" || key === "name" || key === "message") continue;
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) out[key] = value;
    else if (typeof value === "bigint") out[key] = value.toString();
  }
  if (error.cause !== undefined)
    out.cause = error.cause instanceof Error ? error.cause.message : String(error.cause);
  if (error.stack) out.stack = error.stack;
  return out;
}
