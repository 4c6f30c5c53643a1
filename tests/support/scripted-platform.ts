// A platform for createOnce (lib/operations/mirror/create-once.ts) that answers each method from its own
// script, in order, and records every call; and the errors a script throws.
import { randomUUID } from "node:crypto";
import { PlatformError, type PlatformErrorInit } from "@/lib/platform/errors";
import type { Operation } from "@/lib/platform/schemas";
import type { Creation, createOnce } from "@/lib/operations/mirror/create-once";

export type ScriptedMethod =
  | "createPayIn"
  | "createPayOut"
  | "preparePaymentForm"
  | "createFullPaymentForm"
  | "listOperations"
  | "getOperationsByMerchantIdDeprecated";
type Answer = () => unknown;

const METHODS = [
  "createPayIn",
  "createPayOut",
  "preparePaymentForm",
  "createFullPaymentForm",
  "listOperations",
  "getOperationsByMerchantIdDeprecated",
] as const;

export function scripted(script: Partial<Record<ScriptedMethod, Answer[]>>) {
  const calls: { method: ScriptedMethod; context: unknown }[] = [];
  const answer = (method: ScriptedMethod) => async (_request: unknown, context?: unknown) => {
    calls.push({ method, context });
    const next = script[method]?.shift();
    if (!next) throw new Error(`unexpected call: ${method}`);
    return next();
  };
  const platform = Object.fromEntries(METHODS.map((m) => [m, answer(m)])) as unknown as Parameters<
    typeof createOnce
  >[0];
  return { platform, calls };
}

export const failure =
  (init: Partial<PlatformErrorInit> & Pick<PlatformErrorInit, "kind" | "description">) => () => {
    throw new PlatformError({ method: "POST", path: "/host2host/payout", ...init });
  };

export const lost = (traceID: string) =>
  failure({ kind: "transport", description: "connection reset", traceID, outcomeUnknown: true });

export const created =
  (operation: Operation, traceID = "trace-created") =>
  () => ({ operation, traceID });

/** A pay-out creation with an id of its own. */
export function payoutCreation(amount = "1500.25"): Creation {
  return {
    kind: "payOut",
    request: {
      paymentMethod: "toCard",
      idTransactionMerchant: `po-${randomUUID()}`,
      amount,
      clientID: "client-7731",
      clientIP: "203.0.113.7",
      clientDateCreated: "2024-05-01T10:00:00.000Z",
      number: "4276380012345678",
      bankName: "Sberbank",
      nameMediator: "Ivan Petrov",
    },
  };
}
