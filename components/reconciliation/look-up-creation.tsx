"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { ActionButton } from "@/components/ui/action-button";
import { lookUpGivenUpAction } from "@/lib/actions/reconcile";

/** Looks a given-up creation up on the platform; the page reloads when it was confirmed. */
export function LookUpCreation({ idTransactionMerchant }: { idTransactionMerchant: string }) {
  const t = useTranslations("reconciliation.unanswered");
  const router = useRouter();
  return (
    <ActionButton
      label={t("lookUp")}
      pendingLabel={t("lookingUp")}
      variant="secondary"
      resultTestId="look-up-result"
      act={async () => {
        const r = await lookUpGivenUpAction({ idTransactionMerchant });
        if (r.ok && r.outcome === "confirmed") setTimeout(() => router.refresh(), 1500);
        return { ok: r.ok && r.outcome === "confirmed", text: r.message };
      }}
    />
  );
}
