import { useTranslations } from "next-intl";

/** What the platform answered a recorded call: the envelope or HTTP status and its error code. */
export function CallAnswer({
  call,
}: {
  call: { envelopeStatus: string | null; httpStatus: number | null; codeError: string | null };
}) {
  const t = useTranslations("operations.calls");
  if (!call.envelopeStatus && !call.httpStatus) return t("noAnswer");
  return (
    <span className="font-mono text-xs">
      {call.envelopeStatus ?? call.httpStatus}
      {call.codeError && ` · ${call.codeError}`}
    </span>
  );
}
