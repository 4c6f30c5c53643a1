// The one place that reads process.env. Every setting is validated here; a bad value stops start-up
// with one line per problem naming the variable and what it expects.
import { z } from "zod";
import { roles, type Role } from "@/lib/roles";

const postgresUrl = z
  .string({ error: "is required: a PostgreSQL URL such as postgresql://user:password@host:5432/paydesk" })
  .refine((v) => {
    try {
      const url = new URL(v);
      return (url.protocol === "postgresql:" || url.protocol === "postgres:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, "must be a PostgreSQL URL such as postgresql://user:password@host:5432/paydesk");

const httpUrl = (example: string) =>
  z.url({ protocol: /^https?$/, error: `must be an http(s) URL such as ${example}` });

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

/** A comma-separated list of roles, or `none`. */
const roleList = z
  .string()
  .trim()
  .transform((v, ctx): Role[] => {
    if (v.toLowerCase() === "none") return [];
    const list = [
      ...new Set(
        v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    const unknown = list.filter((r) => !(roles as readonly string[]).includes(r));
    if (list.length === 0 || unknown.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `must be roles among ${roles.join(",")} (comma-separated), or none`,
      });
      return z.NEVER;
    }
    return list as Role[];
  });

const positiveInt = (fallback: number, what: string) =>
  z.coerce
    .number({ error: `must be ${what}` })
    .int(`must be ${what}`)
    .positive(`must be ${what}`)
    .default(fallback);

/** A TCP port, written as digits only ("0x10" and "1e3" are typos, not ports). */
const portNumber = z
  .string()
  .trim()
  .regex(/^\d{1,5}$/, "must be a port number from 1 to 65535")
  .transform(Number)
  .refine((n) => n >= 1 && n <= 65_535, "must be a port number from 1 to 65535")
  .default(3000);

const SHUTDOWN_GRACE_MAX_MS = 60_000;

const cidrList = z
  .string()
  .default("")
  .transform((v) =>
    v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .refine(
    (list) => list.every(isCidr),
    "must be a comma-separated list of IPs or CIDRs, e.g. 10.0.0.0/8,2001:db8::/32",
  );

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATABASE_URL: postgresUrl,
    DATABASE_POOL_SIZE: positiveInt(20, "a whole number of connections"),
    PLATFORM_BASE_URL: httpUrl("https://api.platform.example"),
    PLATFORM_TOKEN: z
      .string({ error: "is required: the merchant JWT issued by the platform" })
      .min(1, "must not be empty"),
    PLATFORM_TIMEOUT_MS: positiveInt(10_000, "a whole number of milliseconds"),
    /**
     * The merchant's balance currency, by which GET /balance's record is chosen should the platform
     * answer with a list before the ledger knows its currency (a fresh install). Once it does, the
     * ledger's currency wins over this one: the variable only starts the ledger (lib/platform/client.ts).
     */
    PLATFORM_BALANCE_CURRENCY: optionalString.refine(
      (v) => v === undefined || /^[A-Z0-9]{3,10}$/.test(v),
      "must be a currency code of 3 to 10 uppercase letters or digits, such as USDT",
    ),
    AUTH_SECRET: z
      .string({ error: "is required: a random string of at least 32 characters (openssl rand -base64 32)" })
      .min(32, "must be at least 32 characters (openssl rand -base64 32)"),
    /**
     * Key material for data encrypted at rest (two-factor secrets); without it, a key is derived from
     * AUTH_SECRET. Set it to keep AUTH_SECRET rotatable: changing the material in use makes the stored
     * two-factor secrets unreadable (their users then need a reset).
     */
    ENCRYPTION_KEY: optionalString.refine(
      (v) => v === undefined || v.length >= 32,
      "must be at least 32 characters (openssl rand -base64 32)",
    ),
    /** The roles that must use two-factor sign-in until an admin sets the policy in Settings. */
    TWO_FACTOR_REQUIRED_ROLES: roleList.default(["admin", "approver"]),
    AUTH_OIDC_ISSUER: httpUrl("https://sso.example.com/realms/staff").optional(),
    AUTH_OIDC_CLIENT_ID: optionalString,
    AUTH_OIDC_CLIENT_SECRET: optionalString,
    PUBLIC_BASE_URL: httpUrl("https://paydesk.example.com").optional(),
    WEBHOOK_PATH_SECRET: optionalString.refine(
      (v) => v === undefined || /^[A-Za-z0-9_-]{16,}$/.test(v),
      "must be at least 16 URL-safe characters (letters, digits, - or _)",
    ),
    /**
     * The default of the webhookBearerToken setting, held to the setting's rules (16 to 512 printable
     * ASCII characters): a value the Settings page would refuse must not enter through the environment.
     */
    WEBHOOK_BEARER_TOKEN: optionalString.refine(
      (v) => v === undefined || /^[\x21-\x7e]{16,512}$/.test(v),
      "must be 16 to 512 printable ASCII characters without spaces (openssl rand -hex 24)",
    ),
    WEBHOOK_ALLOWED_IPS: cidrList,
    WEBHOOK_MAX_BODY_BYTES: positiveInt(65_536, "a whole number of bytes"),
    WEBHOOK_REFUSED_PER_MINUTE: positiveInt(60, "a whole number of requests"),
    TRUSTED_PROXIES: cidrList,
    /** Webhook processing loops per worker process: read-backs in flight at once. */
    WEBHOOK_PROCESSING_CONCURRENCY: positiveInt(16, "a whole number of loops"),
    /** The language of a user with no saved preference whose browser asks for neither ru nor en. */
    DEFAULT_LOCALE: z.enum(["ru", "en"], { error: "must be ru or en" }).default("ru"),
    /**
     * Bearer token of the monitoring that may read /api/health's details (what failed and why). Without
     * it the answer names the failing parts only: the route is public and the details are internal.
     */
    HEALTH_TOKEN: optionalString.refine(
      (v) => v === undefined || /^[\x21-\x7e]{24,}$/.test(v),
      "must be at least 24 printable ASCII characters without spaces (openssl rand -base64 32)",
    ),
    /** The web server's port when `npm start` is given no --port. */
    PORT: portNumber,
    /**
     * After SIGTERM, how long the web server keeps accepting connections (readiness already 503, every
     * response with `Connection: close`) so that the load balancer sees the 503 before the listener
     * closes; then the requests in flight get their own 10 s. 0 closes at once (tests, a preStop hook).
     */
    SHUTDOWN_GRACE_MS: z
      .string()
      .trim()
      .regex(/^\d+$/, `must be a whole number of milliseconds from 0 to ${SHUTDOWN_GRACE_MAX_MS}`)
      .transform(Number)
      .refine(
        (n) => n <= SHUTDOWN_GRACE_MAX_MS,
        `must be a whole number of milliseconds from 0 to ${SHUTDOWN_GRACE_MAX_MS}`,
      )
      .default(5_000),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace"]).default("info"),
    E2E_ERROR_PROBE: z.stringbool({ error: "must be 1 or 0" }).default(false),
  })
  .superRefine((env, ctx) => {
    const oidc = [env.AUTH_OIDC_ISSUER, env.AUTH_OIDC_CLIENT_ID, env.AUTH_OIDC_CLIENT_SECRET];
    if (oidc.some(Boolean) && !oidc.every(Boolean)) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_OIDC_ISSUER"],
        message: "SSO needs AUTH_OIDC_ISSUER, AUTH_OIDC_CLIENT_ID and AUTH_OIDC_CLIENT_SECRET together",
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  override name = "EnvError";
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
  }
}

/** Parses a set of variables; throws EnvError whose message has one line per problem. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = envSchema.safeParse(cleaned);
  if (result.success) return result.data;
  throw new EnvError(
    result.error.issues.map(
      (issue) => `Configuration error: ${issue.path.join(".") || "environment"} ${issue.message}`,
    ),
  );
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Only the database settings: for tools (migrations, user admin) that never talk to the platform. */
export function getDatabaseUrl(): string {
  return parseOne("DATABASE_URL");
}

export function getDatabasePoolSize(): number {
  return parseOne("DATABASE_POOL_SIZE");
}

/** Only TRUSTED_PROXIES: for the web server's front door, which needs nothing else. */
export function getTrustedProxies(): string[] {
  return parseOne("TRUSTED_PROXIES");
}

/**
 * The web server's port: its --port option when given (named so in a refusal), else PORT, else 3000.
 * Checked here because a bad value would otherwise listen on a random port ("") or fail with a trace.
 */
export function getServerPort(option?: string): number {
  if (option === undefined) return parseOne("PORT");
  return parseValue("PORT", option, "--port");
}

/** Only SHUTDOWN_GRACE_MS: for the web server's SIGTERM handling. */
export function getShutdownGraceMs(): number {
  return parseOne("SHUTDOWN_GRACE_MS");
}

type OneByOne = "DATABASE_URL" | "DATABASE_POOL_SIZE" | "TRUSTED_PROXIES" | "PORT" | "SHUTDOWN_GRACE_MS";

function parseOne<K extends OneByOne>(name: K): Env[K] {
  return parseValue(name, process.env[name] || undefined, name);
}

function parseValue<K extends OneByOne>(name: K, value: string | undefined, label: string): Env[K] {
  const result = envSchema.shape[name].safeParse(value);
  if (result.success) return result.data as Env[K];
  throw new EnvError(result.error.issues.map((issue) => `Configuration error: ${label} ${issue.message}`));
}

/** True when the platform is the local sandbox (a loopback host), shown as SANDBOX in the console. */
export function platformLabel(baseUrl: string): string {
  const host = new URL(baseUrl).hostname;
  return ["localhost", "127.0.0.1", "[::1]", "::1"].includes(host) ? "SANDBOX" : host;
}

function isCidr(value: string): boolean {
  const [ip, bits, ...rest] = value.split("/");
  if (rest.length > 0 || !ip) return false;
  const v4 = z.ipv4().safeParse(ip).success;
  const v6 = !v4 && z.ipv6().safeParse(ip).success;
  if (!v4 && !v6) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (v4 ? 32 : 128);
}

/**
 * Whether this is a development server (`next dev`), read alone so that code which runs where the rest
 * of the environment is not set (tests, scripts) can ask it; unset is not development.
 */
export function isDevelopmentServer(): boolean {
  return process.env.NODE_ENV === "development";
}
