/**
 * What the pay-out form is checked against before review and again before creation, beyond its schema:
 * the webhook URL, the platform's bank directory, the tariff as far as known, and the balance. Nothing
 * here is stored; the platform being unreachable is a refusal with its traceID, never a pass.
 */
import "server-only";
import { getBalanceCached } from "@/lib/balance/cached";
import { getBankDirectory } from "@/lib/banks/directory";
import { getLog } from "@/lib/log";
import { isPlatformError } from "@/lib/platform/errors";
import { getPlatformClient } from "@/lib/platform/from-env";
import { checkWebhookUrl } from "@/lib/webhooks/callback-url";
import { explainPlatformRefusal } from "./errors";
import { checkBalance, payoutMethodChoices, type BalanceCheck } from "./requests";
import type { PayoutForm } from "./schemas";

type FieldErrors = Record<string, string[] | undefined>;

export type PlatformCheckRefusal = {
  ok: false;
  code: string;
  message: string;
  fieldErrors?: FieldErrors;
  traceID?: string | null;
};

function platformProblem(error: unknown, what: string): PlatformCheckRefusal {
  if (!isPlatformError(error)) throw error;
  const explained = explainPlatformRefusal({
    codeError: error.codeError,
    message: error.platformMessage,
    traceID: error.traceID,
    kind: error.kind,
  });
  getLog().warn({ err: error, traceID: error.traceID }, `pay-out form: ${what} failed`);
  return {
    ok: false,
    code: "platform_unavailable",
    message: `${what} could not be read from the platform. ${explained.message}`,
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
  const webhookProblem = form.webhookUrl ? await checkWebhookUrl(form.webhookUrl) : null;
  if (webhookProblem) {
    fieldErrors.webhookUrl = [webhookProblem];
    return { ok: false, code: "invalid", message: "Check the highlighted fields.", fieldErrors };
  }
  const [directory, methods] = await Promise.all([
    getBankDirectory(getPlatformClient(), { actorUserId }).catch((e: unknown) => e),
    payoutMethodChoices(),
  ]);
  if (!("banks" in (directory as object))) return platformProblem(directory, "The bank directory");
  const { banks } = directory as Awaited<ReturnType<typeof getBankDirectory>>;
  if (!banks.some((b) => b.name === form.bankName)) {
    const shown = form.bankName.length > 60 ? `${form.bankName.slice(0, 60)}…` : form.bankName;
    fieldErrors.bankName = [
      `“${shown}” is not in the platform's bank directory. Choose the bank from the list (canonical names only).`,
    ];
  }
  if (!methods.allowed.includes(form.paymentMethod)) {
    const refused = methods.notInTariff.find((m) => m.method === form.paymentMethod);
    fieldErrors.paymentMethod = [
      refused
        ? `${form.paymentMethod} is not in the merchant's tariff (the platform refused it on ${refused.refusedAt.toISOString().slice(0, 10)}).`
        : `${form.paymentMethod} is not offered for pay-outs here; choose a method from the list.`,
    ];
  }
  return Object.keys(fieldErrors).length
    ? { ok: false, code: "invalid", message: "Check the highlighted fields.", fieldErrors }
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
    return platformProblem(error, "The balance");
  }
}
