"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { useStepUp } from "@/components/auth/two-factor/step-up";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { roles } from "@/lib/auth/permissions";
import { createUserAction } from "@/lib/users/actions";

type Errors = Record<string, string[] | undefined>;

export function CreateUserForm() {
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
              text: `Created ${r.user.email} (${r.user.role}).`,
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
      <Field label="Email" name="email" type="email" required errors={errors.email} />
      <Field label="Name" name="name" errors={errors.name} />
      <Select label="Role" name="role" defaultValue="support" errors={errors.role}>
        {roles.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </Select>
      <Field
        label="Password (empty: generate)"
        name="password"
        type="password"
        autoComplete="new-password"
        errors={errors.password}
      />
      <Button type="submit" disabled={pending}>
        Create user
      </Button>
      {message && (
        <div className="sm:col-span-2 lg:col-span-5">
          <Alert tone={message.ok ? "success" : "error"} testId="create-user-result">
            {message.text}
            {message.password && (
              <span className="block">
                Initial password (shown once, give it to the user privately):{" "}
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
