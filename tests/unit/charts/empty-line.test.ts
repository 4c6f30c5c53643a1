// A period whose operations are all still in flight gives success-rate rows whose rate is null
// (lib/charts/queries.ts successRate). The balance page drew the chart all the same and its axis, computed
// from no values, was NaN everywhere ("NaN%"): it now shows the chart's empty state, and the line chart
// draws nothing when it has no value.
import { NextIntlClientProvider } from "next-intl";
import { createElement, type ComponentProps, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import BalanceCharts, { type ChartsData } from "@/components/balance/charts";
import { LineSvgChart } from "@/components/balance/svg-chart";
import enBalance from "@/messages/en/balance.json";
import ruBalance from "@/messages/ru/balance.json";

type ProviderProps = ComponentProps<typeof NextIntlClientProvider>;

function render(node: ReactElement, locale: "en" | "ru" = "en"): string {
  const messages = { balance: locale === "en" ? enBalance : ruBalance };
  const props = { locale, timeZone: "UTC", messages, children: node } as ProviderProps;
  return renderToStaticMarkup(createElement(NextIntlClientProvider, props));
}

const charts = (data: Partial<ChartsData>) =>
  createElement(BalanceCharts, {
    data: { balance: [], volume: [], successRate: [], timeToFinal: [], ...data },
  });

const inFlight = [
  { day: "2030-06-01", typeOperation: "payIn" as const, succeeded: 0, finished: 0, rate: null },
  { day: "2030-06-01", typeOperation: "payOut" as const, succeeded: 0, finished: 0, rate: null },
  { day: "2030-06-02", typeOperation: "payIn" as const, succeeded: 0, finished: 0, rate: null },
];

describe("the success-rate chart of a period with no finished operation", () => {
  it.each(["en", "ru"] as const)("shows the empty state, not a NaN axis (%s)", (locale) => {
    const html = render(charts({ successRate: inFlight }), locale);
    expect(html).not.toContain("NaN");
    expect(html).not.toContain('data-testid="chart-success-rate"');
    const words = locale === "en" ? enBalance : ruBalance;
    const empty = words.charts.noData.replace("{title}", words.charts.successRate);
    expect(html).toContain(empty);
  });

  it("is drawn as soon as one day has a rate, the in-flight days skipped", () => {
    const html = render(
      charts({ successRate: [...inFlight, { ...inFlight[2]!, day: "2030-06-03", rate: "50.00" }] }),
    );
    expect(html).toContain('data-testid="chart-success-rate"');
    expect(html).not.toContain("NaN");
    expect(html).toContain("2030-06-03 · pay-ins: 50%");
  });
});

describe("the line chart", () => {
  const series = [{ key: "rate", label: "Rate", color: "#059669" }];

  it("draws nothing when no point has a value", () => {
    for (const data of [
      [],
      [{ x: "2030-06-01", values: { rate: null } }],
      [{ x: "2030-06-01", values: {} }],
    ]) {
      expect(render(createElement(LineSvgChart, { label: "Rate", data, series, unit: "%" }))).toBe("");
    }
  });

  it("places no point at NaN when values and nulls mix", () => {
    const data = [
      { x: "2030-06-01", values: { rate: null } },
      { x: "2030-06-02", values: { rate: 75 } },
    ];
    const html = render(createElement(LineSvgChart, { label: "Rate", data, series, unit: "%" }));
    expect(html).toContain("<svg");
    expect(html).not.toContain("NaN");
  });
});
