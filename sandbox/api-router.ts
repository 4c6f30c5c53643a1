import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import * as handlers from "./api-handlers";
import { merchantIdFromAuthorization } from "./auth";
import type { CreationOutcome } from "./creation";
import { AUTH_ERROR, INTERNAL_ERROR, httpStatusOf, renderEnvelope, type ApiResult } from "./envelope";
import { BodyTooLarge, dropConnection, isJsonContentType, problem, readBody, send, sleep } from "./http";
import { parseLossless } from "./json";
import type { Platform } from "./platform";
import type { LoggedRequest } from "./request-log";

/**
 * The Merchant API pipeline: route, faults (latency, error rate), authentication, JSON body,
 * handler, envelope in the merchant's dialect, request log, and commit-then-drop for creations.
 */

type Handler = (ctx: handlers.ApiContext) => ApiResult | CreationOutcome;

interface Route {
  method: "GET" | "POST";
  pattern: RegExp;
  handler: Handler;
  creates: boolean;
}

const ID = "([^/]+)";
const ROUTES: Route[] = [
  {
    method: "POST",
    pattern: /^\/host2host\/payin$/i,
    handler: (ctx) => handlers.create("payin", ctx),
    creates: true,
  },
  {
    method: "POST",
    pattern: /^\/host2host\/payout$/i,
    handler: (ctx) => handlers.create("payout", ctx),
    creates: true,
  },
  {
    method: "POST",
    pattern: /^\/paymentform\/prepare$/i,
    handler: (ctx) => handlers.create("prepare", ctx),
    creates: true,
  },
  {
    method: "POST",
    pattern: /^\/paymentform\/full$/i,
    handler: (ctx) => handlers.create("full", ctx),
    creates: true,
  },
  {
    method: "GET",
    pattern: new RegExp(`^/operation/operation/platform/payin/${ID}$`, "i"),
    handler: (ctx) => handlers.readByPlatformId(ctx, true),
    creates: false,
  },
  {
    method: "GET",
    pattern: new RegExp(`^/operation/operation/platform/${ID}$`, "i"),
    handler: (ctx) => handlers.readByPlatformId(ctx, false),
    creates: false,
  },
  {
    method: "GET",
    pattern: new RegExp(`^/operation/operation/merhcant/${ID}$`, "i"),
    handler: handlers.readByMerchantId,
    creates: false,
  },
  { method: "POST", pattern: /^\/operation\/operation\/list$/i, handler: handlers.list, creates: false },
  { method: "GET", pattern: /^\/balance$/i, handler: handlers.balance, creates: false },
  { method: "GET", pattern: /^\/masterdata\/bank\/list$/i, handler: handlers.bankList, creates: false },
];

function isOutcome(value: ApiResult | CreationOutcome): value is CreationOutcome {
  return "result" in value;
}

export async function handleApi(
  platform: Platform,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  baseUrl: string,
): Promise<void> {
  const traceID = randomUUID();
  const started = performance.now();
  const entry: LoggedRequest = {
    traceID,
    at: platform.options.now().toISOString(),
    method: req.method ?? "GET",
    path,
    merchantId: null,
    requestBody: "",
    httpStatus: null,
    responseBody: null,
    durationMs: 0,
    fault: null,
  };
  const finish = (status: number | null, body: string | null, fault: string | null = null): void => {
    Object.assign(entry, {
      httpStatus: status,
      responseBody: body,
      fault,
      durationMs: Math.round(performance.now() - started),
    });
    platform.requests.add(entry);
    if (status === null || body === null) dropConnection(res);
    else send(res, status, body);
  };

  try {
    entry.requestBody = await readBody(req);
  } catch (error) {
    if (error instanceof BodyTooLarge) return finish(413, problem(413, "Request body too large", traceID));
    throw error;
  }
  const pathOnly = path.replace(/\/+$/, "") || "/";
  const candidates = ROUTES.filter((route) => route.pattern.test(pathOnly));
  const route = candidates.find((candidate) => candidate.method === req.method);
  if (route === undefined) {
    return candidates.length > 0
      ? finish(405, problem(405, "Method Not Allowed", traceID))
      : finish(404, problem(404, "Not Found", traceID));
  }

  const faults = platform.faults.config;
  if (faults.latencyMs > 0) await sleep(faults.latencyMs);
  if (platform.faults.fires(faults.errorRate)) {
    return faults.errorMode === "drop"
      ? finish(null, null, "drop")
      : finish(500, problem(500, "An error occurred while processing your request.", traceID), "http500");
  }

  const merchantId = merchantIdFromAuthorization(platform.state.secret, req.headers.authorization);
  const merchant = merchantId === undefined ? undefined : platform.state.merchant(merchantId);
  if (merchant === undefined)
    return finish(httpStatusOf(AUTH_ERROR), renderEnvelope(AUTH_ERROR, traceID, "spec"));
  entry.merchantId = merchant.settings.id;
  const { dialect, literalRequestId = false } = merchant.settings;
  if (platform.faults.fires(faults.internalErrorRate)) {
    return finish(200, renderEnvelope(INTERNAL_ERROR, traceID, dialect, literalRequestId), "internalError");
  }

  let body: unknown = null;
  if (route.method === "POST") {
    if (!isJsonContentType(req.headers["content-type"]))
      return finish(415, problem(415, "Unsupported Media Type", traceID));
    if (entry.requestBody.trim() === "") {
      return finish(
        400,
        problem(400, "One or more validation errors occurred.", traceID, {
          "": ["A non-empty request body is required."],
        }),
      );
    }
    try {
      body = parseLossless(entry.requestBody);
    } catch (error) {
      const reason = error instanceof Error ? error.message : "invalid JSON";
      return finish(
        400,
        problem(400, "One or more validation errors occurred.", traceID, {
          $: [`The JSON value could not be converted: ${reason}`],
        }),
      );
    }
  }

  const params = (route.pattern.exec(pathOnly) ?? []).slice(1).map(safeDecode);
  const outcome = route.handler({ platform, merchant, body, params, baseUrl });
  const result = isOutcome(outcome) ? outcome.result : outcome;
  const rendered = renderEnvelope(result, traceID, dialect, literalRequestId);
  const committed = isOutcome(outcome) && outcome.operation !== undefined;
  if (route.creates && committed && platform.faults.fires(faults.commitThenDropRate)) {
    return finish(null, rendered, "commitThenDrop");
  }
  finish(httpStatusOf(result), rendered);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
