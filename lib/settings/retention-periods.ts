import type { Settings } from "@/lib/settings/settings";

/**
 * How long platform call records (ApiCall) and webhook deliveries are kept (lib/retention/prune.ts
 * deletes them; the pages beside an operation and the trace lookup say so instead of "none"). Saving a
 * setting refuses a shorter period for the longer-kept rows; a pair stored out of order all the same (by
 * hand in the database) still keeps them as long as the rest.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export type RetentionKind = "apiCalls" | "webhooks";

export type RetentionPeriod = {
  /** Records older than this many days are deleted... */
  days: number;
  /** ...those kept longer (failed calls, refused webhooks) after this many. */
  longerDays: number;
};

export function retentionPeriods(settings: Settings): Record<RetentionKind, RetentionPeriod> {
  const pair = (days: number, longer: number): RetentionPeriod => ({
    days,
    longerDays: Math.max(days, longer),
  });
  return {
    apiCalls: pair(settings.apiCallRetentionDays, settings.failedApiCallRetentionDays),
    webhooks: pair(settings.webhookRetentionDays, settings.refusedWebhookRetentionDays),
  };
}

/** The instants before which a period's records (`normal`) and its longer-kept ones (`longer`) go. */
export function retentionCutoffs(period: RetentionPeriod, now: Date): { normal: Date; longer: Date } {
  return {
    normal: new Date(now.getTime() - period.days * DAY_MS),
    longer: new Date(now.getTime() - period.longerDays * DAY_MS),
  };
}

/** True when something that happened at `at` is old enough for retention to have deleted its records. */
export function olderThanRetention(at: Date, period: RetentionPeriod, now: Date): boolean {
  return at.getTime() < retentionCutoffs(period, now).normal.getTime();
}
