"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { disableTwoFactorAction, regenerateRecoveryCodesAction } from "@/lib/actions/two-factor";
import { CodeField } from "./code-field";
import { RecoveryCodes } from "./recovery-codes";

type Result =
  { ok: true } | { ok: false; message: string; fieldErrors?: Record<string, string[] | undefined> };
const errorOf = (r: Result) => (r.ok ? null : (r.fieldErrors?.code?.[0] ?? r.message));

/** For an enrolled user: new recovery codes, or two-factor off; each with a current code. */
export function ManagePanel({ required }: { required: boolean }) {
  const t = useTranslations("twoFactor.manage");
  const router = useRouter();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [regenerateError, setRegenerateError] = useState<string | null>(null);
  const [disableError, setDisableError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  const regenerate = (formData: FormData) =>
    startTransition(async () => {
      setRegenerateError(null);
      const r = await regenerateRecoveryCodesAction({ code: String(formData.get("code") ?? "") });
      if (r.ok) setCodes(r.recoveryCodes);
      else setRegenerateError(errorOf(r));
    });
  const disable = (formData: FormData) =>
    startTransition(async () => {
      setDisableError(null);
      const r = await disableTwoFactorAction({ code: String(formData.get("code") ?? "") });
      if (r.ok) router.refresh();
      else setDisableError(errorOf(r));
    });

  return (
    <div className="space-y-6">
      <section className="space-y-2">
        <h2 className="text-lg font-semibold">{t("regenerateTitle")}</h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("regenerateExplain")}</p>
        {codes ? (
          <RecoveryCodes codes={codes} />
        ) : (
          <form action={regenerate} className="space-y-2" data-testid="regenerate-form">
            <CodeField label={t("codeLabel")} hint={t("codeHint")} error={regenerateError} />
            <Button type="submit" disabled={pending}>
              {t("regenerate")}
            </Button>
          </form>
        )}
      </section>
      <section className="space-y-2">
        <h2 className="text-lg font-semibold">{t("disableTitle")}</h2>
        {required && <Alert tone="warning">{t("disableRequired")}</Alert>}
        <form action={disable} className="space-y-2" data-testid="disable-form">
          <CodeField label={t("codeLabel")} hint={t("codeHint")} error={disableError} />
          <Button type="submit" variant="secondary" disabled={pending}>
            {t("disable")}
          </Button>
        </form>
      </section>
    </div>
  );
}
