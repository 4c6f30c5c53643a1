// An issued statement stands only while the ledger still gives its figures: a posting found late before
// the period (reconciliation learns of an operation of an earlier month) moves the opening and closing
// balances without touching one line of the period, and that supersedes the statement too, with what
// changed shown in both languages; the monthly job then issues the month again.
import { gunzipSync, gzipSync } from "node:zlib";
import { createElement, type ComponentProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NextIntlClientProvider } from "next-intl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IssuedList } from "@/components/statements/issued-list";
import { getDb } from "@/lib/db";
import type { StatementSummary } from "@/lib/ledger/statement";
import { Decimal } from "@/lib/money/decimal";
import { issueStatement, markSupersededStatements } from "@/lib/statements/issue";
import { issuedStatements } from "@/lib/statements/issued-list";
import { issueLastMonthIfCovered } from "@/lib/statements/upkeep";
import enStatements from "@/messages/en/statements.json";
import ruStatements from "@/messages/ru/statements.json";
import { isolateDatabase } from "../../support/database";
import { createStaff, insertOperations } from "../../support/mirror";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
}, 60_000);
afterAll(async () => restore());

const february = { from: new Date("2031-02-01T00:00:00Z"), to: new Date("2031-03-01T00:00:00Z"), tz: "UTC" };
const marchFifth = new Date("2031-03-05T12:00:00Z");

const payIn = (at: string, amount: string, commission: string) => ({
  typeOperation: "payIn" as const,
  status: "success" as const,
  dateAdded: new Date(at),
  dateUpdated: new Date(at),
  amountInCurrencyBalance: amount,
  amountComissionInCurrencyBalance: commission,
});

async function frozenTotals(id: string) {
  const row = await getDb().issuedStatement.findUniqueOrThrow({ where: { id } });
  return row.totals as Pick<StatementSummary, "opening" | "closing">;
}

type ProviderProps = ComponentProps<typeof NextIntlClientProvider>;
const render = (locale: "en" | "ru", statements: Awaited<ReturnType<typeof issuedStatements>>) =>
  renderToStaticMarkup(
    createElement(
      NextIntlClientProvider,
      {
        locale,
        timeZone: "UTC",
        messages: { statements: locale === "en" ? enStatements : ruStatements },
      } as ProviderProps,
      createElement(IssuedList, { statements }),
    ),
  );

