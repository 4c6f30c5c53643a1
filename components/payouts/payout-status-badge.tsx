import { Badge, type BadgeTone } from "@/components/ui/badge";
import { STATUS_LABELS, type PayoutRequestStatus } from "@/lib/payouts/state";

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
  return (
    <Badge tone={tones[status]} testId="payout-status">
      {STATUS_LABELS[status]}
    </Badge>
  );
}
