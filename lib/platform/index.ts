import "server-only";

export { createPlatformClient } from "./client";
export type {
  BalanceResult,
  BanksResult,
  MaybeOperationResult,
  OperationPage,
  OperationResult,
  OperationsResult,
  PaymentFormResponse,
  PlatformClient,
  PlatformClientOptions,
  Traced,
} from "./client";
export { DEFAULT_RETRY, DEFAULT_TIMEOUT_MS } from "./http";
export type { CallContext, RetryOptions } from "./http";
export * from "./errors";
export type { Dialect, NormalisedEnvelope } from "./envelope";
export { readEnvelope } from "./envelope";
export * from "./recorder";
export * from "./schemas";
export * from "./requests";
export * from "./payment-methods";
export * from "./webhook-body";
export * from "./amounts";
export { parsePlatformTimestamp } from "./timestamps";
export type { RawJson } from "./wire";
