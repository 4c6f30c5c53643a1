/**
 * The pay-out rules, each decided here once: who may decide on a request, cancel it or create one the
 * duplicate guard blocked, and how many approvals a new one needs. The page asks to show a button or say
 * why not; the command asks again under its lock and refuses with the same reason. Each answer carries a
 * typed reason code (never match the message text) and the request's status where the reason names it;
 * the words are in `messages/<locale>/payouts.json` (`refusals`, see refusalMessage). No role is named
 * here: the rules ask the permission matrix (lib/auth/permissions.ts). Pure: callers read the rows, the
 * settings and the recipient's sum.
 */
import type { _Translator, Messages } from "next-intl";
import { can, type Role } from "@/lib/auth/permissions";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { ApprovalDecision } from "@/lib/generated/prisma/enums";
import type { Locale } from "@/lib/i18n/locales";
import { Decimal, isDecimalString } from "@/lib/money/decimal";
import { formatMoney } from "@/lib/money/format";
import type { Settings } from "@/lib/settings/settings";
import { CANCELLABLE, OPEN_STATUSES, type PayoutRequestStatus } from "./state";

/** Who is asking: the signed-in user as the rules see them. */
export type PolicyActor = { id: string; role: Role };

export type Verdict<Reason extends string> =
  { ok: true } | { ok: false; reason: Reason; status?: PayoutRequestStatus };

const refuse = <Reason extends string>(reason: Reason, status?: PayoutRequestStatus): Verdict<Reason> =>
  status === undefined ? { ok: false, reason } : { ok: false, reason, status };

// ---- deciding (approve / reject) -------------------------------------------------------------------

export type DecideRefusal = "forbidden" | "own_request" | "already_decided" | "not_awaiting";

/**
 * An approver decides once, never on a request they made (admins included), and only while the request
 * awaits approval. Rejecting asks only this: it moves no money, and an approver cannot cancel, so
 * nothing here may leave a suspect pay-out without anyone able to stop it. Approving asks more
 * (canApprove).
 */
export function canDecide(
  request: {
    status: PayoutRequestStatus;
    makerId: string;
    approvals: ReadonlyArray<{ approverId: string }>;
  },
  actor: PolicyActor,
): Verdict<DecideRefusal> {
  if (!can(actor.role, "payouts.approve")) return refuse("forbidden");
  if (request.makerId === actor.id) return refuse("own_request");
  if (request.approvals.some((a) => a.approverId === actor.id)) return refuse("already_decided");
  if (request.status !== "awaiting_approval") return refuse("not_awaiting", request.status);
  return { ok: true };
}

/**
 * Why two people are not two for maker/checker: one of them knows the other's password, having set it
 * (User.passwordSetById: the admin who created the user or last reset the password; null when the
 * command line set it, the user changed it themselves, or there is none).
 */
export type PasswordRefusal =
  /** The approver's password was set by the maker. */
  | "password_set_by_maker"
  /** The maker's password was set by the approver. */
  | "maker_password_set_by_approver";

/** The approver as the approving rules see them: who they are and who last set their password. */
export type Decider = PolicyActor & { passwordSetById: string | null };

/** A user as the password rule sees them: who they are and who last set their password. */
type PasswordHolder = { id: string; passwordSetById: string | null };

/**
 * Maker and approver are two people only when neither can sign in as the other: refused when the
 * approver's password was set by the maker, or the maker's by the approver (an admin who creates an
 * approver, or resets a colleague's password, would otherwise approve their own pay-out under that
 * account). Whoever changes their own password clears it (null), so a null never matches. One third
 * person having set both passwords is not refused: the first admin, from the command line, creates
 * every other user in the console, so every pair would be, and no pay-out could be approved.
 */
export function passwordsIndependent(
  maker: PasswordHolder,
  approver: PasswordHolder,
): Verdict<PasswordRefusal> {
  if (approver.passwordSetById !== null && approver.passwordSetById === maker.id)
    return refuse("password_set_by_maker");
  if (maker.passwordSetById !== null && maker.passwordSetById === approver.id)
    return refuse("maker_password_set_by_approver");
  return { ok: true };
}

/**
 * An approval on record, as the approving rules read it: what was decided, whether its approver could
 * still give it (countsAsApproval), and who last set their password.
 */
export type RecordedApproval = {
  approverId: string;
  decision: ApprovalDecision;
  approver: { disabledAt: Date | null; role: Role; passwordSetById: string | null };
};

export type ApproveRefusal =
  | DecideRefusal
  | PasswordRefusal
  /** The approver set the password of an approver already counted on the request, or the reverse. */
  | "password_linked_to_earlier_approver"
  | "maker_disabled";

