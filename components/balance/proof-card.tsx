import type { ProofStatus } from "@/lib/ledger/proof";
import { formatInZone } from "@/lib/time/zone";

const utc = (iso: string) => `${formatInZone(new Date(iso), "UTC")} UTC`;

/** The balance proof: the ledger's balance against GET /balance at the latest read. */
export function ProofCard({ proof }: { proof: ProofStatus }) {
  if (proof.state === "none") {
    return (
      <p className="text-sm text-zinc-500" data-testid="balance-proof">
        The ledger has not been compared with the platform yet (it is at the next balance read).
      </p>
    );
  }
  const matches = proof.state === "matches";
  return (
    <section
      data-testid="balance-proof"
      data-state={proof.state}
      data-difference={proof.difference}
      className={`rounded-lg border p-3 text-sm ${matches ? "border-emerald-300 bg-emerald-50/50 dark:border-emerald-800 dark:bg-emerald-950/30" : "border-amber-400 bg-amber-50/50 dark:border-amber-600 dark:bg-amber-950/30"}`}
    >
      <p className="font-medium">
        {matches
          ? "The ledger matches the platform"
          : `The ledger differs from the platform by ${proof.difference} ${proof.currency} since ${utc(proof.since ?? proof.checkedAt)}`}
      </p>
      <p className="text-zinc-600 dark:text-zinc-400">
        Platform {proof.platform} {proof.currency} · ledger {proof.ledger} {proof.currency} · compared{" "}
        {utc(proof.checkedAt)}
      </p>
      {!matches && (
        <p className="text-zinc-600 dark:text-zinc-400">
          {proof.inFlight.operations > 0 &&
            `${proof.inFlight.operations} pay-out(s) in flight hold ${proof.inFlight.held} ${proof.currency}; `}
          operations created since the last complete reconciliation (
          {proof.lastCompleteReconciliationAt ? utc(proof.lastCompleteReconciliationAt) : "none yet"}) may not
          be mirrored yet. What they do not explain is recorded as a movement outside operations.
        </p>
      )}
    </section>
  );
}
