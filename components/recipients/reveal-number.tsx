"use client";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { useStepUp } from "@/components/auth/two-factor/step-up";
import { revealRecipientNumberAction } from "@/lib/actions/operations";
import { revealPayoutRecipientNumberAction } from "@/lib/actions/payout-recipients";

/** Whose number it is: each has its own audited reveal action. */
export type RevealTarget = { type: "operation" | "payoutRequest"; id: string };

const revealActions = {
  operation: revealRecipientNumberAction,
  payoutRequest: revealPayoutRecipientNumberAction,
} satisfies Record<RevealTarget["type"], (input: { id: string }) => Promise<unknown>>;

/** The masked number, with a Reveal button for roles that may see it (each reveal is audited). */
export function RevealNumber({
  target,
  masked,
  canReveal,
}: {
  target: RevealTarget;
  masked: string;
  canReveal: boolean;
}) {
  const t = useTranslations("recipients");
  const [pending, startTransition] = useTransition();
  const withStepUp = useStepUp();
  const [number, setNumber] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reveal = () =>
    startTransition(async () => {
      const r = await withStepUp(() => revealActions[target.type]({ id: target.id }));
      if (r.ok) setNumber(r.number);
      else setError(r.message);
    });
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <span className="font-mono" data-testid="recipient-number">
        {number ?? masked}
      </span>
      {canReveal && number === null && (
        <button
          type="button"
          onClick={reveal}
          disabled={pending}
          className="text-sm text-indigo-700 underline dark:text-indigo-300"
          title={t("revealTitle")}
        >
          {t("reveal")}
        </button>
      )}
      {error && (
        <span role="alert" className="text-sm text-red-600">
          {error}
        </span>
      )}
    </span>
  );
}