/**
 * Approving is deciding (canDecide), and more, since it moves money: the maker and the approver are
 * two people (passwordsIndependent); so are the approver and each approval already counted on the
 * request (with two approvals required, an admin must not give one as themselves and the other as an
 * approver whose password they set); and the maker may still make it (a disabled maker's account may
 * be the one that was misused, so their open requests can be rejected or cancelled, not approved).
 * The callers read who set the maker's, the approvers' and the approver's passwords.
 */
export function canApprove(
  request: {
    status: PayoutRequestStatus;
    makerId: string;
    maker: { disabledAt: Date | null; passwordSetById: string | null };
    approvals: ReadonlyArray<RecordedApproval>;
  },
  actor: Decider,
): Verdict<ApproveRefusal> {
  const decide = canDecide(request, actor);
  if (!decide.ok) return decide;
  const maker = passwordsIndependent(
    { id: request.makerId, passwordSetById: request.maker.passwordSetById },
    actor,
  );
  if (!maker.ok) return maker;
  const linked = request.approvals
    .filter(countsAsApproval)
    .some(
      (a) =>
        !passwordsIndependent({ id: a.approverId, passwordSetById: a.approver.passwordSetById }, actor).ok,
    );
  if (linked) return refuse("password_linked_to_earlier_approver");
  if (request.maker.disabledAt !== null) return refuse("maker_disabled");
  return { ok: true };
}

/**
 * An approval counts towards the approvals a request needs only while its approver could give it now:
 * enabled and still holding payouts.approve.
 */
export function countsAsApproval(approval: {
  decision: ApprovalDecision;
  approver: { disabledAt: Date | null; role: Role };
}): boolean {
  return (
    approval.decision === "approve" &&
    approval.approver.disabledAt === null &&
    can(approval.approver.role, "payouts.approve")
  );
}

export type ReleaseRefusal = "maker_disabled" | "approvals_lost";

/**
 * An approved request is sent only while its approval still holds: its maker's account is enabled and
 * enough of its approvals still count (countsAsApproval). An account disabled after the approval (a
 * misused maker, a compromised approver) stops the money; the request can still be cancelled.
 */
export function canRelease(request: {
  requiredApprovals: number;
  maker: { disabledAt: Date | null };
  approvals: ReadonlyArray<Parameters<typeof countsAsApproval>[0]>;
}): Verdict<ReleaseRefusal> & { counted: number } {
  const counted = request.approvals.filter(countsAsApproval).length;
  if (request.maker.disabledAt !== null) return { ...refuse("maker_disabled"), counted };
  if (counted < request.requiredApprovals) return { ...refuse("approvals_lost"), counted };
  return { ok: true, counted };
}

/** Why an approved request is not sent (canRelease), in the reader's words. */
export function releaseRefusalMessage(
  t: _Translator<Messages, "payouts">,
  verdict: { reason: ReleaseRefusal; counted: number },
  required: number,
): string {
  return verdict.reason === "maker_disabled"
    ? t("submit.makerDisabled")
    : t("submit.approvalsLost", { required, counted: verdict.counted });
}

// ---- cancelling ---------------------------------------------------------------------------------

export type CancelRefusal = "not_allowed" | "forbidden" | "too_late";

/**
 * The maker, or someone who may cancel any request (payouts.cancelAny), cancels a request that has not
 * been sent yet (draft, awaiting approval, approved); cancelling is part of making pay-outs
 * (payouts.create).
 */
export function canCancel(
  request: { status: PayoutRequestStatus; makerId: string },
  actor: PolicyActor,
): Verdict<CancelRefusal> {
  if (request.makerId !== actor.id && !can(actor.role, "payouts.cancelAny")) return refuse("not_allowed");
  if (!can(actor.role, "payouts.create")) return refuse("forbidden");
  if (!CANCELLABLE.includes(request.status)) return refuse("too_late", request.status);
  return { ok: true };
}

// ---- the duplicate guard's override -----------------------------------------------------------------

export type OverrideRefusal = "override_forbidden";

/** Creating a pay-out the duplicate guard blocked, with a reason, is for payouts.overrideDuplicate. */
export function canOverrideDuplicate(actor: Pick<PolicyActor, "role">): Verdict<OverrideRefusal> {
  return can(actor.role, "payouts.overrideDuplicate") ? { ok: true } : refuse("override_forbidden");
}

// ---- the refusals in words ----------------------------------------------------------------------

export type PolicyRefusal = ApproveRefusal | CancelRefusal | OverrideRefusal;

