import "server-only";
import { isIP } from "node:net";
import { z } from "zod";
import { en as zodEn, ru as zodRu } from "zod/locales";
import { audit, type Actor } from "@/lib/audit/log";
import { roles, type Role } from "@/lib/roles";
import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Locale } from "@/lib/i18n/locales";
import { translatorIn } from "@/lib/i18n/translate";
import { Decimal } from "@/lib/money/decimal";
import { parseAmountInput } from "@/lib/money/parse-input";

// Settings an admin can change at run time (stored in the Setting table); defaults come from the
// environment so a fresh install works without visiting the settings page.
export const settingsSchema = z.object({
  webhookAllowedIps: z.array(z.string()),
  webhookBearerToken: z.string().nullable(),
  // The admin's explicit choice to accept webhooks without the secret path segment (path-secret.ts).
  webhookOpenEndpoint: z.boolean(),
  stuckOperationMinutes: z.number().int().positive(),
  autoApproveBelow: z.string().nullable(),
  twoApprovalsAbove: z.string().nullable(),
  /** Per-operation webhook URLs may point at loopback, private and link-local addresses (test benches). */
  allowPrivateWebhookUrls: z.boolean(),
  // Staff sessions: ended this long after sign-in, or after this long without a request.
  sessionLifetimeMinutes: z.number().int().positive(),
  sessionIdleMinutes: z.number().int().positive(),
  /**
   * Sum of one recipient's pay-outs over 24 h up to which they are still auto-approved (each one also
   * below autoApproveBelow); null: the same as autoApproveBelow.
   */
  autoApproveRecipientDailySum: z.string().nullable(),
  /** Percent of a new pay-out's amount within which an earlier one to the recipient is a near-duplicate; null: off. */
  nearDuplicateTolerancePercent: z.string().nullable(),
  /** Minutes a difference between the ledger and GET /balance may last before it counts (lib/ledger/proof.ts). */
  balanceDifferenceMinutes: z.number().int().positive(),
  // Retention (lib/retention): days a platform call record and a webhook body are kept; failed calls
  // and refused webhooks (what support digs into later) longer.
  apiCallRetentionDays: z.number().int().positive(),
  failedApiCallRetentionDays: z.number().int().positive(),
  webhookRetentionDays: z.number().int().positive(),
  refusedWebhookRetentionDays: z.number().int().positive(),
  // Two-factor policy (lib/auth/two-factor/policy.ts): the roles that must enrol, and how long a
  // verified code lets a user approve, change settings or users, or reveal a number without another.
  twoFactorRequiredRoles: z.array(z.enum(roles)),
  stepUpFreshMinutes: z.number().int().positive(),
});
export type Settings = z.infer<typeof settingsSchema>;
export type SettingKey = keyof Settings;
export const settingKeys = Object.keys(settingsSchema.shape) as SettingKey[];

/** The longest session lifetime an admin may set: also the session cookie's own lifetime. */
export const SESSION_LIFETIME_MAX_MINUTES = 7 * 24 * 60;

function defaults(): Settings {
  const env = getEnv();
  return {
    webhookAllowedIps: env.WEBHOOK_ALLOWED_IPS,
    webhookBearerToken: env.WEBHOOK_BEARER_TOKEN ?? null,
    webhookOpenEndpoint: false,
    stuckOperationMinutes: 60,
    autoApproveBelow: null,
    twoApprovalsAbove: null,
    allowPrivateWebhookUrls: false,
    sessionLifetimeMinutes: 12 * 60,
    sessionIdleMinutes: 30,
    autoApproveRecipientDailySum: null,
    nearDuplicateTolerancePercent: "1",
    balanceDifferenceMinutes: 10,
    apiCallRetentionDays: 90,
    failedApiCallRetentionDays: 365,
    webhookRetentionDays: 90,
    refusedWebhookRetentionDays: 365,
    twoFactorRequiredRoles: env.TWO_FACTOR_REQUIRED_ROLES,
    stepUpFreshMinutes: 5,
  };
}

// Read on every webhook: kept for a moment instead of a query per request. A change made through
// saveSetting applies at once in this process and within CACHE_MS in the others.
const CACHE_MS = 2_000;
let cache: { at: number; settings: Settings } | null = null;

