import { randomUUID } from "node:crypto";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { permissions } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db";
import { issueStatement, issuedFile, markSupersededStatements } from "@/lib/statements/issue";
import type { StatementPeriod } from "@/lib/ledger/statement";
import { renderers } from "@/lib/statements/respond";
import { isolateDatabase } from "../../support/database";
import { pdfText, readLiveStatement, renderStatement } from "../../support/statement-files";
import { createStaff, mirrorRow } from "../../support/mirror";

let restore: () => Promise<void>;
const T0 = Date.parse("2031-03-01T00:00:00Z");
const HOUR = 3_600_000;
const period: StatementPeriod = {
  from: new Date(T0),
  to: new Date(T0 + 10 * 24 * HOUR),
  tz: "Europe/Moscow",
};
const payoutId = randomUUID();

beforeAll(async () => {
  restore = await isolateDatabase();
  const rows = [
    {
      ...mirrorRow({
        dateAdded: new Date(T0 + HOUR),
        dateUpdated: new Date(T0 + 2 * HOUR),
        status: "success",
        amount: "9550",
        amountInCurrencyBalance: "100",
        amountComissionInCurrencyBalance: "3",
        exchangeRate: "95.5",
        idTransactionMerchant: "pay-in-1",
      }),
      detailsNameMediator: "Иван Петрович Сидоров",
      detailsBankName: "Сбербанк",
    },
    mirrorRow({
      id: payoutId,
      typeOperation: "payOut",
      dateAdded: new Date(T0 + 3 * HOUR),
      dateUpdated: new Date(T0 + 3 * HOUR),
      status: "in_progress",
      amount: "1910",
      amountInCurrencyBalance: "20",
      amountComissionInCurrencyBalance: "0.4",
      idTransactionMerchant: "pay-out-1",
    }),
  ];
  await getDb().operation.createMany({ data: rows });
}, 60_000);
afterAll(async () => restore());

describe("statement exports", () => {
  it("XLSX read back by exceljs holds the statement: numbers with 4 decimals, frozen header, totals", async () => {
    const doc = await readLiveStatement(period, "finance@test.local");
    expect(doc.summary.check.ok).toBe(true);
    expect(doc.summary.closing.available).toBe("76.6000");
    const wb = new ExcelJS.Workbook();
    const bytes = await renderStatement(doc, renderers.xlsx);
    await wb.xlsx.load(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    );
    const sheet = wb.getWorksheet("Postings")!;
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    const rows = sheet.getSheetValues().filter(Boolean) as unknown[][];
    // header, pay-in credit and commission, pay-out hold, totals
    expect(rows).toHaveLength(5);
    const amounts = rows.slice(1, 4).map((r) => r[3]);
    expect(amounts).toEqual([100, -3, -20.4]);
    expect(sheet.getRow(2).getCell(3).numFmt).toBe("#,##0.0000");
    expect(rows[1]![14]).toBe("Иван Петрович Сидоров");
    expect(rows[4]!.slice(1, 6)).toEqual(["Totals", undefined, 76.6, 20.4, 76.6]);
    const summary = wb.getWorksheet("Summary")!;
    const values = summary
      .getSheetValues()
      .filter(Boolean)
      .map((r) => (r as unknown[]).slice(1, 3));
    expect(values).toContainEqual(["Closing balance", 76.6]);
    expect(values).toContainEqual(["Check: opening + movements = closing", "adds up"]);
  });

  it("PDF text extracted holds the header, Cyrillic names, the check line and page numbers", async () => {
    const doc = await readLiveStatement(period, "finance@test.local");
    const text = await pdfText(await renderStatement(doc, renderers.pdf));
    expect(text).toContain("Иван Петрович Сидоров");
    expect(text).toContain("Сбербанк");
    expect(text).toContain("Europe/Moscow");
    expect(text).toContain("finance@test.local");
    expect(text).toMatch(/0\.0000 \+ 76\.6000 = 76\.6000; Closing balance 76\.6000 — adds up/);
    // Numbered as each page begins: the number of pages is not known then (lib/statements/pdf.ts).
    const pages = text.split("\n").filter(Boolean);
    expect(pages.map((page) => /\bPage (\d+)\b/.exec(page)?.[1])).toEqual(["1", "2"]);
    expect(text).not.toMatch(/Page \d+ of/);
  });

  it("CSV carries every posting and the totals line", async () => {
    const doc = await readLiveStatement(period, "finance@test.local");
    const csv = (await renderStatement(doc, renderers.csv)).toString("utf8");
    expect(csv).toContain("Pay-in credit,100.0000,0.0000,100.0000");
    expect(csv).toContain("Иван Петрович Сидоров");
    expect(csv.trimEnd().split("\r\n").at(-1)).toBe("Totals,,76.6000,20.4000,76.6000");
  });
});

