import { useTranslations } from "next-intl";
import { statusLabel } from "@/components/operations/labels";
import { toneBadge } from "@/components/ui/badge";
import type { OperationStatus } from "@/lib/platform/schemas";

function useStatusLabel() {
  const t = useTranslations("statuses");
  return (status: OperationStatus) => statusLabel(t, status);
}

const StatusBadgeOf = toneBadge<OperationStatus>(
  {
    precreated: "grey",
    created: "sky",
    booking: "violet",
    pending_retry: "amber",
    in_progress: "indigo",
    success: "green",
    failed: "red",
  },
  "status-badge",
  useStatusLabel,
);

export function StatusBadge({ status }: { status: OperationStatus }) {
  return <StatusBadgeOf value={status} />;
}
