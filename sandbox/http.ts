import type { IncomingMessage, ServerResponse } from "node:http";
import { writeJson } from "./json";

/** Small HTTP helpers for node:http. */

export const MAX_BODY_BYTES = 1_000_000;

export class BodyTooLarge extends Error {}

export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyTooLarge(`request body exceeds ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function send(
  res: ServerResponse,
  status: number,
  body: string,
  contentType = "application/json; charset=utf-8",
): void {
  res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, writeJson(value));
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  send(res, status, html, "text/html; charset=utf-8");
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, "content-length": 0 });
  res.end();
}

/** Destroys the connection without an answer (the "drop" faults). */
export function dropConnection(res: ServerResponse): void {
  res.socket?.destroy();
}

/**
 * Framework-style problem bodies (wire notes "HTTP status codes"): the platform answers some failures
 * with an RFC 9110 problem instead of the envelope.
 */
export function problem(
  status: number,
  title: string,
  traceID: string,
  errors?: Record<string, string[]>,
): string {
  const section: Record<number, string> = {
    400: "15.5.1",
    404: "15.5.5",
    405: "15.5.6",
    413: "15.5.14",
    415: "15.5.16",
    500: "15.6.1",
  };
  return writeJson({
    type: `https://tools.ietf.org/html/rfc9110#section-${section[status] ?? "15"}`,
    title,
    status,
    errors,
    traceId: `00-${traceID.replace(/-/g, "")}-${traceID.replace(/-/g, "").slice(0, 16)}-00`,
  });
}

export function isJsonContentType(header: string | undefined): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\b/i.test(header?.trim() ?? "");
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