/** The sentence of each refusal in `payouts.refusals` ({status}: the request's status in words). */
export const REFUSAL_KEYS = {
  forbidden: "refusals.forbidden",
  own_request: "refusals.ownRequest",
  already_decided: "refusals.alreadyDecided",
  not_awaiting: "refusals.notAwaiting",
  maker_disabled: "refusals.makerDisabled",
  password_set_by_maker: "refusals.passwordSetByMaker",
  maker_password_set_by_approver: "refusals.makerPasswordSetByYou",
  password_linked_to_earlier_approver: "refusals.passwordLinkedToEarlierApprover",
  not_allowed: "refusals.notAllowed",
  too_late: "refusals.tooLate",
  override_forbidden: "refusals.overrideForbidden",
} as const satisfies Record<PolicyRefusal, `refusals.${string}`>;

/**
 * A refusal in words, with a translator of the `payouts` namespace (the server's translatorFor or a
 * component's useTranslations): the page and the command say the same sentence.
 */
export function refusalMessage(
  t: _Translator<Messages, "payouts">,
  verdict: { reason: PolicyRefusal; status?: PayoutRequestStatus },
): string {
  const status = verdict.status ? t(`statuses.${verdict.status}`) : "";
  return t(REFUSAL_KEYS[verdict.reason], { status });
}

// ---- approvals a new request needs ----------------------------------------------------------------

/** The creation rules an admin sets (lib/settings): approval thresholds and the near-duplicate tolerance. */
export type PayoutRules = Pick<
  Settings,
  "autoApproveBelow" | "twoApprovalsAbove" | "autoApproveRecipientDailySum" | "nearDuplicateTolerancePercent"
>;
export type Thresholds = Pick<PayoutRules, "autoApproveBelow" | "twoApprovalsAbove">;

/** A limit from the settings as a Decimal; an unset or malformed one is no rule. */
export function limitOf(value: string | null | undefined): Decimal | null {
  const v = value?.trim();
  return v && isDecimalString(v) ? new Decimal(v) : null;
}

/**
 * Approvals a request needs by its amount alone (payment currency): below `autoApproveBelow` none (the
 * request is approved at once and handed to the worker), above `twoApprovalsAbove` two, otherwise one.
 * An unset or malformed threshold is no rule. `requiredApprovals` adds the recipient's other pay-outs
 * (creation asks that one, never this one alone).
 */
export function requiredApprovalsFor(amount: string, thresholds: Thresholds): 0 | 1 | 2 {
  const value = new Decimal(amount);
  const auto = limitOf(thresholds.autoApproveBelow);
  const two = limitOf(thresholds.twoApprovalsAbove);
  if (auto && value.lessThan(auto)) return 0;
  if (two && value.greaterThan(two)) return 2;
  return 1;
}

/** The recipient's sent pay-outs count for this long (open ones count whatever their age). */
export const RECIPIENT_WINDOW_HOURS = 24;

export type ApprovalReason =
  /** Below the auto-approval limit, the recipient's window included: approved at once. */
  | "below_auto_approve_limit"
  /** No auto-approval limit is set: every request takes an approver. */
  | "auto_approve_off"
  | "amount_not_below_auto_approve_limit"
  | "amount_above_two_approvals_limit"
  /** Below the limit alone, but not with the recipient's other pay-outs of the window. */
  | "recipient_window_reached"
  /** Not above the two-approval limit alone, but above it with the recipient's pay-outs of the window. */
  | "recipient_window_above_two_approvals_limit";

export type ApprovalNeed = {
  /** True when no approver is needed: the request is approved at once. */
  ok: boolean;
  reason: ApprovalReason;
  requiredApprovals: 0 | 1 | 2;
  /**
   * Why an approver is needed, in English: the audit log's record (the review shows
   * approvalReasonMessage in the reader's language); null when none is or no limit is set.
   */
  message: string | null;
  /**
   * The recipient's counted pay-outs of the window before this one, and the limits they were held to:
   * `limit` for auto-approval, `twoApprovalsLimit` for the second approver (null: no such rule).
   */
  recipientWindow: {
    hours: number;
    sumBefore: string;
    limit: string | null;
    twoApprovalsLimit: string | null;
  };
};

/**
 * Approvals for a pay-out given the sum of the recipient's other counted pay-outs (`sumBefore`: every
 * open one and those sent in the last 24 h, see countedForRecipient). It is auto-approved only when its
 * own amount is below `autoApproveBelow` and the recipient's sum with it stays below
 * `autoApproveRecipientDailySum` (unset: `autoApproveBelow` itself), so five pay-outs of 999.99 to one
 * card are not five auto-approvals of a 1000 limit. `autoApproveBelow` unset means no auto-approval at
 * all. The same sum decides the second approver: two approvals when the amount, or the recipient's sum
 * with it, is above `twoApprovalsAbove`, so 9000 + 6000 to one card take two approvers like 15000 at
 * once (with a limit of 10000). Asked at creation and again by each approval (approvals.ts), on the sum
 * as it is then.
 */
