// The platform's list and by-id read for reconciliation tests.
import type { PlatformClient } from "@/lib/platform/client";
import type { Operation } from "@/lib/platform/schemas";

/**
 * The platform's list endpoint over an in-memory ledger, newest dateAdded first, with a hook per call;
 * and its read by id, each read's id kept in `readsById`.
 */
export class FakeList implements Pick<PlatformClient, "listOperations" | "getOperation"> {
  ops: Operation[] = [];
  calls = 0;
  readsById: string[] = [];
  beforeEachCall: (call: number) => void = () => {};
  add(op: Operation) {
    this.ops.push(op);
    this.ops.sort((a, b) => b.dateAdded.getTime() - a.dateAdded.getTime() || (a.id < b.id ? 1 : -1));
  }
  replace(op: Operation) {
    this.ops = this.ops.map((o) => (o.id === op.id ? op : o));
  }
  async listOperations({ skip, take }: { skip: number; take: number }) {
    this.beforeEachCall(++this.calls);
    return {
      operations: this.ops.slice(skip, skip + take),
      totalNumberRecords: this.ops.length,
      traceID: `list-${this.calls}`,
    };
  }
  async getOperation(id: string) {
    this.readsById.push(id);
    return { operation: this.ops.find((o) => o.id === id) ?? null, traceID: `get-${id}` };
  }
}