describe("issued statements", () => {
  it("downloading again gives the same bytes; a late final status supersedes it with the change listed", async () => {
    const staff = await createStaff("finance");
    const { id, contentHash } = await issueStatement(period, { id: staff.id, email: staff.email });
    expect(contentHash).toMatch(/^[0-9a-f]{64}$/);
    const first = await issuedFile(id, "pdf", renderers.pdf);
    const again = await issuedFile(id, "pdf", renderers.pdf);
    expect(first!.equals(again!)).toBe(true);
    expect(await markSupersededStatements()).toBe(0);

    // The pay-out failed inside the period; the mirror learns it only now.
    const failedAt = new Date(T0 + 5 * HOUR);
    await getDb().$transaction(async (tx) => {
      await tx.operation.update({
        where: { id: payoutId },
        data: { status: "failed", dateUpdated: failedAt },
      });
      await tx.operationStatusChange.create({
        data: {
          operationId: payoutId,
          fromStatus: "in_progress",
          toStatus: "failed",
          source: "reconciliation",
          platformDateUpdated: failedAt,
        },
      });
    });
    expect(await markSupersededStatements()).toBe(1);
    const row = await getDb().issuedStatement.findUniqueOrThrow({ where: { id } });
    expect(row.supersededAt).not.toBeNull();
    expect(row.changes).toEqual({
      total: 1,
      listed: [
        {
          change: "added",
          key: payoutId,
          kind: "payOutRelease",
          at: failedAt.toISOString(),
          amount: "20.4000",
        },
      ],
      // The release also moved the closing balance, what was held at the end and the movements.
      figures: [
        { figure: "closing", before: "76.6000", now: "97.0000" },
        { figure: "closingHolds", before: "20.4000", now: "0.0000" },
        { figure: "movements", before: "76.6000", now: "97.0000" },
      ],
    });
    // The issued bytes stay what they were.
    expect((await issuedFile(id, "pdf", renderers.pdf))!.equals(first!)).toBe(true);
    const auditRow = await getDb().auditLog.findFirst({
      where: { action: "statements.issue", targetId: id },
    });
    expect(auditRow?.actorUserId).toBe(staff.id);
  });

  it("the same period issued twice at once is one standing statement, issued and audited once", async () => {
    const staff = await createStaff("finance");
    const actor = { id: staff.id, email: staff.email };
    // Before the fixture's operations: a later change to them leaves this statement as it is.
    const february: StatementPeriod = { from: new Date("2031-02-01T00:00:00Z"), to: new Date(T0), tz: "UTC" };
    const [a, b] = await Promise.all([issueStatement(february, actor), issueStatement(february, actor)]);
    expect(b).toEqual(a);
    const standing = await getDb().issuedStatement.findMany({
      where: { periodFrom: february.from, periodTo: february.to, timeZone: "UTC", supersededAt: null },
      select: { id: true },
    });
    expect(standing).toEqual([{ id: a.id }]);
    expect(await getDb().auditLog.count({ where: { action: "statements.issue", targetId: a.id } })).toBe(1);
  });
});

describe("permission matrix", () => {
  it("statements and annotations belong to finance and admin, not support", () => {
    expect(permissions["statements.read"]).toEqual(["admin", "finance"]);
    expect(permissions["statements.issue"]).toEqual(["admin", "finance"]);
    expect(permissions["balance.annotate"]).toEqual(["admin", "finance"]);
  });
});
