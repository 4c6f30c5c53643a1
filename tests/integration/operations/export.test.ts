import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { csvCell, csvLine } from "@/lib/csv/encode";
import { csvStream } from "@/lib/csv/stream";
import { exportHeader, exportOperationsCsv } from "@/lib/operations/export/operations-csv";
import { parseOperationFilter } from "@/lib/operations/list/filter";
import { maskNumber } from "@/lib/recipients/mask";
import { Decimal } from "@/lib/money/decimal";
import { formatInZoneIso } from "@/lib/time/zone";
import { insertOperations, mirrorRow } from "../../support/mirror";

// This file owns the year 2005 of the mirror.
const big = randomUUID();
const quoted = randomUUID();
// The full-width forms of = + - @ (U+FF1D, U+FF0B, U+FF0D, U+FF20): spreadsheets may read them as formulas.
const fullWidth = ['\uFF1DHYPERLINK("x")', "\uFF0B1+1", "\uFF0D1+1", "\uFF20SUM(A1)"];
const fullWidthTag = randomUUID();

beforeAll(async () => {
  await insertOperations([
    {
      id: big,
      dateAdded: new Date("2005-03-01T21:30:00.123Z"),
      dateUpdated: new Date("2005-03-01T21:35:00.000Z"),
      status: "success",
      amount: "922337203685477.5807",
      amountComission: "0.0001",
      amountInCurrencyBalance: "9658085902465.7377",
      amountComissionInCurrencyBalance: "0",
      exchangeRate: "95.50000001",
      detailsNumber: "4276000011113333",
    },
    {
      id: quoted,
      dateAdded: new Date("2005-03-01T10:00:00.000Z"),
      idTransactionMerchant: `=HYPERLINK("x"),${randomUUID()}`,
      typeOperation: "payOut",
      amountInCurrencyBalance: null,
      detailsNumber: null,
    },
    ...fullWidth.map((text, i) => ({
      dateAdded: new Date(Date.UTC(2005, 3, 1, 0, 0, i)),
      idTransactionMerchant: `${text}${fullWidthTag}-${i}`,
      detailsBankName: text,
    })),
    // 2,500 more rows: several batches
    ...Array.from({ length: 2500 }, (_, i) => ({ dateAdded: new Date(Date.UTC(2005, 5, 1) + i * 1000) })),
  ]);
});

async function exportText(query: string): Promise<string> {
  const r = parseOperationFilter(new URLSearchParams(query));
  if (!r.ok) throw new Error(JSON.stringify(r.fieldErrors));
  return new Response(csvStream(exportOperationsCsv(r.filter, "USDT"))).text();
}

function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quotedCell = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quotedCell) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quotedCell = false;
      else cell += ch;
    } else if (ch === '"') quotedCell = true;
    else if (ch === ",") {
      cells.push(cell);
      cell = "";
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}

