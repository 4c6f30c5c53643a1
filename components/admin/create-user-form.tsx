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

/**
 * The users page's form for a new user. With single sign-on configured (`ssoConfigured`) it offers
 * "single sign-on only": the user gets no password at all, so none is asked for.
 */
export function CreateUserForm({ ssoConfigured = false }: { ssoConfigured?: boolean }) {
  const t = useTranslations("admin.users.create");
  const roleName = useTranslations("shell.roles");
  const router = useRouter();
  const withStepUp = useStepUp();
  const [pending, startTransition] = useTransition();
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<{ ok: boolean; text: string; password?: string } | null>(null);
  const [ssoOnly, setSsoOnly] = useState(false);
  return (
    <form
      data-testid="create-user-form"
      noValidate
      className={`grid gap-3 sm:grid-cols-2 lg:items-end ${ssoConfigured ? "lg:grid-cols-6" : "lg:grid-cols-5"}`}
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const data = new FormData(form);
        const fields = {
          email: String(data.get("email") ?? ""),
          name: String(data.get("name") ?? ""),
          role: String(data.get("role") ?? ""),
        };
        // Single sign-on only: no password at all, not even an empty one.
        const input =
          ssoConfigured && ssoOnly
            ? { ...fields, ssoOnly: true }
            : { ...fields, password: String(data.get("password") ?? "") };
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
            setSsoOnly(false);
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
        disabled={ssoConfigured && ssoOnly}
        errors={errors.password}
      />
      {ssoConfigured && (
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            name="ssoOnly"
            data-testid="create-user-sso-only"
            checked={ssoOnly}
            onChange={(e) => setSsoOnly(e.target.checked)}
          />
          {t("ssoOnly")}
        </label>
      )}
      <Button type="submit" disabled={pending}>
        {t("submit")}
      </Button>
      {message && (
        <div className={`sm:col-span-2 ${ssoConfigured ? "lg:col-span-6" : "lg:col-span-5"}`}>
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
