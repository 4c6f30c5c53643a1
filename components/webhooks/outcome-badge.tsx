import { useTranslations } from "next-intl";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { WebhookOutcome } from "@/lib/generated/prisma/enums";

const tones: Record<WebhookOutcome, BadgeTone> = {
  received: "sky",
  applied: "green",
  duplicate: "grey",
  stale: "grey",
  rejected: "red",
  malformed: "red",
  disagreement: "amber",
  failed: "red",
};

export function OutcomeBadge({ outcome }: { outcome: WebhookOutcome }) {
  const t = useTranslations("webhooks.outcome");
  return (
    <Badge tone={tones[outcome]} testId="outcome-badge">
      {t(outcome)}
    </Badge>
  );
}
