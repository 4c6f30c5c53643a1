// The statement exports take their words from the catalogs (statements.document): every posting kind is
// named in both languages, sheet names are ones a spreadsheet accepts, English reads as it did before
// the catalogs, and exact amounts and period labels are written the way each language writes them.
import { describe, expect, it } from "vitest";
import { postingKinds } from "@/lib/ledger/rules";
import { exactAmount } from "@/lib/statements/exact-amount";
import { statementLabels } from "@/lib/statements/labels";
import { localPeriodLabel } from "@/lib/statements/periods";

describe("statement export labels", () => {
  it.each(["en", "ru"] as const)("%s: every posting kind and movement kind has words", (locale) => {
    const L = statementLabels(locale);
    for (const kind of [...postingKinds, "outside" as const]) expect(L.kinds[kind]).toMatch(/\p{L}{3}/u);
    for (const kind of ["topUp", "withdrawal", "adjustment"])
      expect(L.movementKinds[kind]).toMatch(/\p{L}{3}/u);
  });

  it.each(["en", "ru"] as const)(
    "%s: sheet names a spreadsheet accepts (at most 31 characters, distinct)",
    (locale) => {
      const names = Object.values(statementLabels(locale).sheets);
      for (const name of names) {
        expect(name.length).toBeLessThanOrEqual(31);
        expect(name).not.toMatch(/[[\]:*?/\\]/);
      }
      expect(new Set(names).size).toBe(names.length);
    },
  );

  it("English reads as the exports always did", () => {
    const L = statementLabels("en");
    expect(L.title).toBe("Account statement");
    expect(L.check).toBe("Check: opening + movements = closing");
    expect(L.kinds.payOutRelease).toBe("Pay-out hold released (failed)");
    expect(L.basisCovered("2031-03-01 00:00:00 (UTC)")).toBe(
      "last complete reconciliation 2031-03-01 00:00:00 (UTC); the period is covered by it",
    );
    expect(L.basisNotCovered(null)).toBe("no complete reconciliation yet: operations may still be missing");
    expect(L.page(2)).toBe("Page 2");
  });

  it("Russian uses the glossary's words", () => {
    const L = statementLabels("ru");
    expect(L.title).toBe("Выписка по счёту");
    expect(L.opening).toBe("Входящий остаток");
    expect(L.closing).toBe("Исходящий остаток");
    expect(L.commissions).toBe("Комиссии");
    expect(L.movementKinds.topUp).toBe("Пополнение");
    expect(L.page(2)).toBe("Страница 2");
    expect(L.basisNotCovered("01.03.2031 00:00:00 (UTC)")).toMatch(/^последняя полная сверка 01\.03\.2031/);
  });
});

describe("exact amounts", () => {
  it.each([
    ["1250.0001", "en", "1,250.0001"],
    ["-1000000.5", "en", "-1,000,000.5"],
    ["999.0000", "en", "999.0000"],
    ["1250.0001", "ru", "1\u00a0250,0001"],
    ["-20.4000", "ru", "-20,4000"],
    ["150000.5", "ru", "150\u00a0000,5"],
    ["999", "ru", "999"],
    ["0.0000", "ru", "0,0000"],
    // not a plain decimal: shown as it came, never reinterpreted
    ["1e3", "ru", "1e3"],
    ["NotSet", "ru", "NotSet"],
  ] as const)("%s in %s: %s", (value, locale, shown) => {
    expect(exactAmount(value, locale)).toBe(shown);
  });
});

describe("period labels", () => {
  it.each([
    ["2031-03", "ru", "03.2031"],
    ["2031-03-01 — 2031-03-10", "ru", "01.03.2031 — 10.03.2031"],
    ["2031-03-05", "ru", "05.03.2031"],
    ["2031-03-01 — 2031-03-10", "en", "2031-03-01 — 2031-03-10"],
  ] as const)("%s in %s: %s", (label, locale, shown) => {
    expect(localPeriodLabel(label, locale)).toBe(shown);
  });
});
