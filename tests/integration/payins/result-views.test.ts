// What the pay-in form shows after an answer (components/payins/payin-forms.tsx), in both languages: a
// QR code the platform sent with the details is drawn for the client; a first answer without details is
// not called "already sent"; a payment link whose answer was lost says so, with the operation's id.
import { createElement, type ComponentProps, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NextIntlClientProvider } from "next-intl";
import { describe, expect, it } from "vitest";
import { DetailsOnce, LinkShown } from "@/components/payins/payin-forms";
import enPayins from "@/messages/en/payins.json";
import ruPayins from "@/messages/ru/payins.json";

type ProviderProps = ComponentProps<typeof NextIntlClientProvider>;
const render = (locale: "en" | "ru", element: ReactElement) =>
  renderToStaticMarkup(
    createElement(
      NextIntlClientProvider,
      {
        locale,
        timeZone: "UTC",
        messages: { payins: locale === "en" ? enPayins : ruPayins },
      } as ProviderProps,
      element,
    ),
  );

const QR = "data:image/svg+xml;base64,PHN2Zy8+";
const details = {
  paymentMethod: "kzt_qr",
  bankName: "Kaspi",
  nameMediator: null,
  number: null,
  numberAdditional: null,
  qRcode: "KZQR|000201",
  qRcodeImage: QR,
};
const payIn = {
  ok: true as const,
  operationId: "0b7c3a0e-4a4e-4f57-9d1e-0c7f3bb0a001",
  traceID: "t-1",
  amount: "1500.5",
  currency: "KZT",
  details,
  alreadySent: false,
};

describe("the details of a new pay-in", () => {
  it("a QR code sent with them is shown as an image", () => {
    const html = render("en", createElement(DetailsOnce, { result: payIn }));
    expect(html).toContain(`src="${QR}"`);
    expect(html).toContain('alt="QR code of the transfer details"');
    expect(render("ru", createElement(DetailsOnce, { result: payIn }))).toContain(
      'alt="QR-код реквизитов для перевода"',
    );
  });

  it("no details in the first answer is told as such, not as a form sent again", () => {
    const none = { ...payIn, details: null };
    expect(render("en", createElement(DetailsOnce, { result: none }))).toContain(
      "its answer carried no transfer details",
    );
    expect(render("en", createElement(DetailsOnce, { result: { ...none, alreadySent: true } }))).toContain(
      "This form was already sent",
    );
  });
});

describe("a payment link whose answer was lost", () => {
  const lost = {
    ok: true as const,
    operationId: payIn.operationId,
    traceID: "t-2",
    link: null,
    qr: null,
    linkLost: true,
  };

  it("names the operation and says the link cannot be recovered, in both languages", () => {
    const en = render("en", createElement(LinkShown, { result: lost }));
    expect(en).toContain(payIn.operationId);
    expect(en).toContain("Paydesk cannot recover it");
    const ru = render("ru", createElement(LinkShown, { result: lost }));
    expect(ru).toContain("восстановить её Paydesk не может");
  });

  it("a link the platform sent but Paydesk would not show keeps the old words", () => {
    const unusable = render("en", createElement(LinkShown, { result: { ...lost, linkLost: false } }));
    expect(unusable).toContain("did not return a usable link");
  });
});
