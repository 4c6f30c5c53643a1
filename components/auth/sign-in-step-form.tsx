"use client";
import { useActionState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";

/**
 * A step of signing in (password, then a code): its fields, where to go afterwards, the refusal and the
 * submit button. `fields` receives the action's last answer to show field errors.
 */
export function SignInStepForm<S extends { message: string }>({
  action,
  callbackUrl,
  submit,
  fields,
}: {
  action: (previous: S | null, data: FormData) => Promise<S | null>;
  callbackUrl?: string;
  submit: { label: string; pending: string };
  fields: (state: S | null) => ReactNode;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className="space-y-4" noValidate>
      {fields(state)}
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
        {pending ? submit.pending : submit.label}
      </Button>
    </form>
  );
}