describe("a statement whose opening and closing balances changed", () => {
  it("is superseded by a posting found late before its period, with the balances named, and issued again", async () => {
    const db = getDb();
    await insertOperations([payIn("2031-02-10T10:00:00Z", "50", "1")]);
    const staff = await createStaff("finance");
    const { id } = await issueStatement(february, { id: staff.id, email: staff.email });
    expect(await frozenTotals(id)).toMatchObject({
      opening: { available: "0.0000", holds: "0.0000" },
      closing: { available: "49.0000", holds: "0.0000" },
    });
    expect(await markSupersededStatements(marchFifth)).toBe(0);
    // A reconciliation that covers February has run: the month stands, nothing to issue.
    await db.reconciliationRun.create({
      data: {
        kind: "full",
        status: "completed",
        startedAt: new Date("2031-03-02T00:00:00Z"),
        finishedAt: new Date("2031-03-02T00:10:00Z"),
      },
    });
    expect(await issueLastMonthIfCovered(marchFifth)).toBeNull();

    // The next reconciliation finds a January pay-in: February now runs 97 -> 146, not one of its lines moved.
    await insertOperations([payIn("2031-01-20T10:00:00Z", "100", "3")]);
    expect(await markSupersededStatements(marchFifth)).toBe(1);
    const row = await db.issuedStatement.findUniqueOrThrow({ where: { id } });
    expect(row.supersededAt).toEqual(marchFifth);
    expect(row.changes).toEqual({
      total: 0,
      listed: [],
      figures: [
        { figure: "opening", before: "0.0000", now: "97.0000" },
        { figure: "closing", before: "49.0000", now: "146.0000" },
      ],
    });
    // Marked once: a later run leaves it as it is.
    expect(await markSupersededStatements(new Date("2031-03-06T00:00:00Z"))).toBe(0);

    // The monthly job issues February again, from the ledger as it is now.
    const again = await issueLastMonthIfCovered(marchFifth);
    expect(again).not.toBeNull();
    expect(again).not.toBe(id);
    expect(await frozenTotals(again!)).toMatchObject({
      opening: { available: "97.0000" },
      closing: { available: "146.0000" },
    });
    expect(await markSupersededStatements(marchFifth)).toBe(0);

    // The list says why, in both languages.
    const listed = (await issuedStatements()).filter((s) => s.id === id);
    const en = render("en", listed);
    expect(en).toContain("Opening balance changed: 0.0000 at issue, 97.0000 now");
    expect(en).toContain("Closing balance changed: 49.0000 at issue, 146.0000 now");
    const ru = render("ru", listed);
    expect(ru).toContain("Входящий остаток изменился: 0,0000 при выпуске, 97,0000 сейчас");
    expect(ru).toContain("Исходящий остаток изменился: 49,0000 при выпуске, 146,0000 сейчас");
  });

  it("a pay-out's hold found late before the period changes the held figures too", async () => {
    const db = getDb();
    const march = { from: new Date("2031-03-01T00:00:00Z"), to: new Date("2031-04-01T00:00:00Z"), tz: "UTC" };
    const { id } = await issueStatement(march, { id: null, email: "finance@test.local" });
    const before = await frozenTotals(id);
    await insertOperations([
      {
        typeOperation: "payOut",
        status: "in_progress",
        dateAdded: new Date("2031-02-20T10:00:00Z"),
        amountInCurrencyBalance: "10",
        amountComissionInCurrencyBalance: "0.5",
      },
    ]);
    expect(await markSupersededStatements(new Date("2031-04-02T00:00:00Z"))).toBeGreaterThanOrEqual(1);
    const row = await db.issuedStatement.findUniqueOrThrow({ where: { id } });
    expect(row.supersededAt).not.toBeNull();
    const less = (v: string) => new Decimal(v).minus("10.5").toFixed(4);
    const more = (v: string) => new Decimal(v).plus("10.5").toFixed(4);
    expect(row.changes).toEqual({
      total: 0,
      listed: [],
      figures: [
        { figure: "opening", before: before.opening.available, now: less(before.opening.available) },
        { figure: "openingHolds", before: before.opening.holds, now: more(before.opening.holds) },
        { figure: "closing", before: before.closing.available, now: less(before.closing.available) },
        { figure: "closingHolds", before: before.closing.holds, now: more(before.closing.holds) },
      ],
    });
  });

  it("a statement frozen while it did not add up in itself is superseded too", async () => {
    const db = getDb();
    const april = { from: new Date("2031-04-01T00:00:00Z"), to: new Date("2031-05-01T00:00:00Z"), tz: "UTC" };
    await insertOperations([payIn("2031-04-03T10:00:00Z", "7", "0")]);
    const { id } = await issueStatement(april, { id: null, email: "finance@test.local" });
    expect(await markSupersededStatements(new Date("2031-05-02T00:00:00Z"))).toBe(0);
    // As statements issued before one snapshot was read could be: movements 6 over lines that sum to 7.
    const row = await db.issuedStatement.findUniqueOrThrow({ where: { id } });
    const frozen = JSON.parse(gunzipSync(row.content).toString("utf8")) as { summary: StatementSummary };
    const movements = new Decimal(frozen.summary.totals.movements);
    frozen.summary.totals.movements = movements.minus(1).toFixed(4);
    await db.issuedStatement.update({
      where: { id },
      data: { content: gzipSync(JSON.stringify(frozen)) },
    });
    expect(await markSupersededStatements(new Date("2031-05-02T00:00:00Z"))).toBe(1);
    const marked = await db.issuedStatement.findUniqueOrThrow({ where: { id } });
    expect(marked.changes).toEqual({
      total: 0,
      listed: [],
      figures: [{ figure: "movements", before: movements.minus(1).toFixed(4), now: movements.toFixed(4) }],
    });
  });
});
