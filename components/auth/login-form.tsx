"use client";
import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { signInAction, type SignInState } from "@/lib/auth/sign-in-action";

export function LoginForm({ callbackUrl }: { callbackUrl?: string }) {
  const t = useTranslations("auth.signIn");
  const [state, action, pending] = useActionState<SignInState, FormData>(signInAction, null);
  return (
    <form action={action} className="space-y-4" noValidate>
      <Field
        label={t("email")}
        name="email"
        type="email"
        autoComplete="username"
        required
        errors={state?.fieldErrors?.email}
      />
      <Field
        label={t("password")}
        name="password"
        type="password"
        autoComplete="current-password"
        required
        errors={state?.fieldErrors?.password}
      />
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
        {pending ? t("submitting") : t("submit")}
      </Button>
    </form>
  );
}
