"use client";
import { useTranslations } from "next-intl";
import { SignInStepForm } from "@/components/auth/sign-in-step-form";
import { signInCodeAction } from "@/lib/auth/two-factor/sign-in-action";
import { CodeField } from "./code-field";

/** The second step of signing in: a code from the app, or a recovery code. */
export function SignInCodeForm({ callbackUrl }: { callbackUrl?: string }) {
  const t = useTranslations("twoFactor.signIn");
  const codeField = () => <CodeField label={t("codeLabel")} hint={t("codeHint")} autoFocus />;
  return (
    <SignInStepForm
      action={signInCodeAction}
      callbackUrl={callbackUrl}
      submit={{ label: t("verify"), pending: t("verifying") }}
      fields={codeField}
    />
  );
}
