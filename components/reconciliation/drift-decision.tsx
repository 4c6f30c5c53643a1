"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { decideDriftAction } from "@/lib/actions/reconcile";

/**
 * Acknowledge (open items) or resolve (open or acknowledged) with a note. A balance difference sends the
 * amount shown (`amount`): the decision is refused if the balance proof has added to it since.
 */
export function DriftDecision({
  id,
  state,
  amount,
}: {
  id: string;
  state: "open" | "acknowledged";
  amount?: string;
}) {
  const t = useTranslations("reconciliation.decision");
  const router = useRouter();
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const noteId = `note-${id}`;
  const errorId = `${noteId}-error`;
  const decide = (decision: "acknowledge" | "resolve") =>
    startTransition(async () => {
      const r = await decideDriftAction({ id, decision, note, amount });
      if (r.ok) {
        setError(null);
        router.refresh();
      } else {
        setError("fieldErrors" in r ? (r.fieldErrors.note?.[0] ?? r.message) : r.message);
      }
    });
  return (
    <div className="space-y-1">
      <label htmlFor={noteId} className="sr-only">
        {t("note")}
      </label>
      <input
        id={noteId}
        value={note}
        onChange={(e) => setNote(e.target.value)}
        placeholder={t("notePlaceholder")}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? errorId : undefined}
        className="w-full rounded-md border border-zinc-300 px-2 py-1 text-sm aria-[invalid=true]:border-red-500 dark:border-zinc-700 dark:bg-zinc-900"
      />
      <div className="flex gap-1">
        {state === "open" && (
          <Button type="button" variant="secondary" disabled={pending} onClick={() => decide("acknowledge")}>
            {t("acknowledge")}
          </Button>
        )}
        <Button type="button" variant="secondary" disabled={pending} onClick={() => decide("resolve")}>
          {t("resolve")}
        </Button>
      </div>
      {error && (
        <p id={errorId} className="text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
