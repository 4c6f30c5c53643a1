import { formatMoney, formatRate } from "@/lib/money/format";

/** An amount with its currency, from a decimal string; an absent amount shows a dash. */
export function Money({ amount, currency }: { amount: string | null; currency: string | null }) {
  if (amount === null) return <span className="text-zinc-400">—</span>;
  return <span className="whitespace-nowrap tabular-nums">{formatMoney(amount, currency ?? "")}</span>;
}

/** "1 USDT = 95.5 RUB" when both currencies are known. */
export function Rate({ rate, from, to }: { rate: string | null; from?: string | null; to?: string | null }) {
  if (rate === null) return <span className="text-zinc-400">—</span>;
  return (
    <span className="whitespace-nowrap tabular-nums">
      {formatRate(rate, { from: from ?? undefined, to: to ?? undefined })}
    </span>
  );
}
