"use client";
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect } from "react";
import type { PayoutProgress } from "@/lib/payouts/queries";
import type { PayoutRequestStatus } from "@/lib/payouts/state";

const POLL_MS = 1_500;

/**
 * While the request is on its way to the platform (handed to the worker, or submitting) the page shows
 * "Sending…" and asks for its status every 1.5 s; when the status moves, the page is rendered again
 * (router.refresh) and shows the outcome: the operation, or the platform's refusal.
 */
export function PayoutSending({
  payoutId,
  status,
  sending,
}: {
  payoutId: string;
  status: PayoutRequestStatus;
  sending: boolean;
}) {
  const router = useRouter();
  const t = useTranslations("payouts.sending");
  const live = useQuery({
    queryKey: ["payout-progress", payoutId, status, sending],
    queryFn: async ({ signal }): Promise<PayoutProgress> => {
      const response = await fetch(`/api/payouts/${payoutId}/status`, { signal, cache: "no-store" });
      if (!response.ok) throw new Error(`pay-out status answered ${response.status}`);
      return (await response.json()) as PayoutProgress;
    },
    enabled: sending,
    refetchInterval: POLL_MS,
    staleTime: 0,
  });
  const moved = live.data !== undefined && (live.data.status !== status || live.data.sending !== sending);
  useEffect(() => {
    if (moved) router.refresh();
  }, [moved, router]);

  if (!sending) return null;
  return (
    <p
      role="status"
      data-testid="payout-sending"
      className="rounded-md bg-indigo-50 px-3 py-2 text-sm text-indigo-900 dark:bg-indigo-950 dark:text-indigo-200"
    >
      {status === "submitting" ? t("submitting") : t("approved")} {t("follows")}
    </p>
  );
}
