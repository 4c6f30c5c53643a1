import { useTranslations } from "next-intl";
import { toneBadge } from "@/components/ui/badge";
import type { PayoutRequestStatus } from "@/lib/payouts/state";

function usePayoutStatusLabel() {
  const t = useTranslations("payouts.statuses");
  return (status: PayoutRequestStatus) => t(status);
}

const PayoutStatusBadgeOf = toneBadge<PayoutRequestStatus>(
  {
    draft: "grey",
    awaiting_approval: "amber",
    approved: "sky",
    submitting: "indigo",
    submitted: "green",
    rejected: "red",
    cancelled: "darkGrey",
    failed_to_submit: "red",
  },
  "payout-status",
  usePayoutStatusLabel,
);

export function PayoutStatusBadge({ status }: { status: PayoutRequestStatus }) {
  return <PayoutStatusBadgeOf value={status} />;
}
