import { publicBanks } from "./banks";
import { createOperation, type CreationOutcome } from "./creation";
import { success, warning, type ApiResult } from "./envelope";
import { num } from "./json";
import { money, toWire } from "./money";
import { operationWire } from "./operation-view";
import type { Platform } from "./platform";
import type { MerchantState } from "./state";
import { FieldError, isUuid, validateCreation, validateListRequest, type CreationKind } from "./validation";

/** Handlers of the Merchant API endpoints ("Endpoints"); each returns the envelope's content. */

export interface ApiContext {
  platform: Platform;
  merchant: MerchantState;
  body: unknown;
  params: string[];
  baseUrl: string;
}

function invalid(error: unknown): ApiResult {
  if (error instanceof FieldError) return warning("invalidRequestParameters", error.message);
  throw error;
}

export function create(kind: CreationKind, ctx: ApiContext): CreationOutcome {
  try {
    const request = validateCreation(ctx.body, kind);
    return createOperation(ctx.platform, ctx.merchant, request, ctx.baseUrl);
  } catch (error) {
    return { result: invalid(error) };
  }
}

function notFound(id: string): ApiResult {
  return warning("invalidRequestParameters", `Operation '${id}' not found`);
}

export function readByPlatformId(ctx: ApiContext, payInOnly: boolean): ApiResult {
  const id = ctx.params[0] ?? "";
  if (!isUuid(id))
    return warning(
      "invalidRequestParameters",
      `Field 'idPlatform': must be a UUID, operation '${id}' not found`,
    );
  const op = ctx.platform.state.operations.get(id.toLowerCase());
  if (op === undefined || op.merchantId !== ctx.merchant.settings.id) return notFound(id);
  if (payInOnly && op.typeOperation !== "payIn") return notFound(id);
  // Wire notes: a pay-in read back by id may come without the paymentDetailsData key.
  return success(operationWire(op, false, ctx.merchant.settings.dialect === "nested"));
}

export function readByMerchantId(ctx: ApiContext): ApiResult {
  const op = ctx.merchant.byTransactionId.get(ctx.params[0] ?? "");
  return success(op === undefined ? [] : [operationWire(op)]);
}

export function list(ctx: ApiContext): ApiResult {
  try {
    const { skip, take } = validateListRequest(ctx.body, ctx.merchant.settings.maxTake);
    const operations = ctx.merchant.operations;
    const total = operations.length;
    const page: Array<Record<string, unknown>> = [];
    for (let index = total - 1 - skip; index >= 0 && page.length < take; index--) {
      const op = operations[index];
      if (op !== undefined) page.push(operationWire(op));
    }
    return success(page, total);
  } catch (error) {
    return invalid(error);
  }
}

export function balance(ctx: ApiContext): ApiResult {
  const { settings, available, lastSuccess } = ctx.merchant;
  const rate = lastSuccess === null ? money(0) : money(lastSuccess.rate);
  return success({
    amountInCurrencyBalance: num(toWire(available)),
    currencyBalance: settings.balanceCurrency,
    amountInCurrencyPayment: num(toWire(available.times(rate))),
    currencyPayment: settings.paymentCurrency,
    exchangeRate: num(toWire(rate)),
  });
}

export function bankList(): ApiResult {
  return success(publicBanks());
}
