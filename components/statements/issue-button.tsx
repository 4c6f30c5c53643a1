"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { issueStatementAction } from "@/lib/actions/statements";

/** Freezes the statement shown: stored with its totals and a content hash. */
export function IssueButton({ query }: { query: Record<string, string | undefined> }) {
  const t = useTranslations("statements.issue");
  const router = useRouter();
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        disabled={pending}
        className="rounded-md bg-indigo-600 px-3 py-1 font-medium text-white disabled:bg-indigo-400"
        onClick={() =>
          start(async () => {
            const result = await issueStatementAction(
              Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)),
            );
            setMessage(result.ok ? t("done") : result.message);
            if (result.ok) router.refresh();
          })
        }
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