export async function getSettings(): Promise<Settings> {
  if (cache && Date.now() - cache.at < CACHE_MS) return cache.settings;
  const settings = await readSettings(getDb());
  cache = { at: Date.now(), settings };
  return settings;
}

async function readSettings(db: Pick<Prisma.TransactionClient, "setting">): Promise<Settings> {
  const rows = await db.setting.findMany();
  const stored = Object.fromEntries(rows.map((r) => [r.key, r.value]));
  return settingsSchema.parse({ ...defaults(), ...stored });
}

export function forgetCachedSettings(): void {
  cache = null;
}

// ---- validation of a new value, per key ---------------------------------------------------------

function isCidr(value: string): boolean {
  const [ip, bits, ...rest] = value.split("/");
  if (rest.length > 0 || !ip) return false;
  const family = isIP(ip);
  if (family === 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * A whole number of minutes (or days) within bounds: a number, or the digits typed in the form ("1e3",
 * "1.5", " " are refused). Messages are catalog keys (settings.validation.*), worded by saveSetting.
 */
function wholeMinutes(
  min: number,
  max: number,
  span: "hour" | "day" | "week" | "tenYears",
  unit: "minute" | "day" = "minute",
) {
  const units = unit === "day" ? "Days" : "Minutes";
  const tooMany = { message: `settings.validation.atMost${units}`, params: { maximum: max, span } };
  return z
    .union([z.number(), z.string()], { error: `settings.validation.whole${units}` })
    .transform((v, ctx): number => {
      const fail = (issue: { message: string; params?: Record<string, unknown> }) => {
        ctx.addIssue({ code: "custom", ...issue });
        return z.NEVER;
      };
      let n = v;
      if (typeof n === "string") {
        const t = n.trim();
        if (!/^\d+$/.test(t)) return fail({ message: `settings.validation.digitsOnly${units}` });
        if (t.length > 9) return fail(tooMany);
        n = Number(t);
      }
      if (!Number.isInteger(n)) return fail({ message: `settings.validation.whole${units}` });
      if (n < min) return fail({ message: `settings.validation.atLeast${units}`, params: { minimum: min } });
      if (n > max) return fail(tooMany);
      return n;
    });
}

/** An amount typed in either language ("50000,50" or "50000.50") as a plain decimal string; other text as it is. */
const typedAmount = (v: string) => {
  const parsed = parseAmountInput(v);
  return parsed.ok ? parsed.value : v.trim();
};

type ValueProblem = readonly [message: string, params?: Record<string, unknown>] | null;

/**
 * A decimal setting typed in either language, in plain notation. One message: the first problem `check`
 * finds (later checks would not make sense on a broken value).
 */
function decimalSetting(typeMessage: string, check: (v: string) => ValueProblem) {
  return z
    .string({ error: typeMessage })
    .transform(typedAmount)
    .superRefine((v, ctx) => {
      const problem = check(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem[0], params: problem[1] });
    })
    .transform((v) => new Decimal(v).toFixed());
}

/** A positive decimal string with at most 4 decimals and no exponent (an amount in the payment currency). */
export const thresholdSchema = decimalSetting("settings.validation.thresholdType", (v) => {
  if (v === "") return ["settings.validation.thresholdEmpty"];
  if (v.length > 30) return ["settings.validation.atMostCharacters", { maximum: 30 }];
  if (!/^\d+(\.\d+)?$/.test(v)) return ["settings.validation.plainDigits"];
  if (!/^\d+(\.\d{1,4})?$/.test(v)) return ["settings.validation.fourDecimals"];
  if (!new Decimal(v).greaterThan(0)) return ["settings.validation.aboveZero"];
  return null;
});

/** A percentage above 0 and at most 50, with at most 2 decimals (e.g. 1 or 2.5). */
export const percentSchema = decimalSetting("settings.validation.percentType", (v) => {
  if (v === "") return ["settings.validation.percentEmpty"];
  if (v.length > 10) return ["settings.validation.atMostCharacters", { maximum: 10 }];
  if (!/^\d+(\.\d{1,2})?$/.test(v)) return ["settings.validation.percentDigits"];
  const n = new Decimal(v);
  if (!n.greaterThan(0)) return ["settings.validation.aboveZero"];
  if (n.greaterThan(50)) return ["settings.validation.percentMax"];
  return null;
});

export const settingValueSchemas = {
  webhookAllowedIps: z
    .array(
      z
        .string({ error: "settings.validation.entryText" })
        .trim()
        .max(64, "settings.validation.entryLength")
        .refine(isCidr, "settings.validation.entryCidr"),
      { error: "settings.validation.listType" },
    )
    .max(200, "settings.validation.listLength")
    .transform((list) => [...new Set(list)]),
  webhookBearerToken: z
    .string({ error: "settings.validation.tokenType" })
    .trim()
    .min(16, "settings.validation.tokenShort")
    .max(512, "settings.validation.tokenLong")
    .regex(/^[\x21-\x7e]+$/, "settings.validation.tokenAscii")
    .nullable(),
  webhookOpenEndpoint: z.boolean({ error: "settings.validation.onOff" }),
  stuckOperationMinutes: wholeMinutes(1, 10_080, "week"),
  autoApproveBelow: thresholdSchema.nullable(),
  twoApprovalsAbove: thresholdSchema.nullable(),
  allowPrivateWebhookUrls: z.boolean({ error: "settings.validation.onOff" }),
  sessionLifetimeMinutes: wholeMinutes(15, SESSION_LIFETIME_MAX_MINUTES, "week"),
  sessionIdleMinutes: wholeMinutes(5, 24 * 60, "day"),
  autoApproveRecipientDailySum: thresholdSchema.nullable(),
  nearDuplicateTolerancePercent: percentSchema.nullable(),
  balanceDifferenceMinutes: wholeMinutes(1, 10_080, "week"),
  apiCallRetentionDays: wholeMinutes(7, 3650, "tenYears", "day"),
  failedApiCallRetentionDays: wholeMinutes(7, 3650, "tenYears", "day"),
  webhookRetentionDays: wholeMinutes(7, 3650, "tenYears", "day"),
  refusedWebhookRetentionDays: wholeMinutes(7, 3650, "tenYears", "day"),
  twoFactorRequiredRoles: z
    .array(z.enum(roles, { error: "settings.validation.roleEach" }), {
      error: "settings.validation.roleList",
    })
    .max(roles.length)
    .transform((list): Role[] => roles.filter((r) => list.includes(r))),
  stepUpFreshMinutes: wholeMinutes(1, 60, "hour"),
} satisfies { [K in SettingKey]: z.ZodType<Settings[K], unknown> };

export const settingKeySchema = z.enum(settingKeys as [SettingKey, ...SettingKey[]], {
  error: "settings.validation.unknownSetting",
});

export type SaveResult<K extends SettingKey = SettingKey> =
  | { ok: true; key: K; value: PublicSettings[PublicKey<K>] }
  | { ok: false; code: "invalid"; message: string; fieldErrors: Record<string, string[] | undefined> };

// ---- what the browser may see ---------------------------------------------------------------------

/** Settings as shown in the console: the bearer token only as configured or not, never its value. */
export type PublicSettings = Omit<Settings, "webhookBearerToken"> & { webhookBearerTokenConfigured: boolean };
type PublicKey<K extends SettingKey> = K extends "webhookBearerToken" ? "webhookBearerTokenConfigured" : K;

export function toPublicSettings(settings: Settings): PublicSettings {
  const { webhookBearerToken, ...rest } = settings;
  return { ...rest, webhookBearerTokenConfigured: webhookBearerToken !== null };
}

/** The audit's view of a value: the bearer token is recorded as configured or not, never its text. */
function auditValue(key: SettingKey, value: Settings[SettingKey]): Prisma.InputJsonValue {
  if (key === "webhookBearerToken") return { configured: value !== null };
  return { [key]: value } as Prisma.InputJsonValue;
}

function invalid(message: string): SaveResult {
  return { ok: false, code: "invalid", message, fieldErrors: { value: [message] } };
}

type SettingsTranslator = ReturnType<typeof translatorIn<"settings">>;

/**
 * A problem with a value in words: the schemas write catalog keys (settings.validation.*) with their
 * figures as parameters; zod's own messages (a wrong type...) come from zod's locale of the language.
 */
function problemText(issue: z.core.$ZodIssue | undefined, t: SettingsTranslator): string {
  const key = issue?.message.startsWith("settings.") ? issue.message.slice("settings.".length) : null;
  if (!issue || !key || !t.has(key as "title")) return issue?.message ?? t("validation.invalidValue");
  const values: Record<string, string | number> = {};
  if (issue.code === "custom") Object.assign(values, issue.params);
  if ("minimum" in issue) values.minimum = Number(issue.minimum);
  if ("maximum" in issue) values.maximum = Number(issue.maximum);
  return t(key as "title", values as never);
}

/** Failed calls and refused webhooks are what support digs into later: kept at least as long as the rest. */
const RETENTION_PAIRS = [
  { normal: "apiCallRetentionDays", longer: "failedApiCallRetentionDays" },
  { normal: "webhookRetentionDays", longer: "refusedWebhookRetentionDays" },
] as const;

/** What a change of `k` would put out of order among settings that bound one another, in words; or null. */
function orderProblem(k: SettingKey, next: Settings, t: SettingsTranslator): string | null {
  if (
    (k === "autoApproveBelow" || k === "twoApprovalsAbove") &&
    next.autoApproveBelow !== null &&
    next.twoApprovalsAbove !== null &&
    new Decimal(next.autoApproveBelow).greaterThan(next.twoApprovalsAbove)
  ) {
    return t("validation.limitsOrder");
  }
  // A session ends at its lifetime whatever its activity: an idle timeout beyond it would never apply.
  if (
    (k === "sessionIdleMinutes" || k === "sessionLifetimeMinutes") &&
    next.sessionIdleMinutes > next.sessionLifetimeMinutes
  ) {
    return k === "sessionIdleMinutes"
      ? t("validation.sessionIdleAtMost", { minutes: next.sessionLifetimeMinutes })
      : t("validation.sessionLifetimeAtLeast", { minutes: next.sessionIdleMinutes });
  }
  for (const { normal, longer } of RETENTION_PAIRS) {
    if ((k !== normal && k !== longer) || next[longer] >= next[normal]) continue;
    return k === longer
      ? t("validation.retentionAtLeast", { days: next[normal] })
      : t("validation.retentionAtMost", { days: next[longer] });
  }
  return null;
}

const SETTINGS_SAVE_LOCK = 7370013;

/**
 * Validates and stores one setting, audited with the old and new value (the bearer token as
 * configured or not), then drops this process's cache so the change applies at once. Refusals are
 * worded in `locale` (the server action passes the user's; absent: the deployment's).
 */
export async function saveSetting(
  actor: Actor,
  key: unknown,
  value: unknown,
  locale: Locale = getEnv().DEFAULT_LOCALE,
): Promise<SaveResult> {
  const t = translatorIn("settings", locale);
  const parsedKey = settingKeySchema.safeParse(key);
  if (!parsedKey.success) return invalid(t("validation.unknownSetting"));
  const k = parsedKey.data;
  const zodLocale = locale === "ru" ? zodRu : zodEn;
  const parsed = settingValueSchemas[k].safeParse(value, { error: zodLocale().localeError });
  if (!parsed.success) return invalid(problemText(parsed.error.issues[0], t));
  const next = parsed.data as Settings[SettingKey];

  // A cleared value is stored as JSON null: it overrides the environment's default.
  const stored = next === null ? Prisma.JsonNull : (next as Prisma.InputJsonValue);
  const saved = await getDb().$transaction(async (tx) => {
    // Saves take turns, so the order check sees the settings a concurrent save has just written.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SETTINGS_SAVE_LOCK})`;
    const current = await readSettings(tx);
    const problem = orderProblem(k, { ...current, [k]: next }, t);
    if (problem !== null) return { ok: false as const, problem };
    await tx.setting.upsert({
      where: { key: k },
      create: { key: k, value: stored, updatedById: actor.id },
      update: { value: stored, updatedById: actor.id },
    });
    await audit(tx, actor, {
      action: "settings.update",
      targetType: "setting",
      targetId: k,
      before: auditValue(k, current[k]),
      after: auditValue(k, next),
    });
    return { ok: true as const, settings: toPublicSettings({ ...current, [k]: next }) };
  });
  if (!saved.ok) return invalid(saved.problem);
  forgetCachedSettings();
  const publicKey = (k === "webhookBearerToken" ? "webhookBearerTokenConfigured" : k) as keyof PublicSettings;
  return { ok: true, key: k, value: saved.settings[publicKey] } as SaveResult;
}
