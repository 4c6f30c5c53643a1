import Link from "next/link";
import { Money, Rate } from "@/components/money/money";
import { StatusBadge } from "@/components/operations/status-badge";
import type { OperationColumn } from "@/lib/operations/list/columns";
import type { OperationListItem } from "@/lib/operations/list/present";
import { formatInZone } from "@/lib/time/zone";

const dash = <span className="text-zinc-400">—</span>;

/** One cell of the operations table. */
export function OperationCell({
  column,
  op,
  tz,
  balanceCurrency,
}: {
  column: OperationColumn;
  op: OperationListItem;
  tz: string;
  balanceCurrency: string | null;
}) {
  switch (column) {
    case "dateAdded":
      return (
        <Link
          href={`/operations/${op.id}`}
          className="whitespace-nowrap text-indigo-700 underline dark:text-indigo-300"
        >
          {formatInZone(new Date(op.dateAdded), tz)}
        </Link>
      );
    case "dateUpdated":
      return op.dateUpdated ? (
        <span className="whitespace-nowrap">{formatInZone(new Date(op.dateUpdated), tz)}</span>
      ) : (
        dash
      );
    case "typeOperation":
      return <span>{op.typeOperation === "payIn" ? "pay-in" : "pay-out"}</span>;
    case "status":
      return (
        <span className="flex items-center gap-1">
          <StatusBadge status={op.status} />
          {op.stuck && (
            <span title="No final status for too long" aria-label="stuck">
              ⚠
            </span>
          )}
        </span>
      );
    case "idTransactionMerchant":
      return <span className="break-all font-mono text-xs">{op.idTransactionMerchant}</span>;
    case "amount":
      return <Money amount={op.amount} currency={op.currency} />;
    case "amountComission":
      return <Money amount={op.amountComission} currency={op.currency} />;
    case "amountInCurrencyBalance":
      return <Money amount={op.amountInCurrencyBalance} currency={balanceCurrency} />;
    case "exchangeRate":
      return <Rate rate={op.exchangeRate} />;
    case "paymentMethod":
      return op.paymentMethod ? <span>{op.paymentMethod}</span> : dash;
    case "bankName":
      return op.bankName ? <span>{op.bankName}</span> : dash;
    case "number":
      return op.numberMasked ? <span className="font-mono text-xs">{op.numberMasked}</span> : dash;
    case "id":
      return (
        <Link
          href={`/operations/${op.id}`}
          className="font-mono text-xs text-indigo-700 underline dark:text-indigo-300"
        >
          {op.id}
        </Link>
      );
  }
}
