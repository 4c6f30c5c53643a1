import { describe, expect, test } from "vitest";
import { localeFromAcceptLanguage } from "@/lib/i18n/locales";
import { formatDate, formatDateTime, formatDuration, formatIsoDay } from "@/lib/time/zone";

describe("the browser's Accept-Language", () => {
  test.each([
    ["ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", "ru"],
    ["en-US,en;q=0.9,ru;q=0.8", "en"],
    ["de-DE,de;q=0.9,ru;q=0.8,en;q=0.7", "ru"],
    ["en;q=0.5,ru;q=0.6", "ru"],
    ["RU", "ru"],
    ["ru;q=0,en", "en"],
    ["fr-FR,de", null],
    ["", null],
    [null, null],
    ["*", null],
    ["ru;q=abc", "ru"],
  ])("%j → %s", (header, locale) => {
    expect(localeFromAcceptLanguage(header)).toBe(locale);
  });
});

describe("dates as each language writes them", () => {
  const at = new Date("2026-11-22T16:44:05.120Z");
  test.each([
    ["ru", "Europe/Moscow", "22.11.2026 19:44:05", "22.11.2026"],
    ["en", "Europe/Moscow", "2026-11-22 19:44:05", "2026-11-22"],
    ["ru", "UTC", "22.11.2026 16:44:05", "22.11.2026"],
    ["en", "Asia/Vladivostok", "2026-11-23 02:44:05", "2026-11-23"],
  ] as const)("%s in %s", (locale, zone, dateTime, date) => {
    expect(formatDateTime(at, zone, locale)).toBe(dateTime);
    expect(formatDate(at, zone, locale)).toBe(date);
  });

  test("a calendar day", () => {
    expect(formatIsoDay("2026-03-01", "ru")).toBe("01.03.2026");
    expect(formatIsoDay("2026-03-01", "en")).toBe("2026-03-01");
  });

  test.each([
    [45_000, "45 s", "45 с"],
    [125_000, "2 min 05 s", "2 мин 05 с"],
    [7_500_000, "2 h 05 min", "2 ч 05 мин"],
    [90_000_000, "1 d 1 h", "1 д 1 ч"],
  ])("a duration of %i ms", (ms, en, ru) => {
    expect(formatDuration(ms, "en")).toBe(en);
    expect(formatDuration(ms, "ru")).toBe(ru);
  });
});
