// The mirror row written for a snapshot (snapshotToRow): amounts exact, absent ones null, and what the
// snapshot does not carry (method, details, payment-form link) taken from the stored values.
import { describe, expect, it } from "vitest";
import { snapshotToRow, type KeptValues } from "@/lib/operations/mirror/snapshot-row";
import { decodeOperation } from "@/lib/platform/schemas";
import { parseWireJson } from "@/lib/platform/wire";

const ID = "00000000-0000-4000-8000-0000000000e1";
const payOut = (extra = "") =>
  decodeOperation(
    parseWireJson(
      `{"id":"${ID}","dateAdded":"2026-11-20T10:00:00.000Z","dateUpdated":null,"typeOperation":"payOut",` +
        `"status":"in_progress","idTransactionMerchant":"po-1","amountInitial":2500.5,"amount":2500.50,"currency":"RUB"${extra}}`,
    ),
  );
const kept: KeptValues = {
  paymentMethod: "sbp",
  details: {
    bankName: "Sberbank",
    nameMediator: "Ivan I.",
    number: "1234",
    numberAdditional: null,
    qRcode: "qr",
  },
  linkPaymentForm: "https://pay.example/kept",
};

describe("snapshotToRow", () => {
  it("a pay-out read with no secondary amounts, no method, nothing kept", () => {
    const row = snapshotToRow(payOut(), "readBack", null);
    expect(row).toMatchObject({
      id: ID,
      typeOperation: "payOut",
      status: "in_progress",
      dateUpdated: null,
      amountInitial: "2500.5",
      amountRandomized: null,
      amount: "2500.5",
      amountComission: null,
      amountInCurrencyBalance: null,
      amountComissionInCurrencyBalance: null,
      exchangeRate: null,
      paymentMethod: null,
      detailsBankName: null,
      detailsNameMediator: null,
      detailsNumber: null,
      detailsNumberAdditional: undefined,
      detailsQrCode: undefined,
      linkPaymentForm: null,
      lastSource: "readBack",
    });
  });

  it("the caller's method when the read carries none; the stored one after that", () => {
    expect(snapshotToRow(payOut(), "readBack", "toCard", kept).paymentMethod).toBe("toCard");
    expect(snapshotToRow(payOut(), "readBack", null, kept).paymentMethod).toBe("sbp");
  });

  it("the stored details and link when the read carries none", () => {
    expect(snapshotToRow(payOut(), "readBack", null, kept)).toMatchObject({
      detailsBankName: "Sberbank",
      detailsNameMediator: "Ivan I.",
      detailsNumber: "1234",
      detailsQrCode: "qr",
      linkPaymentForm: "https://pay.example/kept",
    });
  });

  it("the snapshot's own link wins over the stored one, and stands alone", () => {
    const linked = payOut(
      `,"linkPaymentForm":"https://pay.example/new","exchangeRate":95.5,"amountComission":1.25`,
    );
    expect(snapshotToRow(linked, "creation", null, kept)).toMatchObject({
      linkPaymentForm: "https://pay.example/new",
      exchangeRate: "95.5",
      amountComission: "1.25",
    });
    expect(snapshotToRow(linked, "creation", null).linkPaymentForm).toBe("https://pay.example/new");
  });
});
