"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { useStepUp } from "@/components/auth/two-factor/step-up";
import { Button } from "@/components/ui/button";
import { saveSettingAction } from "@/lib/actions/settings";
import type { SettingKey } from "@/lib/settings/settings";

type Kind = "text" | "list" | "secret" | "toggle";

/**
 * One setting's form. `list` is edited one entry per line (commas also separate); `secret` is never
 * prefilled (the server only says whether one is configured) and can be replaced or cleared; `toggle`
 * is a checkbox saved as true or false (initial "true" when on).
 */
export function SettingForm({
  settingKey,
  label,
  hint,
  kind = "text",
  initial = "",
  clearable = false,
  clearLabel,
}: {
  settingKey: SettingKey;
  label: string;
  hint?: string;
  kind?: Kind;
  initial?: string;
  clearable?: boolean;
  clearLabel?: string;
}) {
  const t = useTranslations("settings");
  const router = useRouter();
  const withStepUp = useStepUp();
  const [value, setValue] = useState(initial);
  const [pending, startTransition] = useTransition();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const id = `setting-${settingKey}`;
  const errorId = `${id}-error`;

  const submit = (next: unknown) =>
    startTransition(async () => {
      const r = await withStepUp(() => saveSettingAction({ key: settingKey, value: next }));
      if (r.ok) {
        setResult({ ok: true, text: t("saved") });
        if (kind === "secret") setValue("");
        router.refresh();
      } else {
        setResult({
          ok: false,
          text: "fieldErrors" in r ? (r.fieldErrors.value?.[0] ?? r.message) : r.message,
        });
      }
    });

  const parsed = () =>
    kind === "list"
      ? value
          .split(/[\s,]+/)
          .map((s) => s.trim())
          .filter(Boolean)
      : kind === "toggle"
        ? value === "true"
        : value;

  const invalid = result !== null && !result.ok;
  const inputClass =
    "block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm shadow-sm outline-none focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 aria-[invalid=true]:border-red-500 dark:border-zinc-700 dark:bg-zinc-900";
  return (
    <form
      className="space-y-2"
      data-testid={id}
      onSubmit={(e) => {
        e.preventDefault();
        submit(parsed());
      }}
    >
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {hint && <p className="text-xs text-zinc-500">{hint}</p>}
      {kind === "toggle" ? (
        <input
          id={id}
          type="checkbox"
          checked={value === "true"}
          onChange={(e) => setValue(String(e.target.checked))}
          aria-invalid={invalid}
          aria-describedby={invalid ? errorId : undefined}
          className="h-4 w-4"
        />
      ) : kind === "list" ? (
        <textarea
          id={id}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          rows={4}
          aria-invalid={invalid}
          aria-describedby={invalid ? errorId : undefined}
          className={`${inputClass} font-mono`}
        />
      ) : (
        <input
          id={id}
          type={kind === "secret" ? "password" : "text"}
          autoComplete="off"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-invalid={invalid}
          aria-describedby={invalid ? errorId : undefined}
          className={inputClass}
        />
      )}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" disabled={pending}>
          {kind === "secret" ? t("replace") : t("save")}
        </Button>
        {clearable && (
          <Button type="button" variant="secondary" disabled={pending} onClick={() => submit(null)}>
            {clearLabel ?? t("clear")}
          </Button>
        )}
      </div>
      {result &&
        (result.ok ? (
          <Alert tone="success">{result.text}</Alert>
        ) : (
          <p id={errorId} className="text-sm text-red-600 dark:text-red-400">
            {result.text}
          </p>
        ))}
    </form>
  );
}
