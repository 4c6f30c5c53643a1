// The error panel speaks the reader's language; the global error page (no language provider: the root
// layout itself failed) renders on the server in both languages until the browser names its own.
import { NextIntlClientProvider } from "next-intl";
import { createElement, type ComponentProps, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import GlobalError from "@/app/global-error";
import { ErrorPanel } from "@/components/errors/error-panel";
import { databaseUnavailableDigest } from "@/lib/errors/digest";
import enErrors from "@/messages/en/errors.json";
import ruErrors from "@/messages/ru/errors.json";

type ProviderProps = ComponentProps<typeof NextIntlClientProvider>;
const withLanguage = (props: Omit<ProviderProps, "children">, child: ReactNode) =>
  createElement(NextIntlClientProvider, props as ProviderProps, child);

const REQUEST_ID = "0b6c6a8e-3f7e-4f7a-9d59-2f1f0c1e7a11";
const retry = () => {};

function panel(locale: "en" | "ru", error: unknown) {
  return renderToStaticMarkup(
    withLanguage(
      {
        locale,
        timeZone: "UTC",
        messages: { errors: locale === "en" ? enErrors : ruErrors },
      },
      createElement(ErrorPanel, { error, retry }),
    ),
  );
}

describe("error panel", () => {
  it("names an unavailable database in Russian, with the request id to quote", () => {
    const html = panel("ru", { digest: databaseUnavailableDigest(REQUEST_ID) });
    expect(html).toContain("База данных недоступна");
    expect(html).toContain("Если ошибка повторяется, сообщите в поддержку:");
    expect(html).toContain("ID запроса");
    expect(html).toContain(REQUEST_ID);
    expect(html).toContain("Повторить");
  });

  it("reads in English as it always did", () => {
    const html = panel("en", { digest: "1234567" });
    expect(html).toContain("Something went wrong on our side");
    expect(html).toContain("Error reference");
    expect(html).toContain("Try again");
    expect(html).toContain("Back to the console");
  });
});

describe("global error page", () => {
  it("without the browser's language (the server's render) says it in both languages", () => {
    const html = renderToStaticMarkup(createElement(GlobalError, { error: { digest: "42" }, retry }));
    expect(html).toContain("На нашей стороне что-то пошло не так");
    expect(html).toContain("Something went wrong on our side");
    expect(html).toContain("<title>Ошибка · Error · Paydesk</title>");
    expect(html).toMatch(/<div lang="en">/);
  });
});
