"use client";
import { useState, useTransition } from "react";
import { useStepUp } from "@/components/auth/two-factor/step-up";

type RevealAnswer = { ok: true } | { ok: false; message: string };

/**
 * Shows a masked value in full through its audited reveal action (asking for a fresh second factor when
 * the server wants one): `revealed` is null until then; `controls` is the Reveal button and the refusal.
 */
export function useReveal<R extends RevealAnswer>(
  act: () => Promise<R>,
  value: (answer: Extract<R, { ok: true }>) => string,
  words: { reveal: string; revealTitle: string },
) {
  const [pending, startTransition] = useTransition();
  const withStepUp = useStepUp();
  const [revealed, setRevealed] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reveal = () =>
    startTransition(async () => {
      const r = await withStepUp(act);
      if (r.ok) setRevealed(value(r as Extract<R, { ok: true }>));
      else setError(r.message);
    });
  const controls = (canReveal: boolean) => (
    <>
      {canReveal && revealed === null && (
        <button
          type="button"
          onClick={reveal}
          disabled={pending}
          className="text-sm text-indigo-700 underline dark:text-indigo-300"
          title={words.revealTitle}
        >
          {words.reveal}
        </button>
      )}
      {error && (
        <span role="alert" className="text-sm text-red-600">
          {error}
        </span>
      )}
    </>
  );
  return { revealed, controls };
}
