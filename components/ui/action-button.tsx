"use client";
import { useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, type ButtonVariant } from "@/components/ui/button";

/** What an action said: shown as a success, or announced as an error. */
export type ActionResult = { ok: boolean; text: string };

/** Runs actions one at a time in a transition and keeps what the last one answered. */
export function useActionResult<R = ActionResult>() {
  const [pending, startTransition] = useTransition();
  const [result, setResult] = useState<R | null>(null);
  const run = (act: () => Promise<R>) =>
    startTransition(async () => {
      const answer = await act();
      setResult(() => answer);
    });
  return { pending, result, run };
}

export function ResultAlert({ result, testId }: { result: ActionResult; testId?: string }) {
  return (
    <Alert tone={result.ok ? "success" : "error"} testId={testId}>
      {result.text}
    </Alert>
  );
}

/** A button that runs one action, says so while it runs, then shows the action's answer below. */
export function ActionButton({
  label,
  pendingLabel,
  variant,
  act,
  resultTestId,
}: {
  label: string;
  pendingLabel: string;
  variant?: ButtonVariant;
  act: () => Promise<ActionResult>;
  resultTestId?: string;
}) {
  const { pending, result, run } = useActionResult();
  return (
    <div className="space-y-2">
      <Button type="button" variant={variant} onClick={() => run(act)} disabled={pending}>
        {pending ? pendingLabel : label}
      </Button>
      {result && <ResultAlert result={result} testId={resultTestId} />}
    </div>
  );
}
