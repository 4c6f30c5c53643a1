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
