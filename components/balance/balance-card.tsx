import Link from "next/link";
import { Money, Rate } from "@/components/money/money";
import type { CurrentBalance } from "@/lib/charts/current-balance";
import type { RateSource } from "@/lib/charts/queries";
import { formatInZone } from "@/lib/time/zone";

/** The current balance in both currencies, the rate and where the rate comes from. */
export function BalanceCard({ balance, rateSource }: { balance: CurrentBalance; rateSource: RateSource }) {
  return (
    <section
      className="grid gap-4 rounded-lg border border-zinc-200 bg-white p-4 sm:grid-cols-3 dark:border-zinc-800 dark:bg-zinc-900"
      data-testid="balance-card"
    >
      <div>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Balance ({balance.currencyBalance})</p>
        <p className="text-2xl font-semibold">
          <Money amount={balance.amountInCurrencyBalance} currency={balance.currencyBalance} />
        </p>
      </div>
      <div>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          In payment currency ({balance.currencyPayment})
        </p>
        <p className="text-2xl font-semibold">
          <Money amount={balance.amountInCurrencyPayment} currency={balance.currencyPayment} />
        </p>
      </div>
      <div className="space-y-1 text-sm">
        <p>
          Rate{" "}
          <Rate rate={balance.exchangeRate} from={balance.currencyBalance} to={balance.currencyPayment} />
        </p>
        <p className="text-zinc-600 dark:text-zinc-400">
          Informational: the platform takes it from the merchant&apos;s last successful operation
          {rateSource ? (
            <>
              {" "}
              (in the mirror:{" "}
              <Link href={`/operations/${rateSource.operationId}`} className="underline">
                {formatInZone(rateSource.dateAdded, "UTC")} UTC
              </Link>
              , rate <Rate rate={rateSource.exchangeRate} />)
            </>
          ) : (
            " (none mirrored yet)"
          )}
          .
        </p>
        <p className="text-xs text-zinc-500">
          Read {formatInZone(new Date(balance.fetchedAt), "UTC")} UTC · cached up to 5 s · traceID{" "}
          <span className="font-mono break-all">{balance.traceID ?? "—"}</span>
        </p>
      </div>
    </section>
  );
}
