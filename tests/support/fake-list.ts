// The platform's list endpoint for reconciliation tests.
import type { PlatformClient } from "@/lib/platform/client";
import type { Operation } from "@/lib/platform/schemas";

/** The platform's list endpoint over an in-memory ledger, newest dateAdded first, with a hook per call. */
export class FakeList implements Pick<PlatformClient, "listOperations"> {
  ops: Operation[] = [];
  calls = 0;
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
}
