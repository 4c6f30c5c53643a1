// A list row as the browser receives it (presentListRow): every field picked, dates as ISO text, the
// recipient number always masked, the stuck flag as a boolean; nothing else leaks.
import { describe, expect, it } from "vitest";
import { presentListRow } from "@/lib/operations/list/present";
import type { OperationListRow } from "@/lib/operations/list/queries";

const row: OperationListRow = {
  id: "00000000-0000-4000-8000-0000000000a1",
  dateAdded: new Date("2026-11-20T10:00:00.000Z"),
  dateUpdated: new Date("2026-11-20T10:05:00.000Z"),
  typeOperation: "payOut",
  status: "in_progress",
  idTransactionMerchant: "po-1",
  amount: "1500.5",
  amountComission: "45.015",
  currency: "RUB",
  amountInCurrencyBalance: "15.7",
  amountComissionInCurrencyBalance: "0.4714",
  exchangeRate: "95.5",
  paymentMethod: "toCard",
  bankName: "Sberbank",
  number: "4276000000000001",
  stuckFlaggedAt: new Date("2026-11-20T11:00:00.000Z"),
};

describe("presentListRow", () => {
  it("every field, the number masked, the flag a boolean", () => {
    expect(presentListRow(row)).toStrictEqual({
      id: "00000000-0000-4000-8000-0000000000a1",
      dateAdded: "2026-11-20T10:00:00.000Z",
      dateUpdated: "2026-11-20T10:05:00.000Z",
      typeOperation: "payOut",
      status: "in_progress",
      idTransactionMerchant: "po-1",
      amount: "1500.5",
      amountComission: "45.015",
      currency: "RUB",
      amountInCurrencyBalance: "15.7",
      amountComissionInCurrencyBalance: "0.4714",
      exchangeRate: "95.5",
      paymentMethod: "toCard",
      bankName: "Sberbank",
      numberMasked: "************0001",
      stuck: true,
    });
  });

  it("no date updated, no number, not stuck", () => {
    expect(presentListRow({ ...row, dateUpdated: null, number: null, stuckFlaggedAt: null })).toMatchObject({
      dateUpdated: null,
      numberMasked: null,
      stuck: false,
    });
  });
});
