import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import {
  BALANCE_AMOUNT,
  merchantPatchSchema,
  seedSchema,
  statusMoveSchema,
  type MerchantPatch,
} from "./control-schemas";
import { faultsSchema } from "./faults";
import { readBody, sendHtml, sendJson } from "./http";
import { numberText, parseLossless } from "./json";
import { isStatus } from "./lifecycle";
import { money, toWire } from "./money";
import { operationWire } from "./operation-view";
import { controlPage } from "./pages";
import type { Platform } from "./platform";
import type { MerchantState } from "./state";
import type { MerchantSettings } from "./types";

/** The platform staff's side, under /__sandbox/ (see sandbox/README.md). Plain JSON, no envelope. */

class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export function merchantView(merchant: MerchantState): Record<string, unknown> {
  return {
    ...merchant.settings,
    token: merchant.token,
    balance: { available: toWire(merchant.available), reserved: toWire(merchant.reserved) },
    operations: merchant.operations.length,
    credits: merchant.credits,
  };
}

function parseBody<T>(text: string, schema: z.ZodType<T>): T {
  let raw: unknown;
  try {
    raw = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw new ControlError(400, "body is not valid JSON");
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ControlError(400, "invalid body", z.treeifyError(parsed.error));
  return parsed.data;
}

function findMerchant(platform: Platform, id: string): MerchantState {
  const merchant = platform.state.merchant(id);
  if (merchant === undefined) throw new ControlError(404, `unknown merchant '${id}'`);
  return merchant;
}

function applyPatch(settings: MerchantSettings, patch: MerchantPatch): MerchantSettings {
  return {
    ...settings,
    ...patch,
    tariff: { ...settings.tariff, ...patch.tariff },
    commission: { ...settings.commission, ...patch.commission },
    randomization: { ...settings.randomization, ...patch.randomization },
    otherRates: { ...settings.otherRates, ...patch.otherRates },
    detailsPoolOverrides: { ...settings.detailsPoolOverrides, ...patch.detailsPoolOverrides },
    formDefaults: { ...settings.formDefaults, ...patch.formDefaults },
  };
}

function creditBody(text: string): { amount: string; note: string } {
  let raw: unknown;
  try {
    raw = parseLossless(text);
  } catch {
    throw new ControlError(400, "body is not valid JSON");
  }
  const record = (raw ?? {}) as Record<string, unknown>;
  const amount = typeof record.amount === "string" ? record.amount : numberText(record.amount);
  if (amount === undefined || !BALANCE_AMOUNT.test(amount) || money(amount).isZero()) {
    throw new ControlError(
      400,
      'amount must be a non-zero decimal with at most 4 decimals, e.g. "1000.5" or "-20"',
    );
  }
  return { amount, note: typeof record.note === "string" ? record.note : "control credit" };
}

type ControlRoute = [
  method: string,
  pattern: RegExp,
  run: (platform: Platform, params: string[], body: string, query: URLSearchParams) => unknown,
];

const ROUTES: ControlRoute[] = [
  ["GET", /^\/merchants$/, (platform) => [...platform.state.merchants.values()].map(merchantView)],
  [
    "PATCH",
    /^\/merchants\/([^/]+)$/,
    (platform, [id = ""], body) => {
      const merchant = findMerchant(platform, id);
      merchant.settings = applyPatch(merchant.settings, parseBody(body, merchantPatchSchema));
      platform.changed();
      return merchantView(merchant);
    },
  ],
  [
    "POST",
    /^\/merchants\/([^/]+)\/balance$/,
    (platform, [id = ""], body) => {
      const merchant = findMerchant(platform, id);
      const { amount, note } = creditBody(body);
      if (merchant.available.plus(amount).isNegative()) {
        throw new ControlError(
          409,
          `debit of ${amount} exceeds the available balance ${toWire(merchant.available)}`,
        );
      }
      platform.credit(merchant, amount, note);
      return merchantView(merchant);
    },
  ],
  [
    "GET",
    /^\/operations$/,
    (platform, _params, _body, query) => {
      const merchant = findMerchant(platform, query.get("merchant") ?? "demo");
      const limit = Math.min(1000, Math.max(1, Number(query.get("limit") ?? 100) || 100));
      return merchant.operations.slice(-limit).reverse().map(internalView);
    },
  ],
  ["GET", /^\/operations\/([^/]+)$/, (platform, [id = ""]) => internalView(findOperation(platform, id))],
  [
    "POST",
    /^\/operations\/([^/]+)\/status$/,
    (platform, [id = ""], body) => {
      const op = findOperation(platform, id);
      const { status } = parseBody(body, statusMoveSchema);
      if (!isStatus(status)) throw new ControlError(400, `unknown status '${status}'`);
      const moved = platform.moveStatus(op, status);
      if (!moved.ok) throw new ControlError(409, moved.reason, { from: op.status, to: status });
      return operationWire(op);
    },
  ],
  [
    "GET",
    /^\/webhooks$/,
    (platform, _params, _body, query) => platform.webhooks.deliveries(query.get("operationId")),
  ],
  ["GET", /^\/faults$/, (platform) => platform.faults.config],
  [
    "PUT",
    /^\/faults$/,
    (platform, _params, body) => {
      platform.faults.set(parseBody(body, faultsSchema));
      return platform.faults.config;
    },
  ],
  [
    "DELETE",
    /^\/faults$/,
    (platform) => {
      platform.faults.clear();
      return platform.faults.config;
    },
  ],
  [
    "POST",
    /^\/seed$/,
    (platform, _params, body) => {
      const request = parseBody(body, seedSchema);
      const merchant = findMerchant(platform, request.merchant);
      const started = performance.now();
      const created = platform.seed(merchant, request.count, request.days, request.seed);
      return {
        merchant: merchant.settings.id,
        created,
        total: merchant.operations.length,
        durationMs: Math.round(performance.now() - started),
      };
    },
  ],
  [
    "POST",
    /^\/reset$/,
    (platform) => {
      platform.resetToDefaults();
      return [...platform.state.merchants.values()].map(merchantView);
    },
  ],
  [
    "GET",
    /^\/requests$/,
    (platform, _params, _body, query) =>
      platform.requests.find(query.get("traceID"), Math.max(1, Number(query.get("limit") ?? 100) || 100)),
  ],
];

function findOperation(platform: Platform, id: string) {
  const op = platform.state.operations.get(id.toLowerCase());
  if (op === undefined) throw new ControlError(404, `unknown operation '${id}'`);
  return op;
}

/** The operation with the fields the platform keeps to itself (merchant, mode, recipient, client data). */
function internalView(op: ReturnType<typeof findOperation>): Record<string, unknown> {
  const { details: _details, recipient, client, mode, origin, merchantId, webHook, form, paymentMethod } = op;
  return { ...operationWire(op), merchantId, paymentMethod, mode, origin, webHook, form, recipient, client };
}

export async function handleControl(
  platform: Platform,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const path = url.pathname.slice("/__sandbox".length).replace(/\/+$/, "");
  if (path === "" && req.method === "GET") {
    sendHtml(res, 200, controlPage(platform, url.searchParams.get("merchant") ?? "demo"));
    return;
  }
  const body = await readBody(req);
  const matching = ROUTES.filter(([, pattern]) => pattern.test(path));
  const route = matching.find(([method]) => method === req.method);
  if (route === undefined) {
    sendJson(res, matching.length > 0 ? 405 : 404, {
      error: matching.length > 0 ? "method not allowed" : "no such control endpoint",
    });
    return;
  }
  const [, pattern, run] = route;
  const params = (pattern.exec(path) ?? []).slice(1).map((value) => decodeURIComponent(value));
  try {
    sendJson(res, 200, run(platform, params, body, url.searchParams));
  } catch (error) {
    if (!(error instanceof ControlError)) throw error;
    sendJson(res, error.status, { error: error.message, details: error.details });
  }
}
