import { isUuid } from "@/lib/uuid";

// In production Next.js replaces a server error's message with a generic one before it reaches the
// browser; only `digest` survives. Next computes a hash there unless the error already has a digest,
// so errors the boundary must tell apart carry their own: a fixed kind and the request's id.
// This module is imported by the (client) error boundaries: no server code here.

const DATABASE_UNAVAILABLE = "PAYDESK_DATABASE_UNAVAILABLE";

export function databaseUnavailableDigest(requestId: string | undefined): string {
  return requestId ? `${DATABASE_UNAVAILABLE};${requestId}` : DATABASE_UNAVAILABLE;
}

export type ErrorReference = {
  kind: "database-unavailable" | "unexpected";
  /** The failing request's id, when the digest carries it. */
  requestId?: string;
  /** Next's hash of the error, for errors without a digest of ours; server logs carry it too. */
  digest?: string;
};

export function readErrorDigest(digest: unknown): ErrorReference {
  if (typeof digest !== "string" || digest === "") return { kind: "unexpected" };
  const [kind, requestId] = digest.split(";");
  if (kind === DATABASE_UNAVAILABLE) {
    return { kind: "database-unavailable", ...(requestId && isUuid(requestId) ? { requestId } : {}) };
  }
  return { kind: "unexpected", digest };
}
