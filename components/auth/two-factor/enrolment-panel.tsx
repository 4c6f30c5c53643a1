"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { confirmEnrolmentAction, startEnrolmentAction } from "@/lib/actions/two-factor";
import { CodeField } from "./code-field";
import { RecoveryCodes } from "./recovery-codes";

type Stage =
  | { step: "start" }
  | { step: "scan"; secret: string; qr: string }
  | { step: "codes"; recoveryCodes: string[] };

/** The secret in groups of four, as apps accept it typed (spaces are ignored). */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;

/**
 * Enrolment: a new secret as a QR code and as text, confirmed by a first code from the app; then the
 * recovery codes, shown once. `next` is where "Done" leads.
 */
export function EnrolmentPanel({ next }: { next: string }) {
  const t = useTranslations("twoFactor.enrol");
  const router = useRouter();
  const [stage, setStage] = useState<Stage>({ step: "start" });
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  const begin = () =>
    startTransition(async () => {
      setError(null);
      const r = await startEnrolmentAction();
      if (r.ok) setStage({ step: "scan", secret: r.secret, qr: r.qr });
      else setError(r.message);
    });
  const confirm = (formData: FormData) =>
    startTransition(async () => {
      setError(null);
      const r = await confirmEnrolmentAction({ code: String(formData.get("code") ?? "") });
      if (r.ok) setStage({ step: "codes", recoveryCodes: r.recoveryCodes });
      else setError("fieldErrors" in r ? (r.fieldErrors.code?.[0] ?? r.message) : r.message);
    });

  if (stage.step === "start") {
    return (
      <div className="space-y-3">
        <p className="text-sm">{t("intro")}</p>
        <Button type="button" onClick={begin} disabled={pending}>
          {t("begin")}
        </Button>
        {error && <Alert tone="error">{error}</Alert>}
      </div>
    );
  }
  if (stage.step === "scan") {
    return (
      <div className="space-y-4">
        <p className="text-sm">{t("scan")}</p>
        {/* A data: SVG made on the server; the Content-Security-Policy allows data: images. */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img src={stage.qr} alt={t("qrAlt")} width={200} height={200} className="rounded-md bg-white p-2" />
        <div className="space-y-1 text-sm">
          <p>{t("typeInstead")}</p>
          <code
            data-testid="totp-secret"
            className="block rounded bg-zinc-100 px-2 py-1 font-mono break-all dark:bg-zinc-800"
          >
            {grouped(stage.secret)}
          </code>
        </div>
        <form action={confirm} className="space-y-3">
          <CodeField label={t("codeLabel")} error={error} />
          <Button type="submit" disabled={pending}>
            {t("confirm")}
          </Button>
        </form>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <Alert tone="success">{t("done")}</Alert>
      <RecoveryCodes codes={stage.recoveryCodes} />
      <Button
        type="button"
        onClick={() => {
          router.push(next);
          router.refresh();
        }}
      >
        {t("continue")}
      </Button>
    </div>
  );
}
