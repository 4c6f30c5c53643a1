// Who may read /api/health's details: the monitoring with HEALTH_TOKEN; anyone else the summary, and a
// wrong or malformed credential a refusal (a misconfigured monitor must notice, not get less quietly).
import { describe, expect, it } from "vitest";
import { healthAccess } from "@/lib/http/health-access";

const TOKEN = "h3alth-t0ken-of-the-monitoring-0123456789";

describe("healthAccess", () => {
  it("gives the summary to a caller without credentials, configured or not", () => {
    expect(healthAccess(null, TOKEN)).toBe("summary");
    expect(healthAccess(null, undefined)).toBe("summary");
  });

  it("gives the details for the configured bearer token, whatever the scheme's case", () => {
    expect(healthAccess(`Bearer ${TOKEN}`, TOKEN)).toBe("details");
    expect(healthAccess(`bearer ${TOKEN}`, TOKEN)).toBe("details");
  });

  it.each([
    ["a wrong token", `Bearer ${TOKEN.slice(0, -1)}x`],
    ["a longer token", `Bearer ${TOKEN}x`],
    ["a prefix of the token", `Bearer ${TOKEN.slice(0, 10)}`],
    ["another scheme", `Basic ${TOKEN}`],
    ["no token", "Bearer "],
    ["an empty header", ""],
    ["a NUL byte", `Bearer ${TOKEN}\u0000`],
    ["a bidi override", `Bearer \u202e${TOKEN}`],
    ["two spaces", `Bearer  ${TOKEN}`],
    ["a huge header", `Bearer ${"x".repeat(10_000)}`],
  ])("refuses %s", (_what, header) => {
    expect(healthAccess(header, TOKEN)).toBe("refused");
  });

  it("refuses any credential when no token is configured: there is nothing it could match", () => {
    expect(healthAccess(`Bearer ${TOKEN}`, undefined)).toBe("refused");
  });
});
