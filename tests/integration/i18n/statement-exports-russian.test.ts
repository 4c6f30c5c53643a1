// A statement downloaded by a Russian-speaking user is worded in Russian in all three formats: the PDF
// keeps its Cyrillic font (DejaVu) for the labels as for the names, amounts in the PDF are written with
// a decimal comma, spreadsheet and CSV numbers stay machine-readable. Without a language the export is
// worded in the deployment's (DEFAULT_LOCALE, English in tests), as before.
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import type { StatementPeriod } from "@/lib/ledger/statement";
import { renderers } from "@/lib/statements/respond";
import { isolateDatabase } from "../../support/database";
import { pdfText, readLiveStatement, renderStatement } from "../../support/statement-files";
import { mirrorRow } from "../../support/mirror";

let restore: () => Promise<void>;
const T0 = Date.parse("2032-05-01T00:00:00Z");
const HOUR = 3_600_000;
const period: StatementPeriod = {
  from: new Date(T0),
  to: new Date(T0 + 10 * 24 * HOUR),
  tz: "Europe/Moscow",
};

beforeAll(async () => {
  restore = await isolateDatabase();
  await getDb().operation.create({
    data: {
      ...mirrorRow({
        dateAdded: new Date(T0 + HOUR),
        dateUpdated: new Date(T0 + 2 * HOUR),
        status: "success",
        amount: "955000",
        amountInCurrencyBalance: "10000",
        amountComissionInCurrencyBalance: "300",
        exchangeRate: "95.5",
        idTransactionMerchant: "pay-in-ru-1",
      }),
      detailsNameMediator: "Иван Петрович Сидоров",
      detailsBankName: "Сбербанк",
    },
  });
}, 60_000);
afterAll(async () => restore());

describe("a statement in Russian", () => {
  it("PDF: Russian labels in the Cyrillic font, amounts with a decimal comma, Russian page numbers", async () => {
    const doc = await readLiveStatement(period, "finance@test.local", "ru");
    const text = (await pdfText(await renderStatement(doc, renderers.pdf))).replace(/\s+/g, " ");
    expect(text).toContain("Выписка по счёту");
    expect(text).toContain("Входящий остаток");
    expect(text).toContain("Зачисление по платежу");
    expect(text).toContain("Иван Петрович Сидоров");
    expect(text).toMatch(
      /Проверка: входящий остаток \+ движения = исходящий остаток: 0,0000 \+ 9\s?700,0000 = 9\s?700,0000; Исходящий остаток 9\s?700,0000 — сходится/,
    );
    expect(text).toMatch(/Страница 1 .*Страница 2/);
    expect(text).not.toMatch(/Account statement|Closing balance|Page 1/);
  });

  it("XLSX: Russian sheet names and headings, numbers still numbers", async () => {
    const doc = await readLiveStatement(period, "finance@test.local", "ru");
    const bytes = await renderStatement(doc, renderers.xlsx);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    );
    expect(wb.worksheets.map((s) => s.name)).toEqual(["Итоги", "Проводки", "По дням", "Количество"]);
    const postings = wb.getWorksheet("Проводки")!;
    expect(postings.getRow(1).getCell(1).value).toBe("Дата и время");
    expect(postings.getRow(2).getCell(2).value).toBe("Зачисление по платежу");
    expect(postings.getRow(2).getCell(3).value).toBe(10000);
    const summary = wb
      .getWorksheet("Итоги")!
      .getSheetValues()
      .filter(Boolean)
      .map((r) => (r as unknown[]).slice(1, 3));
    expect(summary).toContainEqual(["Исходящий остаток", 9700]);
    expect(summary).toContainEqual(["Проверка: входящий остаток + движения = исходящий остаток", "сходится"]);
  });

  it("CSV: Russian labels, machine-readable amounts", async () => {
    const doc = await readLiveStatement(period, "finance@test.local", "ru");
    const csv = (await renderStatement(doc, renderers.csv)).toString("utf8");
    expect(csv).toContain("Выписка по счёту");
    expect(csv).toContain("Зачисление по платежу,10000.0000,0.0000,10000.0000");
    expect(csv.trimEnd().split("\r\n").at(-1)).toBe("Итого,,9700.0000,0.0000,9700.0000");
  });

  it("without a language the export is worded in the deployment's (English here), as it always was", async () => {
    const doc = await readLiveStatement(period, "finance@test.local");
    const csv = (await renderStatement(doc, renderers.csv)).toString("utf8");
    expect(csv).toContain("Account statement");
    expect(csv.trimEnd().split("\r\n").at(-1)).toBe("Totals,,9700.0000,0.0000,9700.0000");
  });
});
