// The balance page's charts are server-rendered SVG: exact amounts in the tooltips, one bar segment per
// status, no chart code for the browser.
import { NextIntlClientProvider } from "next-intl";
import { createElement, type ComponentProps, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import BalanceCharts, { type ChartsData } from "@/components/balance/charts";
import enBalance from "@/messages/en/balance.json";
import ruBalance from "@/messages/ru/balance.json";

type ProviderProps = ComponentProps<typeof NextIntlClientProvider>;
const withLanguage = (props: Omit<ProviderProps, "children">, child: ReactNode) =>
  createElement(NextIntlClientProvider, props as ProviderProps, child);

const data: ChartsData = {
  balance: [
    { at: "2026-11-20 10:00", amountInCurrencyBalance: "1000.1234", currencyBalance: "USDT" },
    { at: "2026-11-21 10:00", amountInCurrencyBalance: "1250.0001", currencyBalance: "USDT" },
  ],
  volume: [
    {
      day: "2026-11-20",
      typeOperation: "payIn",
      currency: "RUB",
      status: "success",
      amount: "150000.5",
      count: 3,
    },
    {
      day: "2026-11-20",
      typeOperation: "payIn",
      currency: "RUB",
      status: "failed",
      amount: "2000",
      count: 1,
    },
    {
      day: "2026-11-21",
      typeOperation: "payIn",
      currency: "RUB",
      status: "success",
      amount: "99.9999",
      count: 1,
    },
  ],
  successRate: [{ day: "2026-11-20", typeOperation: "payIn", rate: "75", finals: 4 }],
  timeToFinal: [],
} as unknown as ChartsData;

// The charts take their words from the catalogs, as the page's provider hands them down.
const render = (locale: "en" | "ru") =>
  renderToStaticMarkup(
    withLanguage(
      {
        locale,
        timeZone: "UTC",
        messages: { balance: locale === "en" ? enBalance : ruBalance },
      },
      createElement(BalanceCharts, { data }),
    ),
  );

describe("balance charts", () => {
  const html = render("en");

  it("draws each chart as SVG with the exact values in its tooltips", () => {
    expect(html).toContain('data-testid="chart-balance"');
    expect(html).toContain('data-testid="chart-volume-payIn"');
    expect(html).toContain("<svg");
    expect(html).toContain("1,250.0001 USDT");
    expect(html).toContain("150,000.5 RUB");
    expect(html).toContain("99.9999 RUB");
    expect(html.match(/<rect /g)?.length).toBe(3);
  });

  it("names each picture and gives a screen reader its values as a table", () => {
    const svgs = html.match(/<svg [^>]*role="img"[^>]*>/g) ?? [];
    expect(svgs.length).toBe(3);
    for (const svg of svgs) expect(svg).toMatch(/aria-label="[^"]+"/);
    expect(html).toContain('aria-label="Pay-ins: daily volume by status (RUB)"');
    const tables = html.match(/<div class="sr-only"><table>.*?<\/table><\/div>/g) ?? [];
    expect(tables.length).toBe(3);
    const volume = tables.find((t) =>
      t.includes("<caption>Pay-ins: daily volume by status (RUB)</caption>"),
    )!;
    // a row per day, a column per status; a status without an amount that day is a dash
    expect(volume).toContain('<th scope="row">2026-11-21</th><td>99.9999 RUB</td><td>—</td>');
    expect(volume).toContain('<th scope="row">2026-11-20</th><td>150,000.5 RUB</td><td>2,000 RUB</td>');
  });

  it("says when a chart has no data", () => {
    expect(html).toContain("Pay-outs: daily volume: no data in this period.");
    expect(html).toContain("Median time to a final status: no data in this period.");
  });

  it("speak Russian to a Russian reader: titles, legends, status names and numbers with a decimal comma", () => {
    const ru = render("ru");
    expect(ru).toContain("Выплаты: объём по дням: за этот период данных нет.");
    expect(ru).toContain("Медианное время до финального статуса: за этот период данных нет.");
    expect(ru).toContain("Платежи: объём по дням и статусам (RUB)");
    expect(ru).toContain("успешна");
    expect(ru).toContain("неуспешна");
    // exact amounts, every digit kept, as Russian writes them
    expect(ru).toContain("1\u00a0250,0001 USDT");
    expect(ru).toContain("150\u00a0000,5 RUB");
    // days on the axis as Russian writes them (day.month)
    expect(ru).toContain(">20.11<");
    expect(ru).not.toContain("no data in this period");
  });
});
