import { randomUUID } from "node:crypto";
import { isKnownBank, LEGACY_BANK_SYNONYMS } from "./banks";
import { success, warning, type ApiResult } from "./envelope";
import { clientRateExceeded, dummyClientReason, recordClientCreation } from "./fraud";
import { payoutRequirement } from "./ledger";
import { currencyOfMethod } from "./methods";
import { computeAmounts, fixed4, money, toWire } from "./money";
import { operationWire } from "./operation-view";
import type { Platform } from "./platform";
import type { MerchantState } from "./state";
import type { Direction, FormUrls, MerchantSettings, Operation, PaymentDetails, Status } from "./types";
import type { CreationKind, CreationRequest } from "./validation";

/**
 * Creation calls (POST /host2host/payin, /host2host/payout, /paymentform/prepare, /paymentform/full).
 * Checks after validation, in this order: duplicateIdentifier, noSuitableTariffForRequest, fraud (dummy
 * client data, then client rate), notEnoughMoneyOnBalance (pay-out), noPaymentDetailsAvailable (pay-in).
 */

export interface CreationOutcome {
  result: ApiResult;
  operation?: Operation;
}

export function linkPaymentForm(baseUrl: string, op: Operation): string {
  return op.paymentMethod === "ecom" ? `${baseUrl}/3ds/${op.id}` : `${baseUrl}/payment/${op.id}`;
}

function randomizedAmount(merchant: MerchantState, amount: string, direction: Direction): string {
  const { enabled, maxAdd } = merchant.settings.randomization;
  if (!enabled || direction === "payOut") return amount;
  const maxKopecks = Math.max(1, money(maxAdd).times(100).floor().toNumber());
  const addKopecks = 1 + Math.floor(Math.random() * maxKopecks);
  return toWire(money(amount).plus(money(addKopecks).dividedBy(100)));
}

export function createOperation(
  platform: Platform,
  merchant: MerchantState,
  request: CreationRequest,
  baseUrl: string,
): CreationOutcome {
  const settings = merchant.settings;
  const direction: Direction = request.kind === "payout" ? "payOut" : "payIn";
  const nowMs = platform.nowMs();
  if (merchant.byTransactionId.has(request.idTransactionMerchant)) {
    return {
      result: warning(
        "duplicateIdentifier",
        `Operation with idTransactionMerchant '${request.idTransactionMerchant}' already exists`,
      ),
    };
  }
  const tariffMethods = direction === "payIn" ? settings.tariff.payIn : settings.tariff.payOut;
  if (
    request.paymentMethod !== null
      ? !tariffMethods.includes(request.paymentMethod)
      : tariffMethods.length === 0
  ) {
    const what =
      request.paymentMethod === null
        ? "No pay-in method is"
        : `Payment method '${request.paymentMethod}' is not`;
    return {
      result: warning(
        "noSuitableTariffForRequest",
        `${what} available in the merchant's tariff for ${direction}`,
      ),
    };
  }
  const dummy = dummyClientReason(request.client, request.clientDateCreatedMs, nowMs);
  if (dummy !== undefined) return { result: warning("fraud", `Rejected by anti-fraud: ${dummy}`) };
  if (clientRateExceeded(merchant, request.client.clientID, nowMs)) {
    return {
      result: warning(
        "fraud",
        `Rejected by anti-fraud: client rate exceeded (${settings.fraudRatePerMinute} creations per minute)`,
      ),
    };
  }
  const method = request.paymentMethod;
  const currency =
    method === null ? settings.paymentCurrency : currencyOfMethod(method, settings.paymentCurrency);
  const rate = currency === settings.paymentCurrency ? settings.rate : settings.otherRates[currency];
  if (rate === undefined) {
    return { result: warning("noSuitableTariffForRequest", `No exchange rate configured for ${currency}`) };
  }
  const amountRandomized = randomizedAmount(merchant, request.amount, direction);
  const commission = direction === "payIn" ? settings.commission.payIn : settings.commission.payOut;
  const figures = computeAmounts(amountRandomized, commission, rate);
  if (direction === "payOut") {
    const required = payoutRequirement(figures);
    if (merchant.available.lt(required)) {
      const currencyBalance = settings.balanceCurrency;
      const message = `Not enough money on balance: required ${fixed4(required)} ${currencyBalance}, available ${fixed4(merchant.available)} ${currencyBalance}`;
      return { result: warning("notEnoughMoneyOnBalance", message) };
    }
  }
  let details: PaymentDetails | null = null;
  if (direction === "payIn" && method !== null) {
    details = merchant.pools.reserve(method) ?? null;
    if (details === null)
      return {
        result: warning("noPaymentDetailsAvailable", `No payment details available for method '${method}'`),
      };
  }
  const recipient = request.recipient;
  const op: Operation = {
    id: randomUUID(),
    merchantId: settings.id,
    dateAdded: nowMs,
    dateUpdated: nowMs,
    typeOperation: direction,
    status: initialStatus(request.kind, settings),
    idTransactionMerchant: request.idTransactionMerchant,
    paymentMethod: method,
    amountInitial: request.amount,
    amountRandomized,
    amount: amountRandomized,
    currency,
    ...figures,
    details,
    recipient:
      recipient === null
        ? null
        : {
            ...recipient,
            bankName: LEGACY_BANK_SYNONYMS[recipient.bankName] ?? recipient.bankName,
            bankKnown: isKnownBank(recipient.bankName),
          },
    mode: request.kind === "payin" || request.kind === "payout" ? "h2h" : request.kind,
    origin: "api",
    webHook: request.webHook,
    form:
      request.kind === "prepare" || request.kind === "full"
        ? mergeFormUrls(request.form, settings.formDefaults)
        : null,
    client: request.client,
  };
  platform.state.insertOperation(op);
  recordClientCreation(merchant, request.client.clientID, nowMs);
  platform.notifyCreated(op);
  const data =
    op.form === null
      ? operationWire(op, true)
      : { ...operationWire(op, true), linkPaymentForm: linkPaymentForm(baseUrl, op) };
  return { result: success(data), operation: op };
}

