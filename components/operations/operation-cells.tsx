import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { paymentMethodLabel, typeLabel } from "@/components/operations/labels";
import { Money, Rate } from "@/components/money/money";
import { StatusBadge } from "@/components/operations/status-badge";
import type { OperationColumn } from "@/lib/operations/list/columns";
import type { OperationListItem } from "@/lib/operations/list/present";
import { formatDateTime } from "@/lib/time/zone";

const dash = <span className="text-zinc-400">—</span>;
const WARNING_SIGN = "\u26a0";

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
  const t = useTranslations("operations.table");
  const names = useTranslations("statuses");
  const locale = useLocale();
  switch (column) {
    case "dateAdded":
      return (
        <Link
          href={`/operations/${op.id}`}
          className="whitespace-nowrap text-indigo-700 underline dark:text-indigo-300"
        >
          {formatDateTime(new Date(op.dateAdded), tz, locale)}
        </Link>
      );
    case "dateUpdated":
      return op.dateUpdated ? (
        <span className="whitespace-nowrap">{formatDateTime(new Date(op.dateUpdated), tz, locale)}</span>
      ) : (
        dash
      );
    case "typeOperation":
      return <span>{typeLabel(names, op.typeOperation)}</span>;
    case "status":
      return (
        <span className="flex items-center gap-1">
          <StatusBadge status={op.status} />
          {op.stuck && (
            <span title={t("stuckTitle")} aria-label={t("stuckLabel")}>
              {WARNING_SIGN}
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
      return op.paymentMethod ? (
        <span title={op.paymentMethod}>{paymentMethodLabel(names, op.paymentMethod)}</span>
      ) : (
        dash
      );
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
