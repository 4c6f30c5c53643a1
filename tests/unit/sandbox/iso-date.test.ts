// clientDateCreated is "ISO-8601" in the spec: the sandbox reads every offset and fraction form of it,
// not only "±hh:mm" and a dot (it refused "+03" and "10:00:00,5Z" as invalidRequestParameters).
import { describe, expect, it } from "vitest";
import { parseIsoDate } from "../../../sandbox/iso-date";

const at = (iso: string) => new Date(iso).getTime();

describe("parseIsoDate", () => {
  it.each([
    ["2024-03-01", at("2024-03-01T00:00:00Z")],
    ["2024-03-01T10:00:00Z", at("2024-03-01T10:00:00Z")],
    ["2024-03-01T10:00:00.0796033Z", at("2024-03-01T10:00:00.079Z")],
    ["2024-03-01T10:00:00,5Z", at("2024-03-01T10:00:00.500Z")],
    ["2024-03-01T10:00:00+03:00", at("2024-03-01T07:00:00Z")],
    ["2024-03-01T10:00:00+0300", at("2024-03-01T07:00:00Z")],
    ["2024-03-01T10:00:00+03", at("2024-03-01T07:00:00Z")],
    ["2024-03-01T10:00:00-05:30", at("2024-03-01T15:30:00Z")],
    ["2024-03-01T10:00", at("2024-03-01T10:00:00Z")],
  ])("reads %s", (text, expected) => {
    expect(parseIsoDate(text)).toBe(expected);
  });

  it.each([
    "2024-02-30",
    "2024-03-01T24:00:00Z",
    "2024-03-01T10:00:00+3",
    "2024-03-01T10:00:00+03:",
    "01.03.2024",
    "",
  ])("refuses %j", (text) => {
    expect(parseIsoDate(text)).toBeUndefined();
  });
});
