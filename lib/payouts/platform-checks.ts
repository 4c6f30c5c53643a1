/**
 * What the pay-out form is checked against before review and again before creation, beyond its schema:
 * the webhook URL, the platform's bank directory, the tariff as far as known, and the balance. Nothing
 * here is stored; the platform being unreachable is a refusal with its traceID, never a pass.
 */
import "server-only";
import { getBalanceCached } from "@/lib/balance/cached";
import { getBankDirectory } from "@/lib/banks/directory";
import { formatDate } from "@/lib/time/zone";
import { wordProblem, translatorFor } from "@/lib/auth/translator";
import { getLog } from "@/lib/log";
import { isPlatformError } from "@/lib/platform/errors";
import { getPlatformClient } from "@/lib/platform/from-env";
import { checkWebhookUrl } from "@/lib/webhooks/callback-url";
import { explainPlatformRefusal, platformErrorWords } from "./errors";
import { checkBalance, type BalanceCheck } from "./balance-check";
import { payoutMethodChoices } from "./method-choices";
import type { PayoutForm } from "./schemas";
import { payoutWords } from "./words";

type FieldErrors = Record<string, string[] | undefined>;

export type PlatformCheckRefusal = {
  ok: false;
  code: string;
  message: string;
  fieldErrors?: FieldErrors;
  /** The platform's own message when it refused a read, unchanged. */
  platformMessage?: string | null;
  traceID?: string | null;
};

async function platformProblem(error: unknown, what: "directory" | "balance"): Promise<PlatformCheckRefusal> {
  if (!isPlatformError(error)) throw error;
  const explained = explainPlatformRefusal(
    {
      codeError: error.codeError,
      codeErrorClass: error.codeErrorClass,
      message: error.platformMessage,
      traceID: error.traceID,
      kind: error.kind,
    },
    await platformErrorWords(),
  );
  getLog().warn({ err: error, traceID: error.traceID }, `pay-out form: reading the ${what} failed`);
  const { t } = await payoutWords();
  return {
    ok: false,
    code: "platform_unavailable",
    message: t(what === "directory" ? "checks.directoryUnreadable" : "checks.balanceUnreadable", {
      explanation: explained.message,
    }),
    platformMessage: explained.platformMessage,
    traceID: error.traceID,
  };
}

/**
 * A webhook URL the platform may call (checked first: a refused one asks nothing of the platform), a
 * bank from the directory (canonical names only) and a method the tariff allows, as far as known.
 */
export async function checkWithPlatform(
  form: PayoutForm,
  actorUserId: string,
): Promise<PlatformCheckRefusal | null> {
  const fieldErrors: FieldErrors = {};
  const { t, locale } = await payoutWords();
  const checkFields = (await translatorFor("common", locale))("checkFields");
  const webhookProblem = form.webhookUrl ? await checkWebhookUrl(form.webhookUrl) : null;
  if (webhookProblem) {
    fieldErrors.webhookUrl = [await wordProblem(webhookProblem, locale)];
    return { ok: false, code: "invalid", message: checkFields, fieldErrors };
  }
  const [directory, methods] = await Promise.all([
    getBankDirectory(getPlatformClient(), { actorUserId }).catch((e: unknown) => e),
    payoutMethodChoices(),
  ]);
  if (!("banks" in (directory as object))) return platformProblem(directory, "directory");
  const { banks } = directory as Awaited<ReturnType<typeof getBankDirectory>>;
  if (!banks.some((b) => b.name === form.bankName)) {
    const shown = form.bankName.length > 60 ? `${form.bankName.slice(0, 60)}…` : form.bankName;
    fieldErrors.bankName = [t("checks.bankNotInDirectory", { bank: shown })];
  }
  if (!methods.allowed.includes(form.paymentMethod)) {
    const refused = methods.notInTariff.find((m) => m.method === form.paymentMethod);
    fieldErrors.paymentMethod = [
      refused
        ? t("checks.methodNotInTariff", {
            method: form.paymentMethod,
            date: formatDate(refused.refusedAt, "UTC", locale),
          })
        : t("checks.methodNotOffered", { method: form.paymentMethod }),
    ];
  }
  return Object.keys(fieldErrors).length
    ? { ok: false, code: "invalid", message: checkFields, fieldErrors }
    : null;
}

/** The amount against the balance at the current rate; the balance unreadable is a refusal. */
export async function balanceFor(
  amount: string,
  actorUserId: string,
): Promise<BalanceCheck | PlatformCheckRefusal> {
  try {
    const balance = await getBalanceCached(getPlatformClient(), { actorUserId });
    return checkBalance(amount, balance);
  } catch (error) {
    return platformProblem(error, "balance");
  }
}
