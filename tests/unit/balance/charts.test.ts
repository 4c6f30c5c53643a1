// The balance page's charts are server-rendered SVG: exact amounts in the tooltips, one bar segment per
// status, no chart code for the browser.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import BalanceCharts, { type ChartsData } from "@/components/balance/charts";

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

describe("balance charts", () => {
  const html = renderToStaticMarkup(createElement(BalanceCharts, { data }));

  it("draws each chart as SVG with the exact values in its tooltips", () => {
    expect(html).toContain('data-testid="chart-balance"');
    expect(html).toContain('data-testid="chart-volume-payIn"');
    expect(html).toContain("<svg");
    expect(html).toContain("1250.0001 USDT");
    expect(html).toContain("150000.5 RUB");
    expect(html).toContain("99.9999 RUB");
    expect(html.match(/<rect /g)?.length).toBe(3);
  });

  it("says when a chart has no data", () => {
    expect(html).toContain("Pay-outs: daily volume: no data in this period.");
    expect(html).toContain("Median time to a final status: no data in this period.");
  });
});
