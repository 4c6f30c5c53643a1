import { describe, expect, it } from "vitest";
import { encodeCursor } from "@/lib/operations/list/cursor";
import { defaultColumns } from "@/lib/operations/list/columns";
import { parseOperationFilter, viewParams } from "@/lib/operations/list/filter";

const parse = (query: string) => parseOperationFilter(new URLSearchParams(query));

describe("operations filter from the URL", () => {
  it("has defaults for an empty query", () => {
    const r = parse("");
    expect(r.ok && r.filter).toMatchObject({
      statuses: [],
      tz: "UTC",
      size: 50,
      cols: defaultColumns,
      stuck: false,
    });
  });

  it("reads every filter", () => {
    const cursor = encodeCursor({
      dateAdded: new Date("2026-11-20T10:00:00.000Z"),
      id: "00000000-0000-4000-8000-000000000001",
    });
    const r = parse(
      `type=payOut&status=success,failed&status=success&method=toCard&currency=rub&from=2026-11-01&to=2026-11-30` +
        `&tz=Europe/Moscow&amountMin=0.0001&amountMax=100.5&q=%20abc%20&stuck=1&cols=amount,status&size=20&after=${cursor}`,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.filter).toMatchObject({
      type: "payOut",
      statuses: ["success", "failed"],
      method: "toCard",
      currency: "RUB",
      tz: "Europe/Moscow",
      amountMin: "0.0001",
      amountMax: "100.5",
      q: "abc",
      stuck: true,
      cols: ["amount", "status"],
      size: 20,
    });
    expect(r.filter.dateFrom?.toISOString()).toBe("2026-10-31T21:00:00.000Z");
    // a date-only "to" includes the whole day
    expect(r.filter.dateTo?.toISOString()).toBe("2026-11-30T21:00:00.000Z");
    expect(r.filter.after?.id).toBe("00000000-0000-4000-8000-000000000001");
  });

  it("starts a day at its first midnight where the clocks fall back onto midnight", () => {
    // Amman, 2021-10-29: 01:00 (+03) back to 00:00 (+02); the hour after the first midnight is that day's
    const r = parse("from=2021-10-29&to=2021-10-29&tz=Asia/Amman");
    expect(r.ok && r.filter.dateFrom?.toISOString()).toBe("2021-10-28T21:00:00.000Z");
    expect(r.ok && r.filter.dateTo?.toISOString()).toBe("2021-10-29T22:00:00.000Z");
  });

  it("treats empty form fields as no filter", () => {
    const r = parse("type=&method=&q=&amountMin=");
    expect(r.ok).toBe(true);
  });

  it.each([
    ["type=refund", "type"],
    ["status=done", "status"],
    ["method=to card", "method"],
    ["currency=R1", "currency"],
    ["from=2026-02-30", "from"],
    ["to=yesterday", "to"],
    ["tz=Mars/Olympus", "tz"],
    ["amountMin=1e3", "amountMin"],
    ["amountMin=0.00001", "amountMin"],
    ["amountMax=-5", "amountMax"],
    ["amountMin=10&amountMax=9.9999", "amountMax"],
    ["from=2026-11-02&to=2026-11-01", "to"],
    ["cols=amount,secret", "cols"],
    ["size=0", "size"],
    ["size=500", "size"],
    ["after=not-a-cursor", "after"],
    ["type=payIn&type=payOut", "type"],
    ["colour=red", "colour"],
    ["stuck=yes", "stuck"],
    ["stuck=0", "stuck"],
    [`after=${"a".repeat(10)}&before=${"b".repeat(10)}`, "after"],
  ])("%s is refused with an error on %s", (query, field) => {
    const r = parse(query);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.fieldErrors[field]?.length).toBeGreaterThan(0);
    expect(r.message).toMatch(/cannot be used/);
  });

  // `to=9999-12-31` used to throw a RangeError out of the parser (the day after it is in year 10000).
  it.each([
    ["to=9999-12-31", "to", /between 1000-01-01 and 9998-12-31/],
    ["to=9999-12-31T23:59", "to", /between 1000-01-01 and 9998-12-31/],
    ["from=9999-12-31&to=9999-12-31", "from", /between 1000-01-01 and 9998-12-31/],
    ["from=2026-01-01&to=9999-12-31", "to", /between 1000-01-01 and 9998-12-31/],
    ["from=2026-01-01T00:00&to=9999-12-31&tz=Europe/Moscow", "to", /between 1000-01-01 and 9998-12-31/],
    ["from=0999-12-31", "from", /between 1000-01-01 and 9998-12-31/],
    ["from=0000-01-01", "from", /between 1000-01-01 and 9998-12-31/],
    ["from=+10000-01-01", "from", /like 2026-11-20/],
    ["to=9998-02-30", "to", /like 2026-11-20/],
  ])("%s is a field error on %s, never an exception", (query, field, message) => {
    const r = parse(query);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.fieldErrors[field]?.[0]).toMatch(message);
  });

  it.each([
    ["to=9998-12-31&tz=Etc/GMT%2B12", undefined, "9999-01-01T12:00:00.000Z"],
    ["from=9998-12-31T23:59&tz=Etc/GMT%2B12", "9999-01-01T11:59:00.000Z", undefined],
    [
      "from=1000-01-01&to=1000-01-01&tz=Pacific/Kiritimati",
      "1000-01-01T10:29:20.000Z",
      "1000-01-02T10:29:20.000Z",
    ],
  ])("takes the first and last days in any zone: %s", (query, from, to) => {
    const r = parse(query);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.filter.dateFrom?.toISOString()).toBe(from);
    expect(r.filter.dateTo?.toISOString()).toBe(to);
  });

  it("serialises a view without paging and round-trips it", () => {
    const r = parse("status=failed&tz=Asia/Tokyo&cols=amount&size=25&q=42&stuck=1");
    if (!r.ok) throw new Error("expected ok");
    const again = parseOperationFilter(viewParams(r.filter));
    expect(again.ok && again.filter).toMatchObject({
      statuses: ["failed"],
      tz: "Asia/Tokyo",
      cols: ["amount"],
      size: 25,
      q: "42",
      stuck: true,
    });
  });
});
