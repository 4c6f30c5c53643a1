// The operations filter's refusals in words (each field's sentence, with its arguments), the edges of
// each rule, the two input shapes, and the query string a filter is written back to.
import { describe, expect, it, test } from "vitest";
import { encodeCursor } from "@/lib/operations/list/cursor";
import { defaultColumns } from "@/lib/operations/list/columns";
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  filterParams,
  parseOperationFilter,
  viewParams,
  type FilterParseResult,
} from "@/lib/operations/list/filter";

const parse = (query: string, locale: "en" | "ru" = "en") =>
  parseOperationFilter(new URLSearchParams(query), locale);
const errors = (r: FilterParseResult) => (r.ok ? null : r.fieldErrors);
const filterOf = (r: FilterParseResult) => {
  if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.fieldErrors)}`);
  return r.filter;
};
const cursorA = encodeCursor({
  dateAdded: new Date("2026-11-20T10:00:00.000Z"),
  id: "00000000-0000-4000-8000-000000000001",
});
const cursorB = encodeCursor({
  dateAdded: new Date("2026-11-19T10:00:00.000Z"),
  id: "00000000-0000-4000-8000-000000000002",
});

describe("each refusal in words", () => {
  test.each([
    ["type=refund", { type: ["Type must be payIn or payOut."] }],
    [
      "status=done",
      {
        status: [
          "Status must be one of precreated, created, booking, pending_retry, in_progress, success, failed.",
        ],
      },
    ],
    ["method=to%20card", { method: ["A payment method is letters, digits and _ only (e.g. toCard)."] }],
    ["currency=R1", { currency: ["A currency is a code of letters, like RUB."] }],
    ["from=2026-02-30", { from: ["Use a date like 2026-11-20 or a date and time like 2026-11-20T13:05."] }],
    ["tz=Mars/Olympus", { tz: ['Unknown time zone "Mars/Olympus"; use an IANA name.'] }],
    ["amountMin=1e3", { amountMin: ["Use a plain amount with at most 4 decimals, like 1500 or 0.0001."] }],
    [`q=${"x".repeat(201)}`, { q: ["Search text is at most 200 characters."] }],
    ["stuck=yes", { stuck: ['stuck is "1" (only operations flagged as stuck) or left out.'] }],
    [
      "cols=amount,secret",
      {
        cols: [
          "Columns must be among dateAdded, dateUpdated, typeOperation, status, idTransactionMerchant, amount, " +
            "amountComission, amountInCurrencyBalance, exchangeRate, paymentMethod, bankName, number, id.",
        ],
      },
    ],
    ["size=201", { size: ["Page size is a whole number from 1 to 200."] }],
    ["size=1000", { size: ["Page size is a whole number from 1 to 200."] }],
    ["after=not-a-cursor", { after: ["This page link is not valid; go back to the first page."] }],
    ["amountMin=10&amountMax=9.9999", { amountMax: ["The maximum is below the minimum."] }],
    ["from=2026-11-02&to=2026-11-01", { to: ["The end date is before the start date."] }],
    ["from=2026-11-01T10:00&to=2026-11-01T10:00", { to: ["The end date is before the start date."] }],
    [`after=${cursorA}&before=${cursorB}`, { before: ["Use either after or before, not both."] }],
    ["type=payIn&type=payOut", { type: ["type is given more than once."] }],
    [
      "colour=red&shade=dark",
      { colour: ['Unknown filter parameter "colour".'], shade: ['Unknown filter parameter "shade".'] },
    ],
  ])("%s", (query, fieldErrors) => {
    expect(parse(query)).toEqual({
      ok: false,
      message: "Some filter values cannot be used; fix them and try again.",
      fieldErrors,
    });
  });

  it("a control or bidi character in the search or the zone is named as such", () => {
    const invisible =
      "Remove control or invisible formatting characters (such as NUL or a text-direction override).";
    expect(errors(parse("q=ab%00cd"))).toEqual({ q: [invisible] });
    expect(errors(parse("q=ab%E2%80%AEcd"))).toEqual({ q: [invisible] });
    expect(errors(parse("tz=Europe/Moscow%E2%80%AE"))?.tz).toContain(invisible);
  });

  it("a repeated key and a bad value are both reported", () => {
    expect(errors(parse("type=payIn&type=payOut&size=0"))).toEqual({
      type: ["type is given more than once."],
      size: ["Page size is a whole number from 1 to 200."],
    });
  });

  it("a key named like an object's own machinery is an unknown parameter, not a repeated one", () => {
    const r = errors(parse("toString=1&__proto__=2&constructor=3"));
    expect(Object.keys(r ?? {}).sort()).toEqual(["__proto__", "constructor", "toString"]);
    for (const messages of Object.values(r ?? {}))
      expect(messages).toEqual([expect.stringMatching(/^Unknown filter parameter/)]);
  });

  it("in Russian when asked", () => {
    const r = parse("type=refund&status=done", "ru");
    expect(r).toMatchObject({
      ok: false,
      message: "Некоторые значения фильтра нельзя использовать — исправьте их и повторите.",
      fieldErrors: {
        type: ["Тип — payIn или payOut."],
        status: [
          "Статус — один из: precreated, created, booking, pending_retry, in_progress, success, failed.",
        ],
      },
    });
  });
});

describe("the edges of each rule", () => {
  test.each([
    ["size=1", { size: 1 }],
    [`size=${MAX_PAGE_SIZE}`, { size: 200 }],
    ["size=007", { size: 7 }],
    ["", { size: DEFAULT_PAGE_SIZE }],
    [`method=${"a".repeat(64)}`, { method: "a".repeat(64) }],
    ["currency=ab", { currency: "AB" }],
    [`currency=${"x".repeat(10)}`, { currency: "X".repeat(10) }],
    [`q=${"x".repeat(200)}`, { q: "x".repeat(200) }],
    ["amountMin=10&amountMax=10", { amountMin: "10", amountMax: "10" }],
    ["amountMin=1%20500,50", { amountMin: "1500.50" }],
    ["amountMax=99999999999999999999.9999", { amountMax: "99999999999999999999.9999" }],
    ["from=2026-11-01&to=2026-11-01", { from: "2026-11-01", to: "2026-11-01" }],
    ["stuck=1", { stuck: true }],
    ["", { stuck: false, tz: "UTC", statuses: [], cols: defaultColumns }],
    ["status=%20success%20,,failed,&status=success", { statuses: ["success", "failed"] }],
    ["cols=amount,amount,id", { cols: ["amount", "id"] }],
    [`before=${cursorB}`, { before: { id: "00000000-0000-4000-8000-000000000002" } }],
  ])("%s is accepted", (query, expected) => {
    expect(filterOf(parse(query))).toMatchObject(expected);
  });

  test.each([
    "size=0",
    "size=1.5",
    "size=-1",
    `method=${"a".repeat(65)}`,
    "currency=R",
    `currency=${"x".repeat(11)}`,
    "amountMin=123456789012345678901",
    "amountMin=1.00001",
    "stuck=0",
  ])("%s is refused", (query) => {
    expect(parse(query).ok).toBe(false);
  });

  it("a date-time end is exclusive; a date-only end includes its day", () => {
    const f = filterOf(parse("from=2026-11-01T10:00&to=2026-11-01T10:01&tz=UTC"));
    expect(f.dateFrom?.toISOString()).toBe("2026-11-01T10:00:00.000Z");
    expect(f.dateTo?.toISOString()).toBe("2026-11-01T10:01:00.000Z");
    const day = filterOf(parse("to=2026-11-01"));
    expect(day.dateFrom).toBeUndefined();
    expect(day.dateTo?.toISOString()).toBe("2026-11-02T00:00:00.000Z");
  });

  it("a record of params reads like the URL: lists, repeated values, undefined left out", () => {
    const f = filterOf(
      parseOperationFilter({ status: ["success", "failed,created"], type: "payOut", method: undefined }),
    );
    expect(f).toMatchObject({ statuses: ["success", "failed", "created"], type: "payOut" });
    expect(f.method).toBeUndefined();
    expect(errors(parseOperationFilter({ type: ["payIn", "payOut"] }))).toEqual({
      type: ["type is given more than once."],
    });
  });
});

describe("the filter written back as a query string", () => {
  it("every selecting parameter, in order; paging and view settings left out", () => {
    const f = filterOf(
      parse(
        "type=payOut&status=success,failed&method=toCard&currency=rub&from=2026-11-01&to=2026-11-30" +
          `&tz=Europe/Moscow&amountMin=1&amountMax=2&q=abc&stuck=1&cols=amount&size=20&after=${cursorA}`,
      ),
    );
    expect(filterParams(f).toString()).toBe(
      "type=payOut&status=success%2Cfailed&method=toCard&currency=RUB&from=2026-11-01&to=2026-11-30" +
        "&tz=Europe%2FMoscow&amountMin=1&amountMax=2&q=abc&stuck=1",
    );
    expect(viewParams(f).toString()).toBe(`${filterParams(f).toString()}&cols=amount&size=20`);
  });

  it("defaults are left out: no status, not stuck, default columns and page size", () => {
    const f = filterOf(parse(`tz=UTC&size=${DEFAULT_PAGE_SIZE}&cols=${defaultColumns.join(",")}`));
    expect(filterParams(f).toString()).toBe("tz=UTC");
    expect(viewParams(f).toString()).toBe("tz=UTC");
  });

  // The page reads a link without tz in the user's own zone: page 2 of a UTC day was a Moscow day.
  it("the zone is always written, UTC too", () => {
    const f = filterOf(parse("from=2026-11-01&to=2026-11-01&tz=UTC&size=20"));
    expect(filterParams(f).get("tz")).toBe("UTC");
    expect(viewParams(f).toString()).toBe("from=2026-11-01&to=2026-11-01&tz=UTC&size=20");
    expect(filterParams(filterOf(parse(""))).toString()).toBe("tz=UTC");
  });

  it("the default columns in another order are a choice of their own", () => {
    const f = filterOf(parse(`cols=${[...defaultColumns].reverse().join(",")}`));
    expect(viewParams(f).get("cols")).toBe([...defaultColumns].reverse().join(","));
  });
});
