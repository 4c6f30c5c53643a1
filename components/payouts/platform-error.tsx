import { useTranslations } from "next-intl";
import type { ExplainedError } from "@/lib/payouts/errors";

/**
 * A platform refusal: our explanation in the reader's language, the platform's own message beside it
 * as it came (isolated, so a right-to-left override inside it cannot turn our text around), and the
 * traceID to give to the platform's support.
 */
export function PlatformErrorNotice({ error }: { error: ExplainedError }) {
  const t = useTranslations("platformErrors");
  return (
    <div
      role="alert"
      data-testid="platform-error"
      data-code={error.code}
      className="space-y-1 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
    >
      <p>{error.message}</p>
      {error.platformMessage && (
        <p data-testid="platform-message">
          {t.rich("platformSaid", {
            message: error.platformMessage,
            bdi: (chunks) => <bdi className="whitespace-pre-wrap">{chunks}</bdi>,
          })}
        </p>
      )}
      <p className="text-xs">
        {error.codeError && (
          <>
            {t("platformCode")} <code>{error.codeError}</code> ·{" "}
          </>
        )}
        traceID <span className="font-mono">{error.traceID ?? t("noTraceID")}</span>
      </p>
    </div>
  );
}
