"use client";
import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { signInCodeAction, type CodeStepState } from "@/lib/auth/two-factor/sign-in-action";
import { CodeField } from "./code-field";

/** The second step of signing in: a code from the app, or a recovery code. */
export function SignInCodeForm({ callbackUrl }: { callbackUrl?: string }) {
  const t = useTranslations("twoFactor.signIn");
  const [state, action, pending] = useActionState<CodeStepState, FormData>(signInCodeAction, null);
  return (
    <form action={action} className="space-y-4" noValidate>
      <CodeField label={t("codeLabel")} hint={t("codeHint")} autoFocus />
      {callbackUrl && <input type="hidden" name="callbackUrl" value={callbackUrl} />}
      {state?.message && (
        <p
          role="alert"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
        >
          {state.message}
        </p>
      )}
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? t("verifying") : t("verify")}
      </Button>
    </form>
  );
}
