import "server-only";
import type { _Translator, Messages } from "next-intl";
import { wordsIn } from "@/lib/auth/translator";
import type { Locale } from "@/lib/i18n/locales";
import type { PlatformErrorWords } from "@/lib/platform/explain";

/** The `payouts` catalog and the language a result is worded in (amounts are formatted for it too). */
export type PayoutWords = { t: _Translator<Messages, "payouts">; locale: Locale };

/** The request's language, or DEFAULT_LOCALE in the worker (see lib/auth/translator.ts). */
export function payoutWords(locale?: Locale): Promise<PayoutWords> {
  return wordsIn("payouts", locale);
}

/** The words of the platform's refusals, in the request's language (see payoutWords). */
export function platformErrorWords(locale?: Locale): Promise<PlatformErrorWords> {
  return wordsIn("platformErrors", locale);
}