function mergeFormUrls(given: FormUrls, defaults: FormUrls): FormUrls {
  return {
    redirectGeneralURL: given.redirectGeneralURL ?? defaults.redirectGeneralURL,
    redirectSuccessURL: given.redirectSuccessURL ?? defaults.redirectSuccessURL,
    redirectFailURL: given.redirectFailURL ?? defaults.redirectFailURL,
  };
}

/** The end client picks a method on the prepare form: details are reserved and the operation goes created. */
export function selectFormMethod(
  platform: Platform,
  op: Operation,
  method: string,
): { ok: true } | { ok: false; reason: string } {
  if (op.status !== "precreated")
    return { ok: false, reason: "A method was already selected for this operation" };
  const merchant = platform.state.requireMerchant(op.merchantId);
  const sameCurrency = currencyOfMethod(method, merchant.settings.paymentCurrency) === op.currency;
  if (!merchant.settings.tariff.payIn.includes(method) || !sameCurrency)
    return { ok: false, reason: `Method '${method}' is not available` };
  const details = merchant.pools.reserve(method);
  if (details === undefined)
    return { ok: false, reason: `No payment details available for '${method}', choose another method` };
  platform.state.update(op, (target) => {
    target.paymentMethod = method;
    target.details = details;
    target.status = "created";
    target.dateUpdated = Math.max(platform.nowMs(), target.dateAdded);
  });
  platform.notifyCreated(op);
  return { ok: true };
}

/**
 * Spec: a creation answers `created` (`precreated` for a prepared form). Wire notes: a merchant on the
 * nested dialect gets pay-ins (h2h and the full form) already `in_progress`; pay-outs and a prepared
 * form keep the spec's status (a prepared form waits for the end client to pick a method).
 */
function initialStatus(kind: CreationKind, settings: MerchantSettings): Status {
  if (kind === "prepare") return "precreated";
  if (settings.dialect === "nested" && (kind === "payin" || kind === "full")) return "in_progress";
  return "created";
}
