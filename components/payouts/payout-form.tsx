"use client";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { useStepUp } from "@/components/auth/two-factor/step-up";
import { Button } from "@/components/ui/button";
import { Field, TextArea } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import type { Locale } from "@/lib/i18n/locales";
import { formatMoney, formatRate } from "@/lib/money/format";
import { formatIsoDay } from "@/lib/time/zone";
import { createPayoutRequestAction, reviewPayoutAction, type PayoutReview } from "@/lib/actions/payouts";
import { LIMITS } from "@/lib/payouts/limits";

type Values = {
  paymentMethod: string;
  bankName: string;
  recipientNumber: string;
  recipientName: string;
  amount: string;
  clientID: string;
  clientIP: string;
  clientDateCreated: string;
  webhookUrl: string;
};
type Errors = Record<string, string[] | undefined>;

const empty: Values = {
  paymentMethod: "",
  bankName: "",
  recipientNumber: "",
  recipientName: "",
  amount: "",
  clientID: "",
  clientIP: "",
  clientDateCreated: "",
  webhookUrl: "",
};

const NUMBER_HINTS = {
  toCard: "form.numberHint.toCard",
  sbp: "form.numberHint.sbp",
  toAccount: "form.numberHint.toAccount",
} as const;

function Alert({ children, tone = "error" }: { children: React.ReactNode; tone?: "error" | "warning" }) {
  const colors =
    tone === "error"
      ? "bg-red-50 text-red-700 dark:bg-red-950 dark:text-red-300"
      : "bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-200";
  return (
    <div role="alert" className={`rounded-md px-3 py-2 text-sm ${colors}`}>
      {children}
    </div>
  );
}

function SummaryRow({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-1 gap-1 py-1 sm:grid-cols-3">
      <dt className="text-sm text-zinc-600 dark:text-zinc-400">{label}</dt>
      <dd className="break-all text-sm sm:col-span-2">{children}</dd>
    </div>
  );
}

/**
 * The pay-out form: a review step (the fields, bank directory, tariff, duplicate guard and balance
 * checked by the server; nothing created), then the confirmation that creates the request.
 */
