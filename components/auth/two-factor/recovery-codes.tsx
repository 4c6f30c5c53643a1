"use client";
import { useTranslations } from "next-intl";
import { CopyButton } from "@/components/ui/copy-button";

/** Recovery codes, shown once right after they are made. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const t = useTranslations("twoFactor.recoveryCodes");
  return (
    <div className="space-y-3" data-testid="recovery-codes">
      <p className="text-sm">{t("explain", { count: codes.length })}</p>
      <ol className="grid grid-cols-2 gap-x-6 gap-y-1 rounded-md bg-zinc-100 p-3 font-mono text-sm dark:bg-zinc-800">
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ol>
      <CopyButton text={codes.join("\n")} label={t("copy")} />
    </div>
  );
}
