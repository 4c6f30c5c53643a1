import { useTranslations } from "next-intl";
import { statusLabel } from "@/components/operations/labels";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { OperationStatus } from "@/lib/platform/schemas";

const tones: Record<OperationStatus, BadgeTone> = {
  precreated: "grey",
  created: "sky",
  booking: "violet",
  pending_retry: "amber",
  in_progress: "indigo",
  success: "green",
  failed: "red",
};

export function StatusBadge({ status }: { status: OperationStatus }) {
  const t = useTranslations("statuses");
  return (
    <Badge tone={tones[status]} testId="status-badge">
      {statusLabel(t, status)}
    </Badge>
  );
}
