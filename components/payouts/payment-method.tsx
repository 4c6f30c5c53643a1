import { useTranslations } from "next-intl";

/**
 * A pay-out method by its name in the reader's language, with the platform's value beside it
 * ("На карту · toCard"); a method without a name (a mono-bank pair not in the catalog) shows the value.
 */
export function PaymentMethodName({ method }: { method: string }) {
  const t = useTranslations("payouts");
  const key = `methods.${method}` as "methods.toCard";
  if (!t.has(key)) return <span className="font-mono">{method}</span>;
  return (
    <span>
      {t(key)} <span className="font-mono text-xs text-zinc-500">· {method}</span>
    </span>
  );
}