export function PayoutForm({
  banks,
  methods,
  notInTariff,
  canOverrideDuplicate,
}: {
  banks: string[];
  methods: string[];
  notInTariff: string[];
  /** The viewer may create a pay-out the duplicate guard blocks, with a reason (payouts.overrideDuplicate). */
  canOverrideDuplicate: boolean;
}) {
  const router = useRouter();
  const withStepUp = useStepUp();
  const t = useTranslations("payouts");
  const words = useTranslations();
  const locale = useLocale() as Locale;
  const methodLabel = (m: string) => {
    const key = `methods.${m}` as "methods.toCard";
    return t.has(key) ? `${t(key)} · ${m}` : m;
  };
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [review, setReview] = useState<PayoutReview | null>(null);
  const [overrideReason, setOverrideReason] = useState("");
  const [pending, startTransition] = useTransition();

  // A field's name, value, change handler and errors.
  const bind = (name: keyof Values) => ({
    name,
    value: values[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
      setValues((v) => ({ ...v, [name]: e.target.value })),
    errors: errors[name],
  });
  // A typed field: its length limit is the server's, the browser suggests nothing.
  const typed = (name: keyof Values & keyof typeof LIMITS) => ({
    ...bind(name),
    autoComplete: "off",
    maxLength: LIMITS[name],
  });

  const failed = (r: {
    message?: string;
    fieldErrors?: Errors;
    platformMessage?: string | null;
    traceID?: string | null;
  }) => {
    setErrors(r.fieldErrors ?? {});
    const platformSaid = r.platformMessage
      ? ` ${words.markup("platformErrors.platformSaid", { message: r.platformMessage, bdi: (text) => text })}`
      : "";
    setMessage(
      `${r.message ?? t("form.somethingWrong")}${platformSaid}${r.traceID ? ` traceID ${r.traceID}` : ""}`,
    );
  };

  const onReview = (e: React.FormEvent) => {
    e.preventDefault();
    setMessage(null);
    // Checked by the review action (the schema of every pay-out action, then the bank directory and the
    // tariff), whose messages come back worded in the user's language. Only a value past its input's
    // maxLength (the attribute removed) is refused here: the server does not read a form over 1 MB.
    const tooLong: Errors = {};
    for (const [name, value] of Object.entries(values)) {
      const maximum: number | undefined = LIMITS[name as keyof typeof LIMITS];
      if (maximum !== undefined && value.length > maximum)
        tooLong[name] = [words("validation.field.value.tooLong", { maximum })];
    }
    if (Object.keys(tooLong).length > 0) {
      setErrors(tooLong);
      setMessage(words("common.checkFields"));
      return;
    }
    startTransition(async () => {
      const r = await reviewPayoutAction(values);
      if ("review" in r) {
        setErrors({});
        setReview(r.review);
      } else failed(r);
    });
  };

  const onCreate = () => {
    if (!review) return;
    setMessage(null);
    startTransition(async () => {
      // creating may send the pay-out at once (auto-approved): the server asks for a fresh second factor
      const r = await withStepUp(() =>
        createPayoutRequestAction({
          ...values,
          idTransactionMerchant: review.form.idTransactionMerchant,
          overrideReason: review.duplicate ? overrideReason : "",
        }),
      );
      if ("id" in r) {
        router.push(`/payouts/${r.id}`);
        return;
      }
      if ("fieldErrors" in r && r.fieldErrors && Object.keys(r.fieldErrors).length) setReview(null);
      failed(r);
    });
  };

  if (review) {
    const f = review.form;
    const b = review.balance;
    const currency = b?.currencyPayment ?? "RUB";
    const insufficient = b?.sufficient === false;
    const blocked =
      review.duplicate !== null && (!review.duplicate.canOverride || overrideReason.trim() === "");
    const money = (amount: string, code: string) => formatMoney(amount, code, { locale });
    return (
      <section aria-labelledby="review-heading" className="space-y-4" data-testid="payout-review">
        <h2 id="review-heading" className="text-lg font-semibold">
          {t("review.heading")}
        </h2>
        <dl className="rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
          <SummaryRow label={t("fields.merchantIdFull")}>
            <span className="font-mono" data-testid="review-merchant-id">
              {f.idTransactionMerchant}
            </span>
          </SummaryRow>
          <SummaryRow label={t("fields.amount")}>{money(f.amount, currency)}</SummaryRow>
          <SummaryRow label={t("fields.paymentMethod")}>{methodLabel(f.paymentMethod)}</SummaryRow>
          <SummaryRow label={t("fields.bank")}>{f.bankName}</SummaryRow>
          <SummaryRow label={t("fields.recipientNumber")}>
            <span className="font-mono">{f.recipientNumber}</span>
          </SummaryRow>
          <SummaryRow label={t("fields.recipientName")}>{f.recipientName || t("fields.empty")}</SummaryRow>
          <SummaryRow label={t("fields.clientId")}>{f.clientID}</SummaryRow>
          <SummaryRow label={t("fields.clientIp")}>{f.clientIP}</SummaryRow>
          <SummaryRow label={t("fields.clientRegistered")}>
            {formatIsoDay(f.clientDateCreated.slice(0, 10), locale)}
          </SummaryRow>
          <SummaryRow label={t("fields.webhook")}>{f.webhookUrl ?? t("fields.merchantDefault")}</SummaryRow>
          <SummaryRow label={t("review.approvalsNeeded")}>
            {review.requiredApprovals === 0
              ? t("review.approvalsNone")
              : t("review.approvalsCount", { count: review.requiredApprovals })}
            {review.approvalReason && (
              <span className="block text-xs text-zinc-500" data-testid="approval-reason">
                {review.approvalReason}
              </span>
            )}
          </SummaryRow>
        </dl>

        <div
          className="space-y-1 rounded-lg border border-zinc-200 bg-white p-4 text-sm dark:border-zinc-800 dark:bg-zinc-900"
          data-testid="balance-check"
        >
          <h3 className="font-semibold">{t("review.balanceCheck")}</h3>
          {b ? (
            <>
              <p>
                {t("review.balance", { amount: money(b.amountInCurrencyBalance, b.currencyBalance) })}
                {b.traceID && <span className="text-xs text-zinc-500"> ({`traceID ${b.traceID}`})</span>}
              </p>
              {b.amountInBalanceCurrency !== null ? (
                <p>
                  {t.rich("review.converted", {
                    amount: money(b.amountInBalanceCurrency, b.currencyBalance),
                    rate: formatRate(b.exchangeRate, {
                      locale,
                      from: b.currencyBalance,
                      to: b.currencyPayment,
                    }),
                    strong: (chunks) => <strong data-testid="amount-in-balance-currency">{chunks}</strong>,
                  })}
                </p>
              ) : (
                <p>{t("review.noRate")}</p>
              )}
              {insufficient && <Alert>{t("review.insufficient")}</Alert>}
            </>
          ) : (
            <Alert tone="warning">
              {t("review.balanceUnchecked", { message: review.balanceProblem?.message ?? "" })}
              {review.balanceProblem?.platformMessage &&
                ` ${words.markup("platformErrors.platformSaid", {
                  message: review.balanceProblem.platformMessage,
                  bdi: (text) => text,
                })}`}
              {review.balanceProblem?.traceID && ` traceID ${review.balanceProblem.traceID}`}
            </Alert>
          )}
        </div>

        {review.duplicate && (
          <div className="space-y-2">
            <Alert tone="warning">{review.duplicate.message}</Alert>
            {review.duplicate.canOverride && (
              <TextArea
                label={t("review.overrideReason")}
                name="overrideReason"
                value={overrideReason}
                maxLength={LIMITS.overrideReason}
                onChange={(e) => setOverrideReason(e.target.value)}
              />
            )}
          </div>
        )}

        {message && <Alert>{message}</Alert>}
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="secondary" onClick={() => setReview(null)} disabled={pending}>
            {t("review.backToEdit")}
          </Button>
          <Button type="button" onClick={onCreate} disabled={pending || insufficient || blocked}>
            {pending ? t("review.creating") : t("review.create")}
          </Button>
        </div>
      </section>
    );
  }

  const numberHint =
    values.paymentMethod in NUMBER_HINTS
      ? t(NUMBER_HINTS[values.paymentMethod as keyof typeof NUMBER_HINTS])
      : t("form.numberHint.other");
  return (
    <form onSubmit={onReview} className="max-w-xl space-y-4" noValidate aria-label={t("newPayout")}>
      <Select label={t("fields.paymentMethod")} {...bind("paymentMethod")}>
        <option value="">{t("form.choose")}</option>
        {methods.map((m) => (
          <option key={m} value={m}>
            {methodLabel(m)}
          </option>
        ))}
      </Select>
      {notInTariff.length > 0 && (
        <p className="text-xs text-zinc-500">{t("form.notInTariff", { methods: notInTariff.join(", ") })}</p>
      )}
      <div className="space-y-1">
        <Field
          label={t("fields.bank")}
          {...typed("bankName")}
          list="bank-directory"
          placeholder={t("form.bankPlaceholder")}
        />
        <datalist id="bank-directory">
          {banks.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </div>
      <Field
        label={t("fields.recipientNumber")}
        {...typed("recipientNumber")}
        inputMode="tel"
        placeholder={numberHint}
      />
      <Field label={t("form.recipientNameOptional")} {...typed("recipientName")} />
      <Field
        label={t("fields.amount")}
        {...typed("amount")}
        inputMode="decimal"
        placeholder={t("form.amountPlaceholder")}
      />
      <fieldset className="space-y-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
        <legend className="px-1 text-sm font-medium">{t("form.endClient")}</legend>
        <p className="text-xs text-zinc-500">{t("form.endClientHint")}</p>
        <Field label={t("fields.clientId")} {...typed("clientID")} />
        <Field label={t("form.clientIpAddress")} {...typed("clientIP")} />
        <Field label={t("form.clientRegisteredOn")} {...bind("clientDateCreated")} type="date" />
      </fieldset>
      <Field
        label={t("form.webhookUrl")}
        {...typed("webhookUrl")}
        type="url"
        placeholder={t("form.webhookPlaceholder")}
      />
      {message && <Alert>{message}</Alert>}
      <Button type="submit" disabled={pending}>
        {pending ? t("form.checking") : t("form.review")}
      </Button>
      {canOverrideDuplicate && <p className="text-xs text-zinc-500">{t("form.adminOverrideHint")}</p>}
    </form>
  );
}
