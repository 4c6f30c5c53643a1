"use client";
import { useTranslations } from "next-intl";
import { SignInStepForm } from "@/components/auth/sign-in-step-form";
import { Field } from "@/components/ui/field";
import { signInAction } from "@/lib/auth/sign-in-action";

// Each field's name is also its input type.
const credentials = [
  ["email", "username"],
  ["password", "current-password"],
] as const;

export function LoginForm({ callbackUrl }: { callbackUrl?: string }) {
  const t = useTranslations("auth.signIn");
  return (
    <SignInStepForm
      action={signInAction}
      callbackUrl={callbackUrl}
      submit={{ label: t("submit"), pending: t("submitting") }}
      fields={(state) =>
        credentials.map(([name, autoComplete]) => (
          <Field
            key={name}
            label={t(name)}
            name={name}
            type={name}
            autoComplete={autoComplete}
            required
            errors={state?.fieldErrors?.[name]}
          />
        ))
      }
    />
  );
}
