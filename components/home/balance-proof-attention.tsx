import Link from "next/link";
import { proofAttention } from "@/lib/ledger/proof";
import { getSettings } from "@/lib/settings/settings";
import { formatInZone } from "@/lib/time/zone";

/** Home page: a lasting difference between the ledger and the platform, and movements to annotate. */
export async function BalanceProofAttention() {
  const { balanceDifferenceMinutes } = await getSettings();
  const a = await proofAttention(balanceDifferenceMinutes);
  if (!a.differsSince && a.unannotatedMovements === 0) return null;
  return (
    <ul className="space-y-2 text-sm" aria-label="Balance proof" data-testid="attention-balance-proof">
      {a.differsSince && (
        <li className="rounded-lg border border-amber-400 bg-amber-50/50 p-3 dark:border-amber-600 dark:bg-amber-950/30">
          <Link href="/balance" className="underline">
            The ledger differs from the platform&apos;s balance since{" "}
            {formatInZone(new Date(a.differsSince), "UTC")} UTC
          </Link>
        </li>
      )}
      {a.unannotatedMovements > 0 && (
        <li className="rounded-lg border border-amber-400 bg-amber-50/50 p-3 dark:border-amber-600 dark:bg-amber-950/30">
          <Link href="/balance" className="underline">
            {a.unannotatedMovements} movement(s) outside operations to annotate
          </Link>
        </li>
      )}
    </ul>
  );
}
