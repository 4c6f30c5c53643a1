"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useActionResult } from "@/components/ui/action-button";
import { issueStatementAction } from "@/lib/actions/statements";
import type { ShownPeriodQuery } from "@/lib/statements/periods";

/** Freezes the statement shown (its exact period): stored with its totals and a content hash. */
export function IssueButton({ period }: { period: ShownPeriodQuery }) {
  const t = useTranslations("statements.issue");
  const router = useRouter();
  const { pending, result: message, run } = useActionResult<string>();
  const issue = async () => {
    const result = await issueStatementAction(period);
    if (result.ok) router.refresh();
    return result.ok ? t("done") : result.message;
  };
  return (
    <>
      <button
        type="button"
        disabled={pending}
        className="rounded-md bg-indigo-600 px-3 py-1 font-medium text-white disabled:bg-indigo-400"
        onClick={() => run(issue)}
      >
        {t("button")}
      </button>
      {message && (
        <span role="status" className="text-sm">
          {message}
        </span>
      )}
    </>
  );
}
