import "server-only";
import type { Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";

/**
 * What an audit action means, in words (messages/<locale>/audit.json, `actions`, nested by the dots of
 * the action's name: "user.language.change" is actions.user.language.change). Null for an action
 * without a description (tests/unit/audit/action-descriptions.test.ts keeps every action of the code
 * described).
 */
export function auditActionDescription(action: string, locale: Locale): string | null {
  let node: unknown = (messagesFor(locale).audit as { actions?: unknown } | undefined)?.actions;
  for (const part of action.split(".")) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, part)) return null;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "string" ? node : null;
}
