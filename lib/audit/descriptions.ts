import "server-only";
import type { Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { SYSTEM_ACTOR_NAMES } from "./log";

/**
 * What an audit action means, in words (messages/<locale>/audit.json, `actions`, nested by the dots of
 * the action's name: "user.language.change" is actions.user.language.change). Null for an action
 * without a description (tests/unit/audit/action-descriptions.test.ts keeps every action of the code
 * described).
 */
export function auditActionDescription(action: string, locale: Locale): string | null {
  let node: unknown = auditCatalog(locale)?.actions;
  for (const part of action.split(".")) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, part)) return null;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "string" ? node : null;
}

/** Who did it, as the audit page shows it: a user's email as stored, an actor without a user in words. */
export function auditActorName(stored: string, locale: Locale): string {
  if (!SYSTEM_ACTOR_NAMES.includes(stored)) return stored;
  const actors = auditCatalog(locale)?.actors as Record<string, string> | undefined;
  return actors?.[stored] ?? stored;
}

/** messages/<locale>/audit.json. */
function auditCatalog(locale: Locale): { actions?: unknown; actors?: unknown } | undefined {
  return messagesFor(locale).audit as { actions?: unknown; actors?: unknown } | undefined;
}
