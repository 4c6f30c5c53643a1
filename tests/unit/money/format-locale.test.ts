// The one formatter in both languages: ru "2 609,78 RUB" (no-break space between groups and before the
// currency, decimal comma), en "2,609.78 RUB"; exact through Decimal, the platform's four decimals kept.
import { describe, expect, test } from "vitest";
import type { Locale } from "@/lib/i18n/locales";
import { formatMoney } from "@/lib/money/format";

const NB = "\u00a0";

describe("formatMoney by language", () => {
  test.each<[string, string, Locale, string]>([
    ["2609.78", "RUB", "ru", `2${NB}609,78${NB}RUB`],
    ["2609.78", "RUB", "en", `2,609.78${NB}RUB`],
    ["0.0001", "RUB", "ru", `0,0001${NB}RUB`],
    ["0.0001", "RUB", "en", `0.0001${NB}RUB`],
    ["62.5", "RUB", "ru", `62,50${NB}RUB`],
    ["62.5", "RUB", "en", `62.50${NB}RUB`],
    ["1.875", "USDT", "ru", `1,875${NB}USDT`],
    ["1.875", "USDT", "en", `1.875${NB}USDT`],
    ["-1000000.1234", "RUB", "ru", `-1${NB}000${NB}000,1234${NB}RUB`],
    ["-1000000.1234", "RUB", "en", `-1,000,000.1234${NB}RUB`],
    // 19 integer digits: beyond a double's exact range, still exact
    ["1234567890123456789", "RUB", "ru", `1${NB}234${NB}567${NB}890${NB}123${NB}456${NB}789,00${NB}RUB`],
    ["1234567890123456789", "RUB", "en", `1,234,567,890,123,456,789.00${NB}RUB`],
    [
      "9999999999999999999.9999",
      "USDT",
      "ru",
      `9${NB}999${NB}999${NB}999${NB}999${NB}999${NB}999,9999${NB}USDT`,
    ],
    ["9999999999999999999.9999", "USDT", "en", `9,999,999,999,999,999,999.9999${NB}USDT`],
    ["5000", "RUB", "en", `5,000.00${NB}RUB`],
    ["0", "RUB", "ru", `0,00${NB}RUB`],
  ])("formatMoney(%j, %j, %s) = %j", (amount, currency, locale, expected) => {
    expect(formatMoney(amount, currency, { locale })).toBe(expected);
  });

  test("English is the default", () => {
    expect(formatMoney("2609.78", "RUB")).toBe(`2,609.78${NB}RUB`);
  });
});
