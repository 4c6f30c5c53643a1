"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { useStepUp } from "@/components/auth/two-factor/step-up";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { roles } from "@/lib/auth/permissions";
import { createUserAction } from "@/lib/actions/users";

type Errors = Record<string, string[] | undefined>;

export function CreateUserForm() {
  const t = useTranslations("admin.users.create");
  const roleName = useTranslations("shell.roles");
  const router = useRouter();
  const withStepUp = useStepUp();
  const [pending, startTransition] = useTransition();
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<{ ok: boolean; text: string; password?: string } | null>(null);
  return (
    <form
      data-testid="create-user-form"
      noValidate
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5 lg:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const data = new FormData(form);
        const input = {
          email: String(data.get("email") ?? ""),
          name: String(data.get("name") ?? ""),
          role: String(data.get("role") ?? ""),
          password: String(data.get("password") ?? ""),
        };
        startTransition(async () => {
          const r = await withStepUp(() => createUserAction(input));
          if (r.ok) {
            setErrors({});
            setMessage({
              ok: true,
              text: t("created", { email: r.user.email, role: roleName(r.user.role) }),
              password: r.generated ?? undefined,
            });
            form.reset();
            router.refresh();
          } else {
            setErrors("fieldErrors" in r ? r.fieldErrors : {});
            setMessage({ ok: false, text: r.message });
          }
        });
      }}
    >
      <Field label={t("email")} name="email" type="email" required errors={errors.email} />
      <Field label={t("name")} name="name" errors={errors.name} />
      <Select label={t("role")} name="role" defaultValue="support" errors={errors.role}>
        {roles.map((r) => (
          <option key={r} value={r}>
            {roleName(r)}
          </option>
        ))}
      </Select>
      <Field
        label={t("password")}
        name="password"
        type="password"
        autoComplete="new-password"
        errors={errors.password}
      />
      <Button type="submit" disabled={pending}>
        {t("submit")}
      </Button>
      {message && (
        <div className="sm:col-span-2 lg:col-span-5">
          <Alert tone={message.ok ? "success" : "error"} testId="create-user-result">
            {message.text}
            {message.password && (
              <span className="block">
                {t("initialPassword")}{" "}
                <code data-testid="generated-password" className="font-mono">
                  {message.password}
                </code>
              </span>
            )}
          </Alert>
        </div>
      )}
    </form>
  );
}
