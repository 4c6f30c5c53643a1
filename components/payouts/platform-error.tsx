import type { ExplainedError } from "@/lib/payouts/errors";

/** A platform refusal in words, with the traceID to give to the platform's support. */
export function PlatformErrorNotice({ error }: { error: ExplainedError }) {
  return (
    <div
      role="alert"
      data-testid="platform-error"
      data-code={error.code}
      className="space-y-1 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
    >
      <p>{error.message}</p>
      <p className="text-xs">
        {error.codeError && <>Platform code {error.codeError} · </>}
        traceID <span className="font-mono">{error.traceID ?? "none received"}</span>
      </p>
    </div>
  );
}
