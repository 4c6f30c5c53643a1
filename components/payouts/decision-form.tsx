"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { useStepUp } from "@/components/auth/two-factor/step-up";
import { Button } from "@/components/ui/button";
import { TextArea } from "@/components/ui/field";
import { approvePayoutAction, rejectPayoutAction } from "@/lib/actions/payouts";
import { LIMITS } from "@/lib/payouts/limits";

type Outcome = { ok: boolean; text: string };

/**
 * Approve or reject with a comment (the server checks the approver is not the maker). Rejecting may be
 * open where approving is not (a disabled maker's request).
 */
export function DecisionForm({
  payoutId,
  canApprove,
  canReject,
}: {
  payoutId: string;
  canApprove: boolean;
  canReject: boolean;
}) {
  const canDecide = canApprove || canReject;
  const router = useRouter();
  const t = useTranslations("payouts.decision");
  const withStepUp = useStepUp();
  const [comment, setComment] = useState("");
  const [commentError, setCommentError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [pending, startTransition] = useTransition();

  const decide = (decision: "approve" | "reject") =>
    startTransition(async () => {
      setOutcome(null);
      setCommentError(null);
      const action = decision === "approve" ? approvePayoutAction : rejectPayoutAction;
      const r = await withStepUp(() => action({ id: payoutId, comment }));
      if (!r.ok) {
        const fieldErrors = "fieldErrors" in r ? r.fieldErrors : undefined;
        if (fieldErrors?.comment) setCommentError(fieldErrors.comment.join(" "));
        setOutcome({ ok: false, text: r.message });
        return;
      }
      // The last approval hands the pay-out to the worker; the page shows "sending…" and follows it.
      setOutcome({
        ok: true,
        text:
          decision === "reject"
            ? t("rejected")
            : r.queued === undefined
              ? t("approvedCount", { approvals: r.approvals, required: r.requiredApprovals })
              : r.queued
                ? t("approvedSending")
                : t("approvedLater"),
      });
      router.refresh();
    });

  // Stays mounted after the decision (the page refreshes without the inputs) so the outcome stays visible.
  if (!canDecide && !outcome) return null;
  return (
    <div className="space-y-3" data-testid="decision-form">
      {canDecide && (
        <>
          <TextArea
            label={t("comment")}
            name="decision-comment"
            value={comment}
            maxLength={LIMITS.comment}
            onChange={(e) => setComment(e.target.value)}
            errors={commentError === null ? undefined : [commentError]}
          />
          <div className="flex flex-wrap gap-2">
            {canApprove && (
              <Button type="button" onClick={() => decide("approve")} disabled={pending}>
                {t("approve")}
              </Button>
            )}
            {canReject && (
              <Button type="button" variant="secondary" onClick={() => decide("reject")} disabled={pending}>
                {t("reject")}
              </Button>
            )}
          </div>
        </>
      )}
      {outcome && (
        <div className="space-y-2">
          <p
            role="status"
            className={`text-sm ${outcome.ok ? "text-emerald-700 dark:text-emerald-300" : "text-red-700 dark:text-red-300"}`}
          >
            {outcome.text}
          </p>
        </div>
      )}
    </div>
  );
}
