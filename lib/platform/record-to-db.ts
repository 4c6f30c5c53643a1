import "server-only";
import { poolQuery } from "@/lib/db";
import type { ApiCallRecord, ApiCallRecorder } from "./recorder";
import { isUuid } from "@/lib/uuid";

// Plain pg, prepared once per connection: every platform call is recorded, a webhook's read-back too.
const INSERT_CALL = `INSERT INTO "ApiCall" ("startedAt", method, path, "requestBody", "responseBody", "httpStatus",
    "envelopeStatus", "codeError", message, "traceID", "latencyMs", error, dialect, "actorUserId", "operationId",
    "idTransactionMerchant")
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::uuid, $15::uuid, $16)`;

// A read (GET) changes nothing on the platform: its record commits without waiting for the disk (the
// RETURNING sets that for the statement's own transaction). Whatever Paydesk does with what it read
// commits later, durably, and so flushes the record with it; a crash of PostgreSQL in between loses
// the record of a read whose result was never used. A POST's record waits for the disk.
const INSERT_READ = `${INSERT_CALL} RETURNING set_config('synchronous_commit', 'off', true)`;

/** Stores every platform call attempt in ApiCall: what support searches by traceID. */
export const databaseRecorder: ApiCallRecorder = {
  async record(call: ApiCallRecord) {
    const read = call.method === "GET";
    await poolQuery({
      name: read ? "api-call-insert-read" : "api-call-insert",
      text: read ? INSERT_READ : INSERT_CALL,
      values: [
        call.startedAt,
        call.method,
        call.path,
        call.requestBody,
        call.responseBody,
        call.httpStatus,
        call.envelopeStatus,
        call.codeError,
        call.message,
        call.traceID,
        Math.round(call.latencyMs),
        call.error,
        call.dialect,
        call.actorUserId && isUuid(call.actorUserId) ? call.actorUserId : null,
        call.operationId && isUuid(call.operationId) ? call.operationId : null,
        call.idTransactionMerchant,
      ],
    });
  },
};
