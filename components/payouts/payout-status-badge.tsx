import { useTranslations } from "next-intl";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { PayoutRequestStatus } from "@/lib/payouts/state";

const tones: Record<PayoutRequestStatus, BadgeTone> = {
  draft: "grey",
  awaiting_approval: "amber",
  approved: "sky",
  submitting: "indigo",
  submitted: "green",
  rejected: "red",
  cancelled: "darkGrey",
  failed_to_submit: "red",
};

export function PayoutStatusBadge({ status }: { status: PayoutRequestStatus }) {
  const t = useTranslations("payouts");
  return (
    <Badge tone={tones[status]} testId="payout-status">
      {t(`statuses.${status}`)}
    </Badge>
  );
}
