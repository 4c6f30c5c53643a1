"use client";
import { useId } from "react";
import { controlClass } from "@/components/ui/labelled";

/**
 * The input for a code from the authenticator app or a recovery code, posted as `code`. Its id is
 * unique on the page (a page may hold several, and the step-up dialog another).
 */
export function CodeField({
  label,
  hint,
  error,
  autoFocus,
}: {
  label: string;
  hint?: string;
  error?: string | null;
  autoFocus?: boolean;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-zinc-500">
          {hint}
        </p>
      )}
      <input
        id={id}
        name="code"
        autoComplete="one-time-code"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={64}
        required
        autoFocus={autoFocus}
        aria-invalid={Boolean(error)}
        aria-describedby={described || undefined}
        className={`${controlClass} font-mono`}
      />
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