export function requiredApprovals(amount: string, sumBefore: Decimal, rules: PayoutRules): ApprovalNeed {
  const byAmount = requiredApprovalsFor(amount, rules);
  const auto = limitOf(rules.autoApproveBelow);
  const two = limitOf(rules.twoApprovalsAbove);
  const limit = limitOf(rules.autoApproveRecipientDailySum) ?? auto;
  const total = sumBefore.plus(amount);
  const recipientWindow = {
    hours: RECIPIENT_WINDOW_HOURS,
    sumBefore: sumBefore.toFixed(),
    limit: limit?.toFixed() ?? null,
    twoApprovalsLimit: two?.toFixed() ?? null,
  };
  if (byAmount !== 2 && two && total.greaterThan(two))
    return {
      ok: false,
      reason: "recipient_window_above_two_approvals_limit",
      requiredApprovals: 2,
      message:
        `This recipient's other pay-outs, open or sent in the last ${RECIPIENT_WINDOW_HOURS} h ` +
        `(${sumBefore.toFixed()}), and this one (${new Decimal(amount).toFixed()}) come to ${total.toFixed()}, above the two-approval limit ` +
        `(${two.toFixed()}): two approvers must check it.`,
      recipientWindow,
    };
  if (byAmount !== 0) {
    const reason: ApprovalReason =
      byAmount === 2
        ? "amount_above_two_approvals_limit"
        : auto
          ? "amount_not_below_auto_approve_limit"
          : "auto_approve_off";
    const message = auto ? `The amount is not below the auto-approval limit (${auto.toFixed()}).` : null;
    return { ok: false, reason, requiredApprovals: byAmount, message, recipientWindow };
  }
  if (limit && total.lessThan(limit))
    return {
      ok: true,
      reason: "below_auto_approve_limit",
      requiredApprovals: 0,
      message: null,
      recipientWindow,
    };
  return {
    ok: false,
    reason: "recipient_window_reached",
    requiredApprovals: 1,
    message:
      `This recipient's other pay-outs, open or sent in the last ${RECIPIENT_WINDOW_HOURS} h ` +
      `(${sumBefore.toFixed()}), and this one (${new Decimal(amount).toFixed()}) come to ${total.toFixed()}, not below the auto-approval limit per ` +
      `recipient (${limit?.toFixed() ?? "none"}): an approver must check it.`,
    recipientWindow,
  };
}

/**
 * Why an approver is needed, for the person reviewing a new pay-out (the audit keeps `message`, the
 * record in English): null when none is needed or no limit is set.
 */
export function approvalReasonMessage(
  t: _Translator<Messages, "payouts">,
  need: ApprovalNeed,
  amount: string,
  autoApproveBelow: string | null,
  locale: Locale,
): string | null {
  const number = (v: Decimal | string) =>
    formatMoney(typeof v === "string" ? v : v.toFixed(), "", { locale, minimumFractionDigits: 0 });
  const auto = limitOf(autoApproveBelow);
  const windowKey =
    need.reason === "recipient_window_above_two_approvals_limit"
      ? "approval.recipientWindowTwoApprovals"
      : need.reason === "recipient_window_reached"
        ? "approval.recipientWindow"
        : null;
  if (windowKey) {
    const { hours, sumBefore, limit, twoApprovalsLimit } = need.recipientWindow;
    const heldTo = windowKey === "approval.recipientWindow" ? limit : twoApprovalsLimit;
    return t(windowKey, {
      hours,
      sumBefore: number(sumBefore),
      amount: number(amount),
      total: number(new Decimal(sumBefore).plus(amount)),
      limit: heldTo === null ? t("approval.noLimit") : number(heldTo),
    });
  }
  if (need.ok || need.reason === "auto_approve_off" || !auto) return null;
  return t("approval.notBelowLimit", { limit: number(auto) });
}

/**
 * The recipient's pay-outs that count (for the approvals a request needs and near-duplicates): every
 * request still on its way, whatever its age (awaiting approval, approved or submitting: it may leave
 * any minute), and those sent within the window, by when they were sent. Not rejected, cancelled or
 * refused ones, nor a sent one whose operation failed on the platform. The recipient is the normalised
 * number alone, whatever the method: a card reached through toCard or a mono-bank pair is the same card,
 * an sbp phone the same phone (cards and 20-digit accounts never collide). Pay-outs created outside the
 * console carry no recipient in their reads and are not seen.
 */
export function countedForRecipient(recipientNumber: string, now: Date): Prisma.PayoutRequestWhereInput {
  return {
    recipientNumber,
    OR: [
      { status: { in: [...OPEN_STATUSES] } },
      {
        status: "submitted",
        submittedAt: { gte: new Date(now.getTime() - RECIPIENT_WINDOW_HOURS * 3_600_000) },
        OR: [{ operationId: null }, { operation: { status: { not: "failed" } } }],
      },
    ],
  };
}
