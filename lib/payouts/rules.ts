import "server-only";
import { getSettings } from "@/lib/settings/settings";
import type { PayoutRules } from "./policy";

/** The rules in force, with the ones given (tests, or a caller that already read them) taking precedence. */
export async function rulesWith(given: Partial<PayoutRules> = {}): Promise<PayoutRules> {
  const defined = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  return { ...(await getSettings()), ...defined };
}
