/**
 * Exports that hold a connection of the app's one pool until the client has downloaded them to the end
 * (the operations CSV streams a COPY, a statement export reads in one snapshot transaction). The pool is
 * small and waits for a free connection without a timeout: one user opening many of them would stall
 * every other query of the app. So each user runs EXPORTS_PER_USER of them at a time, per process.
 */
import "server-only";
import { translatorFor } from "@/lib/auth/translator";
import { createInFlightLimit } from "@/lib/http/in-flight-limit";

export const EXPORTS_PER_USER = 2;
const RETRY_AFTER_SECONDS = 30;

const slots = createInFlightLimit(EXPORTS_PER_USER);

/**
 * Answers with `start` in one of the user's export slots, or 429 when they are all taken. The slot
 * is freed when the body has been read to the end, has failed or was cancelled; at once for an
 * answer that is not a download (an error, no body) or when `start` throws.
 */
export async function inExportSlot(userId: string, start: () => Promise<Response>): Promise<Response> {
  const release = slots.acquire(userId);
  if (!release) return tooManyExports();
  let response: Response;
  try {
    response = await start();
  } catch (error) {
    release();
    throw error;
  }
  if (!response.ok || !response.body) {
    release();
    return response;
  }
  return new Response(releasedAtEnd(response.body, release), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

async function tooManyExports(): Promise<Response> {
  const t = await translatorFor("errors");
  return Response.json(
    { ok: false, code: "too_many_exports", message: t("exportsInProgress", { limit: EXPORTS_PER_USER }) },
    { status: 429, headers: { "retry-after": String(RETRY_AFTER_SECONDS) } },
  );
}

/** The same bytes, pulled through; `release` runs once the stream has ended, either way. */
function releasedAtEnd(body: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await reader.read();
          if (next.done) {
            release();
            controller.close();
          } else controller.enqueue(next.value);
        } catch (error) {
          release();
          controller.error(error);
        }
      },
      async cancel(reason) {
        try {
          await reader.cancel(reason);
        } finally {
          release();
        }
      },
    },
    { highWaterMark: 0 },
  );
}
