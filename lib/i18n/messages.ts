import "server-only";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { isDevelopmentServer } from "@/lib/env";
import type { Locale } from "@/lib/i18n/locales";

export type Messages = Record<string, unknown>;

const loaded = new Map<Locale, Messages>();

/**
 * A locale's catalog: every `messages/<locale>/<namespace>.json`, keyed by namespace. Read once per
 * process (in development on every call, so edited catalogs show on the next render).
 */
export function messagesFor(locale: Locale): Messages {
  const cached = loaded.get(locale);
  if (cached) return cached;
  const folder = path.join(process.cwd(), "messages", locale);
  const messages: Messages = {};
  for (const file of readdirSync(folder)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    messages[file.slice(0, -".json".length)] = JSON.parse(readFileSync(path.join(folder, file), "utf8"));
  }
  if (!isDevelopmentServer()) loaded.set(locale, messages);
  return messages;
}
