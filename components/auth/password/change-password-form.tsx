"use client";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { changeOwnPasswordAction } from "@/lib/actions/account";
import { SIGN_IN_AFTER_PASSWORD_CHANGE } from "@/lib/auth/sign-in-messages";

type Errors = Record<string, string[] | undefined>;

const fields = [
  ["current", "current-password"],
  ["next", "new-password"],
  ["confirm", "new-password"],
] as const;

/** The signed-in user's own password: the current one, the new one twice (changeOwnPasswordAction). */
export function ChangePasswordForm() {
  const t = useTranslations("account.password");
  const [pending, startTransition] = useTransition();
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<string | null>(null);
  return (
    <form
      data-testid="change-password-form"
      noValidate
      className="max-w-sm space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const input = Object.fromEntries(fields.map(([name]) => [name, String(data.get(name) ?? "")]));
        startTransition(async () => {
          const r = await changeOwnPasswordAction(input);
          if (r.ok) {
            // Every session has ended, this one too: to sign-in, with a full load so that nothing of
            // the signed-in pages outlives the session.
            window.location.assign(SIGN_IN_AFTER_PASSWORD_CHANGE);
            return;
          }
          setErrors("fieldErrors" in r ? r.fieldErrors : {});
          setMessage(r.message);
        });
      }}
    >
      {fields.map(([name, autoComplete]) => (
        <Field
          key={name}
          label={t(name)}
          name={name}
          type="password"
          autoComplete={autoComplete}
          required
          errors={errors[name]}
        />
      ))}
      <Button type="submit" disabled={pending}>
        {pending ? t("submitting") : t("submit")}
      </Button>
      {message && (
        <Alert tone="error" testId="change-password-result">
          {message}
        </Alert>
      )}
    </form>
  );
}
