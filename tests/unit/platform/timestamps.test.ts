import { describe, expect, test } from "vitest";
import { parsePlatformTimestamp } from "@/lib/platform/timestamps";

describe("parsePlatformTimestamp", () => {
  test.each([
    ["2025-11-18T14:53:31Z", "2025-11-18T14:53:31.000Z"],
    ["2025-11-18T14:53:31.0Z", "2025-11-18T14:53:31.000Z"],
    ["2025-11-18T14:53:31.07Z", "2025-11-18T14:53:31.070Z"],
    ["2025-11-18T14:53:31.079Z", "2025-11-18T14:53:31.079Z"],
    ["2025-11-18T14:53:31.0796Z", "2025-11-18T14:53:31.079Z"],
    ["2025-11-18T14:53:31.0796033Z", "2025-11-18T14:53:31.079Z"], // truncated, not rounded
    ["2025-11-18T14:53:31.9999999Z", "2025-11-18T14:53:31.999Z"],
    ["2025-11-18T17:53:31.5+03:00", "2025-11-18T14:53:31.500Z"],
    ["2025-11-18T14:53:31.5", "2025-11-18T14:53:31.500Z"], // no zone: UTC
  ])("%s -> %s", (text, iso) => {
    expect(parsePlatformTimestamp(text)?.toISOString()).toBe(iso);
  });

  test.each([
    "",
    "yesterday",
    "2025-02-30T00:00:00Z",
    "2025-13-01T00:00:00Z",
    "2025-11-18T25:00:00Z",
    "1731941611",
  ])("refuses %j", (text) => {
    expect(parsePlatformTimestamp(text)).toBeNull();
  });
});
