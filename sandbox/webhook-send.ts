import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";

/** One webhook POST: resolves with the HTTP status, or with an error text (timeout, refused, reset). */

export interface SendResult {
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
}

export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<SendResult> {
  const started = performance.now();
  const finish = (httpStatus: number | null, error: string | null): SendResult => ({
    httpStatus,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve(finish(null, "invalid URL"));
      return;
    }
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(
      target,
      {
        method: "POST",
        agent: false,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          ...headers,
        },
        timeout: timeoutMs,
        signal,
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(finish(res.statusCode ?? null, null)));
        res.on("error", (error) => resolve(finish(res.statusCode ?? null, error.message)));
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", (error) => resolve(finish(null, error.message)));
    req.end(body);
  });
}
