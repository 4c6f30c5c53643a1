import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { csvStream, exportHeader, exportOperationsCsv } from "@/lib/operations/export";
import { parseOperationFilter } from "@/lib/operations/filter";
import { insertOperations } from "../../support/mirror";

// This file owns the year 2005 of the mirror.
const big = randomUUID();
const quoted = randomUUID();

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

  it("streams every row across batches exactly once", async () => {
    const r = parseOperationFilter(new URLSearchParams("from=2005-06-01&to=2005-06-30"));
    if (!r.ok) throw new Error("bad filter");
    let chunks = 0;
    const ids = new Set<string>();
    let rows = 0;
    for await (const chunk of exportOperationsCsv(r.filter, null)) {
      chunks++;
      for (const line of chunk
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
