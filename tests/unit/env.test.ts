import { afterEach, describe, expect, it } from "vitest";
import { EnvError, getServerPort, getShutdownGraceMs, parseEnv, platformLabel } from "@/lib/env";

const valid = {
  DATABASE_URL: "postgresql://u:p@db.internal:5432/paydesk",
  PLATFORM_BASE_URL: "https://api.platform.example",
  PLATFORM_TOKEN: "jwt",
  AUTH_SECRET: "s".repeat(32),
};

function problems(source: Record<string, string | undefined>): string[] {
  try {
    parseEnv(source);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as EnvError).problems;
  }
}

describe("lib/env", () => {
  it("accepts a complete configuration and fills defaults", () => {
    const env = parseEnv(valid);
    expect(env.PLATFORM_TIMEOUT_MS).toBe(10_000);
    expect(env.WEBHOOK_ALLOWED_IPS).toEqual([]);
    expect(env.TRUSTED_PROXIES).toEqual([]);
    expect(env.WEBHOOK_REFUSED_PER_MINUTE).toBe(60);
    expect(env.NODE_ENV).toBe("development");
  });

  it.each([
    [{ DATABASE_URL: undefined }, /^Configuration error: DATABASE_URL is required: a PostgreSQL URL/],
    [{ DATABASE_URL: "mysql://x/y" }, /^Configuration error: DATABASE_URL must be a PostgreSQL URL/],
    [{ DATABASE_URL: "not a url" }, /^Configuration error: DATABASE_URL must be a PostgreSQL URL/],
    [{ AUTH_SECRET: undefined }, /^Configuration error: AUTH_SECRET is required/],
    [{ AUTH_SECRET: "short" }, /^Configuration error: AUTH_SECRET must be at least 32 characters/],
    [{ PLATFORM_BASE_URL: "ftp://x" }, /^Configuration error: PLATFORM_BASE_URL must be an http\(s\) URL/],
    [{ PLATFORM_TOKEN: undefined }, /^Configuration error: PLATFORM_TOKEN is required/],
    [
      { PLATFORM_TIMEOUT_MS: "soon" },
      /^Configuration error: PLATFORM_TIMEOUT_MS must be a whole number of milliseconds/,
    ],
    [
      { WEBHOOK_ALLOWED_IPS: "10.0.0.0/8, 300.1.1.1" },
      /^Configuration error: WEBHOOK_ALLOWED_IPS must be a comma-separated list/,
    ],
    [
      { TRUSTED_PROXIES: "10.0.0.0/8, proxy.internal" },
      /^Configuration error: TRUSTED_PROXIES must be a comma-separated list/,
    ],
    [
      { TRUSTED_PROXIES: "10.0.0.0/33" },
      /^Configuration error: TRUSTED_PROXIES must be a comma-separated list/,
    ],
    [
      { WEBHOOK_REFUSED_PER_MINUTE: "0" },
      /^Configuration error: WEBHOOK_REFUSED_PER_MINUTE must be a whole number of requests/,
    ],
    [{ WEBHOOK_PATH_SECRET: "short" }, /^Configuration error: WEBHOOK_PATH_SECRET must be at least 16/],
    [{ AUTH_OIDC_ISSUER: "https://sso.example.com" }, /^Configuration error: AUTH_OIDC_ISSUER SSO needs/],
    [{ HEALTH_TOKEN: "short" }, /^Configuration error: HEALTH_TOKEN must be at least 24 printable/],
    [
      { HEALTH_TOKEN: `${"t".repeat(24)} x` },
      /^Configuration error: HEALTH_TOKEN must be at least 24 printable/,
    ],
    [
      { HEALTH_TOKEN: `${"t".repeat(24)}\u202e` },
      /^Configuration error: HEALTH_TOKEN must be at least 24 printable/,
    ],
  ])("names the variable and what it expects: %o", (override, expected) => {
    const found = problems({ ...valid, ...override });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(expected);
    expect(found[0]).not.toContain("\n");
  });

  // The rules of the setting it is the default of (webhookBearerToken in lib/settings/settings.ts).
  it.each([
    ["one character", "x"],
    ["15 characters", "t".repeat(15)],
    ["a space", `${"t".repeat(16)} x`],
    ["a bidi control", `${"t".repeat(16)}\u202e`],
    ["513 characters", "t".repeat(513)],
  ])("refuses a webhook bearer token of %s, naming the variable", (_what, token) => {
    const found = problems({ ...valid, WEBHOOK_BEARER_TOKEN: token });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^Configuration error: WEBHOOK_BEARER_TOKEN must be 16 to 512 printable ASCII/);
  });

  it("accepts a webhook bearer token the setting would accept, trimmed", () => {
    const token = `${"A".repeat(15)}~`;
    expect(parseEnv({ ...valid, WEBHOOK_BEARER_TOKEN: ` ${token} ` }).WEBHOOK_BEARER_TOKEN).toBe(token);
    const longest = "!".repeat(512);
    expect(parseEnv({ ...valid, WEBHOOK_BEARER_TOKEN: longest }).WEBHOOK_BEARER_TOKEN).toBe(longest);
    expect(parseEnv(valid).WEBHOOK_BEARER_TOKEN).toBeUndefined();
  });

  it.each(["usdt", "US", "USDT-TRC20", "TOOLONGCODE", "US DT"])(
    "refuses PLATFORM_BALANCE_CURRENCY=%s at start-up, naming it",
    (code) => {
      expect(problems({ ...valid, PLATFORM_BALANCE_CURRENCY: code })).toEqual([
        "Configuration error: PLATFORM_BALANCE_CURRENCY must be a currency code of 3 to 10 uppercase letters or digits, such as USDT",
      ]);
    },
  );

  it("takes the balance currency, optional, as a code of 3 to 10 uppercase letters or digits", () => {
    expect(parseEnv(valid).PLATFORM_BALANCE_CURRENCY).toBeUndefined();
    expect(parseEnv({ ...valid, PLATFORM_BALANCE_CURRENCY: " USDT " }).PLATFORM_BALANCE_CURRENCY).toBe(
      "USDT",
    );
    for (const code of ["RUB", "USDT", "A1B2C3D4E5"])
      expect(parseEnv({ ...valid, PLATFORM_BALANCE_CURRENCY: code }).PLATFORM_BALANCE_CURRENCY).toBe(code);
  });

  it("reports every problem, one line each", () => {
    expect(problems({})).toHaveLength(4);
  });

  it("accepts IPv4/IPv6 addresses and CIDRs in the webhook allowlist", () => {
    const env = parseEnv({ ...valid, WEBHOOK_ALLOWED_IPS: "10.0.0.0/8,192.168.1.7, 2001:db8::/32" });
    expect(env.WEBHOOK_ALLOWED_IPS).toEqual(["10.0.0.0/8", "192.168.1.7", "2001:db8::/32"]);
  });

  it("accepts IPv4/IPv6 addresses and CIDRs as trusted proxies", () => {
    const env = parseEnv({ ...valid, TRUSTED_PROXIES: "127.0.0.1/32, 10.0.0.0/8,2001:db8::7" });
    expect(env.TRUSTED_PROXIES).toEqual(["127.0.0.1/32", "10.0.0.0/8", "2001:db8::7"]);
    expect(parseEnv({ ...valid, WEBHOOK_REFUSED_PER_MINUTE: "5" }).WEBHOOK_REFUSED_PER_MINUTE).toBe(5);
  });

  // The web server's own settings: PORT="" listened on a random port, PORT=abc died with a stack trace.
  it.each(["abc", "0", "65536", "3000.5", "0x10", "1e3", "-1"])("refuses PORT=%s, naming it", (port) => {
    expect(problems({ ...valid, PORT: port })).toEqual([
      "Configuration error: PORT must be a port number from 1 to 65535",
    ]);
  });

  it.each(["5s", "-1", "60001", "1.5"])("refuses SHUTDOWN_GRACE_MS=%s, naming it", (grace) => {
    expect(problems({ ...valid, SHUTDOWN_GRACE_MS: grace })).toEqual([
      "Configuration error: SHUTDOWN_GRACE_MS must be a whole number of milliseconds from 0 to 60000",
    ]);
  });

  it("defaults PORT to 3000 and the shutdown grace to 5 s; accepts 1-65535 and a grace of 0", () => {
    expect(parseEnv(valid)).toMatchObject({ PORT: 3000, SHUTDOWN_GRACE_MS: 5_000 });
    expect(parseEnv({ ...valid, PORT: "", SHUTDOWN_GRACE_MS: "" })).toMatchObject({
      PORT: 3000,
      SHUTDOWN_GRACE_MS: 5_000,
    });
    expect(parseEnv({ ...valid, PORT: "1", SHUTDOWN_GRACE_MS: "0" })).toMatchObject({
      PORT: 1,
      SHUTDOWN_GRACE_MS: 0,
    });
    expect(parseEnv({ ...valid, PORT: " 65535 ", SHUTDOWN_GRACE_MS: "60000" })).toMatchObject({
      PORT: 65_535,
      SHUTDOWN_GRACE_MS: 60_000,
    });
  });

  it.each([
    ["http://127.0.0.1:4010", "SANDBOX"],
    ["http://localhost:4010", "SANDBOX"],
    ["https://api.platform.example", "api.platform.example"],
  ])("labels %s as %s", (url, label) => {
    expect(platformLabel(url)).toBe(label);
  });
});

describe("the web server's port and shutdown grace, read alone", () => {
  const saved = { PORT: process.env.PORT, SHUTDOWN_GRACE_MS: process.env.SHUTDOWN_GRACE_MS };
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("takes --port over PORT, and names --port when it is the bad one", () => {
    process.env.PORT = "4100";
    expect(getServerPort()).toBe(4100);
    expect(getServerPort("4200")).toBe(4200);
    expect(() => getServerPort("")).toThrow(
      new EnvError(["Configuration error: --port must be a port number from 1 to 65535"]),
    );
    process.env.PORT = "";
    expect(getServerPort()).toBe(3000);
    process.env.PORT = "abc";
    expect(() => getServerPort()).toThrow(/^Configuration error: PORT must be a port number/);
  });

  it("reads SHUTDOWN_GRACE_MS", () => {
    process.env.SHUTDOWN_GRACE_MS = "250";
    expect(getShutdownGraceMs()).toBe(250);
    process.env.SHUTDOWN_GRACE_MS = "soon";
    expect(() => getShutdownGraceMs()).toThrow(/^Configuration error: SHUTDOWN_GRACE_MS must be/);
  });
});
