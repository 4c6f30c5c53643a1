import { useTranslations } from "next-intl";
import { toneBadge } from "@/components/ui/badge";
import type { WebhookOutcome } from "@/lib/generated/prisma/enums";

function useOutcomeLabel() {
  const t = useTranslations("webhooks.outcome");
  return (outcome: WebhookOutcome) => t(outcome);
}

const OutcomeBadgeOf = toneBadge<WebhookOutcome>(
  {
    received: "sky",
    applied: "green",
    duplicate: "grey",
    stale: "grey",
    rejected: "red",
    malformed: "red",
    disagreement: "amber",
    failed: "red",
  },
  "outcome-badge",
  useOutcomeLabel,
);

export function OutcomeBadge({ outcome }: { outcome: WebhookOutcome }) {
  return <OutcomeBadgeOf value={outcome} />;
}
