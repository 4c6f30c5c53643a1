"use client";
import { useTranslations } from "next-intl";
import { useReveal } from "@/components/recipients/use-reveal";
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
  const { revealed: number, controls } = useReveal(
    () => revealActions[target.type]({ id: target.id }),
    (r) => r.number,
    { reveal: t("reveal"), revealTitle: t("revealTitle") },
  );
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <span className="font-mono" data-testid="recipient-number">
        {number ?? masked}
      </span>
      {controls(canReveal)}
    </span>
  );
}
