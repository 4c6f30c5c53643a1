// Who may search operations by recipient digits (lib/operations/list/search-policy.ts), written out per
// role and length; the refusal in words and as an HTTP answer; the filter as the audit log records it.
import { describe, expect, it, test } from "vitest";
import { parseOperationFilter } from "@/lib/operations/list/filter";
import { recipientDigits } from "@/lib/operations/list/search";
import {
  DIGIT_SEARCHES_PER_MINUTE,
  SHOWN_DIGITS,
  filterForAudit,
  maySearch,
  searchRefusalMessage,
  searchRefusalResponse,
} from "@/lib/operations/list/search-policy";

const filter = (query: string) => {
  const r = parseOperationFilter(new URLSearchParams(query));
  if (!r.ok) throw new Error(JSON.stringify(r.fieldErrors));
  return r.filter;
};

describe("recipientDigits", () => {
  test.each([
    ["123", null],
    ["1234", "1234"],
    [" 1234 ", "1234"],
    ["1".repeat(34), "1".repeat(34)],
    ["1".repeat(35), null],
    ["12a4", null],
    ["12 34", null],
    ["+79991234567", null],
    ["", null],
  ])("%j -> %j", (q, digits) => {
    expect(recipientDigits(q)).toBe(digits);
  });
});

describe("maySearch", () => {
  const refused = { ok: false, code: "search_not_allowed" };
  test.each([
    ["support", undefined, { ok: true }],
    ["support", "order-42", { ok: true }],
    ["support", "123", { ok: true }],
    ["support", "1234", { ok: true }],
    ["support", "12345", refused],
    ["support", "4276000000000001", refused],
    ["finance", "4276000000000001", { ok: true }],
    ["approver", "12345", { ok: true }],
    ["admin", "12345", { ok: true }],
  ] as const)("%s searching %j", (role, q, expected) => {
    expect(maySearch(role, q)).toEqual(expected);
  });

  it("shows 4 digits and allows 30 digit searches a minute", () => {
    expect(SHOWN_DIGITS).toBe(4);
    expect(DIGIT_SEARCHES_PER_MINUTE).toBe(30);
  });
});

describe("the refusal", () => {
  it("in words", async () => {
    expect(await searchRefusalMessage({ ok: false, code: "search_not_allowed" })).toBe(
      "Search recipient numbers by their last 4 digits only; more digits need the permission to reveal recipient numbers.",
    );
    expect(await searchRefusalMessage({ ok: false, code: "rate_limited" })).toBe(
      "At most 30 number searches a minute; wait a minute and try again.",
    );
  });

  it("not allowed: 400 with the sentence on the search field, no retry-after", async () => {
    const response = await searchRefusalResponse({ ok: false, code: "search_not_allowed" });
    expect(response.status).toBe(400);
    expect(response.headers.get("retry-after")).toBeNull();
    const message =
      "Search recipient numbers by their last 4 digits only; more digits need the permission to reveal recipient numbers.";
    expect(await response.json()).toEqual({
      ok: false,
      code: "search_not_allowed",
      message,
      fieldErrors: { q: [message] },
    });
  });

  it("rate limited: 429 with retry-after 60", async () => {
    const response = await searchRefusalResponse({ ok: false, code: "rate_limited" });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("60");
    expect(await response.json()).toMatchObject({ ok: false, code: "rate_limited" });
  });
});

describe("filterForAudit", () => {
  test.each([
    ["status=failed&q=4276000000000001", "status=failed&tz=UTC&q=************0001"],
    ["q=12345", "tz=UTC&q=*2345"],
    ["q=1234", "tz=UTC&q=1234"],
    ["q=order-42&tz=Europe/Moscow", "tz=Europe%2FMoscow&q=order-42"],
    ["type=payIn", "type=payIn&tz=UTC"],
  ])("%s -> %s", (query, audited) => {
    expect(filterForAudit(filter(query))).toBe(audited);
  });
});
