import Link from "next/link";

/** An operation's id linking to its page; a dash when there is none. */
export function OperationLink({ id }: { id: string | null }) {
  if (!id) return "—";
  return (
    <Link href={`/operations/${id}`} className="underline">
      {id}
    </Link>
  );
}

/** A traceID linking to what the trace page finds for it; a dash when there is none. */
export function TraceLink({ traceID }: { traceID: string | null }) {
  if (!traceID) return "—";
  return (
    <Link href={`/trace?q=${encodeURIComponent(traceID)}`} className="underline">
      {traceID}
    </Link>
  );
}
