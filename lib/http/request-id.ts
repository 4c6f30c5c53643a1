/**
 * Every request through Next.js gets a fresh id from the proxy (an id sent by the client is replaced,
 * so nobody can make two requests share one). Route code reads it from this request header, the
 * browser gets it back in the response header of the same name, and server error logs carry it.
 */
export const REQUEST_ID_HEADER = "x-request-id";

export function newRequestId(): string {
  return crypto.randomUUID();
}
