import Link from "next/link";
import { useTranslations } from "next-intl";
import { PayoutForm } from "@/components/payouts/payout-form";

/** The new pay-out page: the form, or why it cannot be prepared (the bank directory unreadable). */
export function NewPayout({
  directory,
  methods,
  notInTariff,
  canOverrideDuplicate,
}: {
  directory: { banks: string[] } | { error: { traceID: string | null } };
  methods: string[];
  notInTariff: string[];
  canOverrideDuplicate: boolean;
}) {
  const t = useTranslations("payouts");
  const te = useTranslations("platformErrors");
  return (
    <section className="space-y-4">
      <div className="space-y-1">
        <Link href="/payouts" className="text-sm text-indigo-700 underline dark:text-indigo-300">
          ← {t("title")}
        </Link>
        <h1 className="text-2xl font-semibold">{t("newPayout")}</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("new.intro")}</p>
      </div>
      {"error" in directory ? (
        <p
          role="alert"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
        >
          {t("new.directoryUnavailable")} traceID {directory.error.traceID ?? te("noTraceID")}
        </p>
      ) : (
        <PayoutForm
          banks={directory.banks}
          methods={methods}
          notInTariff={notInTariff}
          canOverrideDuplicate={canOverrideDuplicate}
        />
      )}
    </section>
  );
}
