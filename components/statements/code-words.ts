import { useLocale, useTranslations } from "next-intl";
import { formatIsoDay } from "@/lib/time/zone";

/**
 * The words for the platform's codes shown on statements (operation type, status, payment method) and
 * days as the language writes them; a code without words (a method the catalog does not name) is
 * shown as it is.
 */
export function useCodeWords() {
  const t = useTranslations("statements.values");
  const locale = useLocale();
  const word = (group: "types" | "statuses" | "methods", code: string) => {
    const key = `${group}.${code}` as "types.payIn";
    return t.has(key) ? t(key) : code;
  };
  return {
    type: (code: string) => word("types", code),
    status: (code: string) => word("statuses", code),
    method: (code: string) => word("methods", code),
    day: (isoDay: string) => formatIsoDay(isoDay, locale),
  };
}