describe("CSV export", () => {
  it("writes exact decimals, both currencies and dates in the chosen zone and in UTC", async () => {
    const text = await exportText("from=2005-03-01&to=2005-03-02&tz=Europe/Moscow");
    const lines = text.split("\r\n").filter(Boolean);
    expect(lines[0]).toBe(exportHeader.join(","));
    expect(lines).toHaveLength(3);
    const header = lines[0]!.split(",");
    const row = Object.fromEntries(parseCsvLine(lines[1]!).map((v, i) => [header[i], v]));
    expect(row).toMatchObject({
      id: big,
      status: "success",
      dateAdded: "2005-03-02T00:30:00.123+03:00",
      dateAddedUtc: "2005-03-01T21:30:00.123Z",
      dateUpdated: "2005-03-02T00:35:00.000+03:00",
      currency: "RUB",
      amount: "922337203685477.5807",
      amountComission: "0.0001",
      currencyBalance: "USDT",
      amountInCurrencyBalance: "9658085902465.7377",
      amountComissionInCurrencyBalance: "0",
      exchangeRate: "95.50000001",
      recipientNumber: "************3333",
    });
    expect(text).not.toContain("4276000011113333");
  });

  it("quotes cells and defuses spreadsheet formulas", async () => {
    const text = await exportText(`from=2005-03-01&to=2005-03-02&q=${quoted}`);
    const line = text.split("\r\n")[1]!;
    expect(line).toContain(`"'=HYPERLINK(""x""),`);
    const cells = parseCsvLine(line);
    expect(cells[exportHeader.indexOf("currencyBalance")]).toBe("");
    expect(cells[exportHeader.indexOf("amountInCurrencyBalance")]).toBe("");
  });

  it.each(fullWidth.map((text, i) => [text, i] as const))(
    "defuses the full-width formula character of %s in both encoders",
    async (text, i) => {
      expect(csvCell(text, { text: true })).toMatch(/^"?'/);
      const csv = await exportText("from=2005-04-01&to=2005-04-01");
      const line = csv.split("\r\n").find((l) => l.includes(`${fullWidthTag}-${i}`))!;
      const cells = parseCsvLine(line);
      expect(cells[exportHeader.indexOf("idTransactionMerchant")]).toMatch(/^'/);
      expect(cells[exportHeader.indexOf("bankName")]).toBe(`'${text}`);
    },
  );

  it("streams every row across batches exactly once", async () => {
    const r = parseOperationFilter(new URLSearchParams("from=2005-06-01&to=2005-06-30"));
    if (!r.ok) throw new Error("bad filter");
    let chunks = 0;
    const ids = new Set<string>();
    let rows = 0;
    const decoder = new TextDecoder();
    for await (const chunk of exportOperationsCsv(r.filter, null)) {
      chunks++;
      // Every chunk ends at the end of a line.
      expect(chunk.at(-1)).toBe(10);
      for (const line of decoder
        .decode(chunk)
        .split("\r\n")
        .filter(Boolean)
        .slice(chunks === 1 ? 1 : 0)) {
        ids.add(line.split(",")[0]!);
        rows++;
      }
    }
    expect(rows).toBe(2500);
    expect(ids.size).toBe(2500);
    expect(chunks).toBeGreaterThan(2);
  });
});

// The lines are written by PostgreSQL; the TypeScript rules (csvCell, formatInZoneIso, maskNumber) are
// the reference they must match, cell for cell, across zones, DST changes and awkward text.
describe("CSV export lines match the reference rules", () => {
  const awkward = [
    "plain",
    "with,comma",
    'with "quotes"',
    "line\nbreak",
    "carriage\rreturn",
    "=SUM(A1)",
    "+1",
    "-1",
    "@cmd",
    "\tTabbed",
    ...fullWidth,
    "back\\slash",
    "кириллица",
    "",
  ];
  const numbers = [null, "", "1", "1234", "12345", "+79990001122", "40817810099910004312", "12,34"];
  // Around the end of summer time on 2005-10-30 in Europe and North America, and in zones with odd offsets.
  const instants = [
    "2005-09-15T12:00:00.000Z",
    "2005-10-29T22:59:59.999Z",
    "2005-10-29T23:00:00.000Z",
    "2005-10-30T00:30:00.001Z",
    "2005-10-30T01:00:00.000Z",
    "2005-10-30T05:59:59.500Z",
    "2005-10-30T06:00:00.000Z",
    "2005-12-20T23:45:00.250Z",
  ].map((iso) => new Date(iso));
  const zones = [
    "UTC",
    "Europe/Moscow",
    "Europe/London",
    "America/New_York",
    "America/St_Johns",
    "Asia/Kathmandu",
    "Australia/Lord_Howe",
    "Pacific/Chatham",
  ];
  const rows = instants.flatMap((dateAdded, i) =>
    awkward.map((text, j) => ({
      id: randomUUID(),
      dateAdded: new Date(dateAdded.getTime() + j),
      dateUpdated: j % 3 === 0 ? null : new Date(dateAdded.getTime() + 3_600_000 * (j + 1)),
      idTransactionMerchant: `${text}${i}-${j}`,
      detailsBankName: j % 4 === 0 ? null : text,
      paymentMethod: j % 5 === 0 ? null : text || "toCard",
      detailsNumber: numbers[(i + j) % numbers.length]!,
      currency: j % 2 ? "RUB" : "=RUB",
      amount: `${i}.${j}`,
      amountInCurrencyBalance: j % 6 === 0 ? null : `0.${j}`,
    })),
  );

  beforeAll(async () => {
    await insertOperations(rows);
  });

  // Amounts as the database keeps them (numeric, trailing zeros dropped).
  const decimal = (value: string | null) => (value === null ? null : new Decimal(value).toFixed());

  function reference(row: (typeof rows)[number], tz: string, balanceCurrency: string): string {
    const stored = mirrorRow(row);
    return csvLine([
      csvCell(stored.id),
      csvCell(stored.idTransactionMerchant, { text: true }),
      csvCell(stored.typeOperation),
      csvCell(stored.status),
      csvCell(formatInZoneIso(stored.dateAdded, tz)),
      csvCell(stored.dateAdded.toISOString()),
      csvCell(stored.dateUpdated ? formatInZoneIso(stored.dateUpdated, tz) : null),
      csvCell(stored.dateUpdated?.toISOString() ?? null),
      csvCell(stored.paymentMethod, { text: true }),
      csvCell(stored.detailsBankName, { text: true }),
      csvCell(stored.detailsNumber === null ? null : maskNumber(stored.detailsNumber)),
      csvCell(stored.currency, { text: true }),
      csvCell(decimal(stored.amountInitial)),
      csvCell(decimal(stored.amount)),
      csvCell(decimal(stored.amountComission)),
      csvCell(stored.amountInCurrencyBalance === null ? null : balanceCurrency),
      csvCell(decimal(stored.amountInCurrencyBalance)),
      csvCell(decimal(stored.amountComissionInCurrencyBalance)),
      csvCell(decimal(stored.exchangeRate)),
    ]);
  }

  it.each(zones)("in %s", async (tz) => {
    const r = parseOperationFilter(new URLSearchParams(`from=2005-09-10&to=2005-12-25&tz=${tz}`));
    if (!r.ok) throw new Error(JSON.stringify(r.fieldErrors));
    const text = await new Response(csvStream(exportOperationsCsv(r.filter, "=USD"))).text();
    const expected = [...rows]
      .sort((a, b) => b.dateAdded.getTime() - a.dateAdded.getTime() || (a.id < b.id ? 1 : -1))
      .map((row) => reference(row, tz, "=USD"));
    expect(text).toBe(csvLine([...exportHeader]) + expected.join(""));
  });
});
