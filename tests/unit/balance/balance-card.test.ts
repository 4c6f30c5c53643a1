// Where the balance's rate comes from: the spec takes it from the merchant's last successfully completed
// operation, so the card names that operation by the moment it completed. It showed the moment the
// operation was added, which for an operation added early and completed late pointed at the wrong time.
import { NextIntlClientProvider } from "next-intl";
import { createElement, type ComponentProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BalanceCard } from "@/components/balance/balance-card";
import enBalance from "@/messages/en/balance.json";
import ruBalance from "@/messages/ru/balance.json";

type ProviderProps = ComponentProps<typeof NextIntlClientProvider>;

const balance = {
  amountInCurrencyBalance: "1000.5",
  currencyBalance: "USDT",
  amountInCurrencyPayment: "95047.5",
  currencyPayment: "RUB",
  exchangeRate: "95",
  traceID: "trace-1",
  fetchedAt: "2026-03-02T12:00:00.000Z",
};
const rateSource = {
  operationId: "0b7a3c1e-2f4d-4e5a-9b6c-7d8e9f0a1b2c",
  exchangeRate: "95",
  dateAdded: new Date("2026-03-01T08:00:00Z"),
  completedAt: new Date("2026-03-01T21:30:00Z"),
};

const render = (locale: "en" | "ru") =>
  renderToStaticMarkup(
    createElement(
      NextIntlClientProvider,
      {
        locale,
        timeZone: "UTC",
        messages: { balance: locale === "en" ? enBalance : ruBalance },
      } as ProviderProps,
      createElement(BalanceCard, { balance, rateSource, timeZone: "Europe/Moscow" }),
    ),
  );

describe("the balance card's rate source", () => {
  it.each(["en", "ru"] as const)(
    "%s: names the operation by when it completed, in the user's zone",
    (locale) => {
      const html = render(locale);
      expect(html).toContain(`href="/operations/${rateSource.operationId}"`);
      // 21:30 UTC on 1 March is 00:30 on 2 March in Moscow; it was added at 11:00 Moscow time on 1 March
      const completed = { en: "2026-03-02 00:30:00 Europe/Moscow", ru: "02.03.2026 00:30:00 Europe/Moscow" };
      expect(html).toContain(`>${completed[locale]}</a>`);
      expect(html).not.toContain("11:00:00");
    },
  );

  it("says so in both languages", () => {
    expect(render("en")).toContain("last successfully completed operation");
    expect(render("ru")).toContain("последней успешно завершённой операции");
  });
});
