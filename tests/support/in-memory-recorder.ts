import type { ApiCallRecord, ApiCallRecorder } from "@/lib/platform/recorder";

/** Keeps records in memory (tests). */
export class InMemoryRecorder implements ApiCallRecorder {
  readonly calls: ApiCallRecord[] = [];
  record(call: ApiCallRecord): void {
    this.calls.push(call);
  }
  byTraceID(traceID: string): ApiCallRecord[] {
    return this.calls.filter((c) => c.traceID === traceID);
  }
  clear(): void {
    this.calls.length = 0;
  }
}

/** A successful GET's record, with what a test needs in place of the defaults. */
export function callRecord(overrides: Partial<ApiCallRecord> = {}): ApiCallRecord {
  return {
    method: "GET",
    path: "/balance",
    requestBody: null,
    responseBody: null,
    httpStatus: 200,
    envelopeStatus: "Success",
    codeError: null,
    message: null,
    traceID: null,
    latencyMs: 3,
    actorUserId: null,
    operationId: null,
    idTransactionMerchant: null,
    error: null,
    startedAt: new Date(),
    dialect: "spec",
    attempt: 1,
    ...overrides,
  };
}
