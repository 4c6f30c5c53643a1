import "server-only";
import { audit, type Actor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import {
  createOnce,
  IdempotencyConflictError,
  type Creation,
  type CreationOutcome,
} from "@/lib/operations/mirror/create-once";
import { translatorFor } from "@/lib/auth/translator";
import { getLog } from "@/lib/log";
import type { FullLinkInput, PayInInput, PrepareLinkInput } from "@/lib/payins/schemas";
import { qrDataUrl } from "@/lib/qr";
import { wordsIn } from "@/lib/auth/translator";
import { explainPlatformRefusal, type RefusalSubject } from "@/lib/platform/explain";

type Platform = Parameters<typeof createOnce>[0];

/** The transfer details of a new pay-in: shown once, in the creation result, never offered for reuse. */
export type TransferDetails = {
  paymentMethod: string | null;
  bankName: string | null;
  nameMediator: string | null;
  number: string | null;
  numberAdditional: string | null;
  qRcode: string | null;
  /** The QR code the platform sent (text), drawn as an image for the client to scan; null when none. */
  qRcodeImage: string | null;
};

export type CreateFailure =
  | {
      ok: false;
      code: "rejected";
      codeError: string | null;
      /** Our explanation in the reader's language (lib/platform/explain.ts). */
      message: string;
      /** The platform's own message, unchanged. */
      platformMessage: string | null;
      traceID: string | null;
    }
  | { ok: false; code: "pending"; message: string; traceID: string | null }
  | { ok: false; code: "conflict" | "failed"; message: string; traceID: null };

export type PayInCreated = {
  ok: true;
  operationId: string;
  traceID: string | null;
  amount: string | null;
  currency: string | null;
  /** Only for the call that received the creation answer; null when none came with it or when sent again. */
  details: TransferDetails | null;
  /** This form was already submitted: its details (if any) were handed out then and are not again. */
  alreadySent: boolean;
};

export type LinkCreated = {
  ok: true;
  operationId: string | null;
  traceID: string | null;
  link: string | null;
  /** Null also when the link holds too much for a QR code: the link is still shown. */
  qr: string | null;
  /** The platform created it, but the answer carrying the link never arrived (the list has no links). */
  linkLost: boolean;
};

/** A refusal or a lost answer in words: what staff can do about it (spec: Errors). */
async function failureOf(
  outcome: Exclude<CreationOutcome, { status: "created" }>,
  creation: Creation,
): Promise<CreateFailure> {
  if (outcome.status === "pending") {
    const t = await translatorFor("payins");
    const reason = outcome.reason ?? "answerLost";
    const message =
      reason === "stopped"
        ? t("failures.stopped", { id: creation.request.idTransactionMerchant })
        : t(`failures.${reason}`);
    return { ok: false, code: "pending", message, traceID: outcome.traceID };
  }
  const subject: RefusalSubject = creation.kind === "payIn" ? "payin" : "paymentLink";
  if (outcome.refusedBeforeSending) {
    // Paydesk's own refusal: nothing reached the platform, so there is no platform message to show.
    const t = await translatorFor("payins");
    const { field } = outcome.refusedBeforeSending;
    return {
      ok: false,
      code: "rejected",
      codeError: null,
      message: field
        ? t("failures.refusedBeforeSendingField", { field })
        : t("failures.refusedBeforeSending"),
      platformMessage: null,
      traceID: null,
    };
  }
  const explained = explainPlatformRefusal(
    {
      codeError: outcome.codeError,
      message: outcome.message,
      traceID: outcome.traceID,
      kind: outcome.kind,
      httpStatus: outcome.httpStatus,
      paymentMethod: "paymentMethod" in creation.request ? creation.request.paymentMethod : null,
    },
    await wordsIn("platformErrors"),
    subject,
  );
  return {
    ok: false,
    code: "rejected",
    codeError: outcome.codeError,
    message: explained.message,
    platformMessage: explained.platformMessage,
    traceID: outcome.traceID,
  };
}

const opaqueText = (v: unknown): string | null =>
  v === null || v === undefined ? null : typeof v === "string" ? v : JSON.stringify(v);

/** A QR code of the text, or null when it holds more than a QR code can (the text is shown all the same). */
async function qrOrNull(text: string): Promise<string | null> {
  try {
    return await qrDataUrl(text);
  } catch (error) {
    getLog().warn({ err: error, length: text.length }, "no QR code: the text does not fit in one");
    return null;
  }
}

async function run(
  platform: Platform,
  creation: Creation,
  actor: Actor,
): Promise<CreationOutcome | { status: "conflict" } | { status: "failed" }> {
  let outcome: CreationOutcome | { status: "conflict" } | { status: "failed" };
  try {
    outcome = await createOnce(platform, creation, { actorUserId: actor.id ?? undefined });
  } catch (error) {
    if (error instanceof IdempotencyConflictError) outcome = { status: "conflict" };
    else {
      getLog().error(
        { err: error, idTransactionMerchant: creation.request.idTransactionMerchant },
        "creation failed",
      );
      outcome = { status: "failed" };
    }
  }
  const { request } = creation;
  await getDb().$transaction((tx) =>
    audit(tx, actor, {
      action: creation.kind === "payIn" ? "payin.create" : "paymentLink.create",
      targetType: "operation",
      targetId: outcome.status === "created" ? outcome.operationId : request.idTransactionMerchant,
      after: {
        kind: creation.kind,
        idTransactionMerchant: request.idTransactionMerchant,
        amount: request.amount,
        paymentMethod: "paymentMethod" in request ? request.paymentMethod : null,
        outcome: outcome.status,
        traceID: "traceID" in outcome ? outcome.traceID : null,
      },
    }),
  );
  return outcome;
}

async function otherFailure(status: "conflict" | "failed"): Promise<CreateFailure> {
  const t = await translatorFor("payins");
  return status === "conflict"
    ? { ok: false, code: "conflict", message: t("failures.conflict"), traceID: null }
    : { ok: false, code: "failed", message: t("failures.failed"), traceID: null };
}

const client = (input: PayInInput | PrepareLinkInput) => ({
  amount: input.amount,
  clientID: input.clientID,
  clientIP: input.clientIP,
  clientDateCreated: input.clientDateCreated,
});

/** Host-to-host pay-in, exactly once per form (idTransactionMerchant from the form's key). */
export async function createPayIn(
  platform: Platform,
  actor: Actor,
  input: PayInInput,
): Promise<PayInCreated | CreateFailure> {
  const creation: Creation = {
    kind: "payIn",
    request: {
      paymentMethod: input.paymentMethod,
      idTransactionMerchant: `payin-${input.requestKey}`,
      ...client(input),
    },
  };
  const outcome = await run(platform, creation, actor);
  if (outcome.status === "conflict" || outcome.status === "failed") return otherFailure(outcome.status);
  if (outcome.status !== "created") return failureOf(outcome, creation);
  const op = outcome.operation;
  // single-use: only the call that confirmed the creation hands them out (create-once.ts)
  const firstAnswer = outcome.confirmedNow === true;
  const d = firstAnswer ? (op?.paymentDetailsData ?? null) : null;
  return {
    ok: true,
    operationId: outcome.operationId,
    traceID: outcome.traceID,
    amount: op ? op.amount.toFixed() : null,
    currency: op?.currency ?? null,
    details: d
      ? {
          paymentMethod: d.paymentMethod,
          bankName: d.bankName,
          nameMediator: d.nameMediator,
          number: d.number,
          numberAdditional: opaqueText(d.numberAdditional),
          qRcode: opaqueText(d.qRcode),
          qRcodeImage: typeof d.qRcode === "string" && d.qRcode !== "" ? await qrOrNull(d.qRcode) : null,
        }
      : null,
    alreadySent: !firstAnswer,
  };
}

/** Only an http(s) link is handed to the browser (never javascript: or data: from a remote answer). */
function safeLink(link: string | null): string | null {
  if (!link) return null;
  try {
    const url = new URL(link);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}

/** Payment link: `prepare` (client chooses the method) or `full` (method fixed), exactly once per form. */
export async function createPaymentLink(
  platform: Platform,
  actor: Actor,
  input: ({ mode: "prepare" } & PrepareLinkInput) | ({ mode: "full" } & FullLinkInput),
): Promise<LinkCreated | CreateFailure> {
  const redirects = {
    ...(input.redirectSuccessURL ? { redirectSuccessURL: input.redirectSuccessURL } : {}),
    ...(input.redirectFailURL ? { redirectFailURL: input.redirectFailURL } : {}),
  };
  const base = {
    idTransactionMerchant: `link-${input.requestKey}`,
    ...client(input),
    ...(Object.keys(redirects).length ? { integrationMerhcnatData: redirects } : {}),
  };
  const creation: Creation =
    input.mode === "full"
      ? { kind: "formFull", request: { ...base, paymentMethod: input.paymentMethod } }
      : { kind: "formPrepare", request: base };
  const outcome = await run(platform, creation, actor);
  if (outcome.status === "conflict" || outcome.status === "failed") return otherFailure(outcome.status);
  if (outcome.status !== "created") return failureOf(outcome, creation);
  const operationId = outcome.operationId || null;
  let link = outcome.linkPaymentForm;
  if (!link && operationId) {
    // an intent confirmed before it kept the link: the mirror may have it from the first answer
    const op = await getDb().operation.findUnique({
      where: { id: operationId },
      select: { linkPaymentForm: true },
    });
    link = op?.linkPaymentForm ?? null;
  }
  const shown = safeLink(link);
  return {
    ok: true,
    operationId,
    traceID: outcome.traceID,
    link: shown,
    qr: shown ? await qrOrNull(shown) : null,
    linkLost: link === null,
  };
}
