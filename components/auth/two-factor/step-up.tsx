"use client";
import { useTranslations } from "next-intl";
import { createContext, useCallback, useContext, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ssoStepUpAction } from "@/lib/auth/two-factor/sign-in-action";
import { verifyStepUpAction } from "@/lib/actions/two-factor";
import { CodeField } from "./code-field";

/**
 * Step-up in the browser. An action that needs a fresh second factor answers `step_up_required`
 * (lib/auth/action.ts, stepUpAction); `withStepUp(() => action(input))` then asks for a code in a
 * dialog and, once it is verified, runs the action again. Cancelled, it returns the first answer
 * (its message says a code is needed). The server decides; this only asks and retries.
 */
type StepUpAnswer = { ok: false; code: "step_up_required"; method: "totp" | "sso" };
type Run = <T>(run: () => Promise<T>) => Promise<T>;

function needsStepUp(result: unknown): result is StepUpAnswer {
  return (
    typeof result === "object" &&
    result !== null &&
    (result as { code?: unknown }).code === "step_up_required"
  );
}

const StepUpContext = createContext<Run | null>(null);

/** Outside the provider the action simply runs once. */
export function useStepUp(): Run {
  return useContext(StepUpContext) ?? ((run) => run());
}

type Pending = { method: StepUpAnswer["method"]; settle: (passed: boolean) => void };

export function StepUpProvider({ children }: { children: React.ReactNode }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const withStepUp = useCallback<Run>(async (run) => {
    const first = await run();
    if (!needsStepUp(first)) return first;
    const passed = await new Promise<boolean>((settle) => setPending({ method: first.method, settle }));
    setPending(null);
    return passed ? run() : first;
  }, []);
  return (
    <StepUpContext.Provider value={withStepUp}>
      {children}
      {pending && <StepUpDialog method={pending.method} onDone={pending.settle} />}
    </StepUpContext.Provider>
  );
}

function StepUpDialog({ method, onDone }: { method: Pending["method"]; onDone: (passed: boolean) => void }) {
  const t = useTranslations("twoFactor.stepUp");
  const ref = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  // Not a transition: the action that asked is still pending in one, and React would hold this one's
  // pending state with it until the dialog closes.
  const [busy, setBusy] = useState(false);
  // Rendered only after an action asked for it, so always in the browser.
  const here = `${window.location.pathname}${window.location.search}`;
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "");
    setBusy(true);
    setError(null);
    try {
      const result = await verifyStepUpAction({ code });
      if (result.ok) onDone(true);
      else
        setError("fieldErrors" in result ? (result.fieldErrors.code?.[0] ?? result.message) : result.message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <dialog
      ref={ref}
      data-testid="step-up-dialog"
      aria-labelledby="step-up-title"
      onCancel={() => onDone(false)}
      className="m-auto w-full max-w-sm rounded-xl border border-zinc-200 bg-white p-6 text-zinc-900 shadow-xl backdrop:bg-zinc-900/50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <h2 id="step-up-title" className="text-lg font-semibold">
        {t("title")}
      </h2>
      {method === "totp" ? (
        <form onSubmit={(event) => void submit(event)} className="mt-3 space-y-3">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("explainCode")}</p>
          <CodeField label={t("codeLabel")} hint={t("codeHint")} error={error} autoFocus />
          <div className="flex gap-2">
            <Button type="submit" disabled={busy}>
              {t("confirm")}
            </Button>
            <Button type="button" variant="secondary" onClick={() => onDone(false)}>
              {t("cancel")}
            </Button>
          </div>
        </form>
      ) : (
        <form action={ssoStepUpAction} className="mt-3 space-y-3">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("explainSso")}</p>
          <input type="hidden" name="callbackUrl" value={here} />
          <div className="flex gap-2">
            <Button type="submit">{t("signInAgain")}</Button>
            <Button type="button" variant="secondary" onClick={() => onDone(false)}>
              {t("cancel")}
            </Button>
          </div>
        </form>
      )}
    </dialog>
  );
}
