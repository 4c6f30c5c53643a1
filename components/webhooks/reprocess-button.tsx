"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { ActionButton, type ActionResult } from "@/components/ui/action-button";
import { reprocessWebhookAction } from "@/lib/actions/webhooks";

export function ReprocessButton({ id }: { id: string }) {
  const t = useTranslations("webhooks");
  const router = useRouter();
  const reprocess = async (): Promise<ActionResult> => {
    const r = await reprocessWebhookAction({ id });
    if (!r.ok) return { ok: false, text: r.message };
    router.refresh();
    return { ok: true, text: t("reprocess.queued", { outcome: t(`outcome.${r.previousOutcome}`) }) };
  };
  return <ActionButton label={t("reprocess.button")} pendingLabel={t("reprocess.queuing")} act={reprocess} />;
}
