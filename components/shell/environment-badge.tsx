import { useTranslations } from "next-intl";

/** Shows which platform the console talks to: SANDBOX (the local emulator) or the platform's host. */
export function EnvironmentBadge({ label }: { label: string }) {
  const t = useTranslations("shell");
  const sandbox = label === "SANDBOX";
  return (
    <span
      data-testid="environment-badge"
      title={sandbox ? t("connectedToSandbox") : t("connectedTo", { host: label })}
      className={`rounded px-2 py-0.5 text-xs font-semibold tracking-wide ${
        sandbox
          ? "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200"
          : "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-200"
      }`}
    >
      {sandbox ? t("sandbox") : <span translate="no">{label}</span>}
    </span>
  );
}
