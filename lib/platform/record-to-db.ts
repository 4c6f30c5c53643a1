import "server-only";
import { getDb } from "@/lib/db";
import type { ApiCallRecord, ApiCallRecorder } from "./recorder";
import { isUuid } from "@/lib/uuid";

/** Stores every platform call attempt in ApiCall: what support searches by traceID. */
export const databaseRecorder: ApiCallRecorder = {
  async record(call: ApiCallRecord) {
    await getDb().apiCall.create({
      data: {
        startedAt: call.startedAt,
        method: call.method,
        path: call.path,
        requestBody: call.requestBody,
        responseBody: call.responseBody,
        httpStatus: call.httpStatus,
        envelopeStatus: call.envelopeStatus,
        codeError: call.codeError,
        message: call.message,
        traceID: call.traceID,
        latencyMs: Math.round(call.latencyMs),
        error: call.error,
        dialect: call.dialect,
        actorUserId: call.actorUserId && isUuid(call.actorUserId) ? call.actorUserId : null,
        operationId: call.operationId && isUuid(call.operationId) ? call.operationId : null,
        idTransactionMerchant: call.idTransactionMerchant,
      },
    });
  },
};
