import { writeJson } from "./json";
import type { Dialect } from "./types";

/** Response envelopes of both dialects ("Response envelope" of the spec, wire notes "Response envelope"). */

export type ErrorCode =
  | "duplicateIdentifier"
  | "noSuitableTariffForRequest"
  | "noPaymentDetailsAvailable"
  | "fraud"
  | "notEnoughMoneyOnBalance"
  | "invalidRequestParameters"
  | "internalError";

export type ApiResult =
  | { kind: "success"; data: unknown; totalNumberRecords?: number }
  | { kind: "warning"; codeError: ErrorCode; message: string }
  | { kind: "authError"; codeError: ErrorCode; message: string };

export function success(data: unknown, totalNumberRecords?: number): ApiResult {
  return { kind: "success", data, totalNumberRecords };
}

export function warning(codeError: ErrorCode, message: string): ApiResult {
  return { kind: "warning", codeError, message };
}

/** The platform's generic failure (wire notes: `codeErrorExt` `internalError`); nothing was applied. */
export const INTERNAL_ERROR: ApiResult = {
  kind: "warning",
  codeError: "internalError",
  message: "An internal error occurred, try again later",
};

export const AUTH_ERROR: ApiResult = {
  kind: "authError",
  codeError: "internalError",
  message: "user data not found",
};

/** HTTP status: warnings travel with 200 (as seen on the wire), token errors with 401. */
export function httpStatusOf(result: ApiResult): number {
  return result.kind === "authError" ? 401 : 200;
}

/** The text a nested-dialect merchant with `literalRequestId` gets as `x-request-id` (wire notes). */
export const LITERAL_REQUEST_ID = "uuid";

export function renderEnvelope(
  result: ApiResult,
  traceID: string,
  dialect: Dialect,
  literalRequestId = false,
): string {
  return dialect === "nested"
    ? writeJson(nestedEnvelope(result, literalRequestId ? LITERAL_REQUEST_ID : traceID))
    : writeJson(specEnvelope(result, traceID));
}

function specEnvelope(result: ApiResult, traceID: string): Record<string, unknown> {
  if (result.kind === "success") {
    return { status: "Success", data: result.data, totalNumberRecords: result.totalNumberRecords, traceID };
  }
  const status = result.kind === "authError" ? "AuthError" : "Warning";
  return { status, data: null, codeError: result.codeError, message: result.message, traceID };
}

/** Coarse class of the nested dialect's `codeError`; the specific code goes to `codeErrorExt`. */
function coarseClass(code: ErrorCode): string {
  if (code === "invalidRequestParameters") return "validationError";
  if (code === "internalError") return "internalError";
  return "none";
}

function nestedEnvelope(result: ApiResult, traceID: string): Record<string, unknown> {
  if (result.kind === "success") {
    return {
      result: {
        status: "success",
        "x-request-id": traceID,
        codeError: "none",
        codeErrorExt: "none",
        message: "",
      },
      data: result.data,
      totalNumberRecords: result.totalNumberRecords ?? 0,
    };
  }
  return {
    result: {
      status: result.kind === "authError" ? "authError" : "warning",
      "x-request-id": traceID,
      codeError: coarseClass(result.codeError),
      codeErrorExt: result.codeError,
      message: result.message,
    },
    data: null,
    totalNumberRecords: 0,
  };
}
