import "server-only";
import type { _Translator, Messages } from "next-intl";
import type { Locale } from "@/lib/i18n/locales";
import { currentLocale, wordsFor } from "@/lib/i18n/words";

/** The `payouts` catalog and the language a result is worded in (amounts are formatted for it too). */
export type PayoutWords = { t: _Translator<Messages, "payouts">; locale: Locale };

/** The request's language, or DEFAULT_LOCALE in the worker (see lib/i18n/words.ts). */
export async function payoutWords(locale?: Locale): Promise<PayoutWords> {
  const chosen = locale ?? (await currentLocale());
  return { t: await wordsFor("payouts", chosen), locale: chosen };
}
