/** Bounded log of what the sandbox received and answered (GET /__sandbox/requests). Tokens are never kept. */

export interface LoggedRequest {
  traceID: string;
  at: string;
  method: string;
  path: string;
  merchantId: string | null;
  requestBody: string;
  /** null when the connection was dropped by a fault. */
  httpStatus: number | null;
  responseBody: string | null;
  durationMs: number;
  fault: string | null;
}

export class RequestLog {
  private readonly entries: LoggedRequest[] = [];
  private start = 0;

  constructor(private readonly capacity = 10_000) {}

  add(entry: LoggedRequest): void {
    if (this.entries.length < this.capacity) {
      this.entries.push(entry);
      return;
    }
    this.entries[this.start] = entry;
    this.start = (this.start + 1) % this.capacity;
  }

  /** Entries for a traceID, or the latest `limit` entries (newest first) without one. */
  find(traceID: string | null, limit = 100): LoggedRequest[] {
    const ordered = [...this.entries.slice(this.start), ...this.entries.slice(0, this.start)].reverse();
    return traceID === null ? ordered.slice(0, limit) : ordered.filter((entry) => entry.traceID === traceID);
  }

  clear(): void {
    this.entries.length = 0;
    this.start = 0;
  }
}
