"use client";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useTransition } from "react";
import { LOCALES, type Locale } from "@/lib/i18n/locales";
import { setLanguage } from "@/lib/actions/preferences";

/** The user menu's language choice: saved on the user, the page re-renders in it at once. */
export function LanguageSwitch() {
  const t = useTranslations("shell");
  const current = useLocale();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const choose = (locale: Locale) =>
    startTransition(async () => {
      const result = await setLanguage({ locale });
      if (result.ok) router.refresh();
    });
  return (
    <fieldset className="px-2 py-1" disabled={pending}>
      <legend className="text-xs text-zinc-500">{t("language")}</legend>
      <div className="mt-1 flex gap-1">
        {LOCALES.map((locale) => (
          <button
            key={locale}
            type="button"
            lang={locale}
            aria-pressed={locale === current}
            onClick={() => choose(locale)}
            className="rounded-md border border-zinc-300 px-2 py-1 text-sm aria-pressed:border-indigo-600 aria-pressed:bg-indigo-50 aria-pressed:font-semibold dark:border-zinc-700 dark:aria-pressed:bg-indigo-950"
          >
            {t(`languages.${locale}`)}
          </button>
        ))}
      </div>
    </fieldset>
  );
}
