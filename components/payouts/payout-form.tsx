"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { formatMoney, formatRate } from "@/lib/money/format";
import { createPayoutRequestAction, reviewPayoutAction, type PayoutReview } from "@/lib/actions/payouts";
import { LIMITS, payoutFormSchema } from "@/lib/payouts/schemas";

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

const numberHints: Record<string, string> = {
  toCard: "Card number, 16-19 digits",
  sbp: "Phone, +7XXXXXXXXXX (8XXXXXXXXXX is accepted)",
  toAccount: "Account number, 20 digits",
};

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
 * The pay-out form: fields checked in the browser with the same schema the server uses, then a review
 * step (bank directory, tariff, duplicate guard and balance checked by the server; nothing created),
 * then the confirmation that creates the request.
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
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [review, setReview] = useState<PayoutReview | null>(null);
  const [overrideReason, setOverrideReason] = useState("");
  const [pending, startTransition] = useTransition();

  const set = (name: keyof Values) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setValues((v) => ({ ...v, [name]: e.target.value }));

  const failed = (r: { message?: string; fieldErrors?: Errors; traceID?: string | null }) => {
    setErrors(r.fieldErrors ?? {});
    setMessage(`${r.message ?? "Something went wrong."}${r.traceID ? ` traceID ${r.traceID}` : ""}`);
  };

  const onReview = (e: React.FormEvent) => {
    e.preventDefault();
    setMessage(null);
    const local = payoutFormSchema.safeParse(values);
    const localErrors: Errors = {};
    if (!local.success) {
      for (const issue of local.error.issues) {
        const key = String(issue.path[0] ?? "form");
        (localErrors[key] ??= []).push(issue.message);
      }
    }
    if (values.bankName.trim() && !banks.includes(values.bankName.trim()) && !localErrors.bankName) {
      localErrors.bankName = ["Choose the bank from the list (canonical names of the platform's directory)."];
    }
    if (Object.keys(localErrors).length > 0) {
      setErrors(localErrors);
      setMessage("Check the highlighted fields.");
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
      const r = await createPayoutRequestAction({
        ...values,
        idTransactionMerchant: review.form.idTransactionMerchant,
        overrideReason: review.duplicate ? overrideReason : "",
      });
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
    return (
      <section aria-labelledby="review-heading" className="space-y-4" data-testid="payout-review">
        <h2 id="review-heading" className="text-lg font-semibold">
          Review the pay-out
        </h2>
        <dl className="rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
          <SummaryRow label="Merchant id (idTransactionMerchant)">
            <span className="font-mono" data-testid="review-merchant-id">
              {f.idTransactionMerchant}
            </span>
          </SummaryRow>
          <SummaryRow label="Amount">{formatMoney(f.amount, currency)}</SummaryRow>
          <SummaryRow label="Payment method">{f.paymentMethod}</SummaryRow>
          <SummaryRow label="Bank">{f.bankName}</SummaryRow>
          <SummaryRow label="Recipient number">
            <span className="font-mono">{f.recipientNumber}</span>
          </SummaryRow>
          <SummaryRow label="Recipient name">{f.recipientName || "(empty)"}</SummaryRow>
          <SummaryRow label="Client id">{f.clientID}</SummaryRow>
          <SummaryRow label="Client IP">{f.clientIP}</SummaryRow>
          <SummaryRow label="Client registered">{f.clientDateCreated.slice(0, 10)}</SummaryRow>
          <SummaryRow label="Webhook">{f.webhookUrl ?? "merchant default"}</SummaryRow>
          <SummaryRow label="Approvals needed">
            {review.requiredApprovals === 0
              ? "none: approved at once and sent when you confirm"
              : `${review.requiredApprovals} (by someone other than you)`}
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
          <h3 className="font-semibold">Balance check</h3>
          {b ? (
            <>
              <p>
                Balance: {formatMoney(b.amountInCurrencyBalance, b.currencyBalance)}
                {b.traceID && <span className="text-xs text-zinc-500"> (traceID {b.traceID})</span>}
              </p>
              {b.amountInBalanceCurrency !== null ? (
                <p>
                  This pay-out is about{" "}
                  <strong data-testid="amount-in-balance-currency">
                    {formatMoney(b.amountInBalanceCurrency, b.currencyBalance)}
                  </strong>{" "}
                  at the current rate (
                  {formatRate(b.exchangeRate, { from: b.currencyBalance, to: b.currencyPayment })}), before
                  the platform&apos;s commission.
                </p>
              ) : (
                <p>
                  The platform reports no exchange rate yet (no successful operation), so the amount cannot be
                  converted; the platform checks the balance when the pay-out is sent.
                </p>
              )}
              {insufficient && (
                <Alert>
                  The balance is too low for this pay-out at the current rate. Top up the balance or lower the
                  amount.
                </Alert>
              )}
            </>
          ) : (
            <Alert tone="warning">
              The balance could not be checked: {review.balanceProblem?.message}
              {review.balanceProblem?.traceID && ` traceID ${review.balanceProblem.traceID}`}
            </Alert>
          )}
        </div>

        {review.duplicate && (
          <div className="space-y-2">
            <Alert tone="warning">{review.duplicate.message}</Alert>
            {review.duplicate.canOverride && (
              <div className="space-y-1">
                <label htmlFor="overrideReason" className="block text-sm font-medium">
                  Reason for the override (admin)
                </label>
                <textarea
                  id="overrideReason"
                  value={overrideReason}
                  maxLength={LIMITS.overrideReason}
                  onChange={(e) => setOverrideReason(e.target.value)}
                  className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
                />
              </div>
            )}
          </div>
        )}

        {message && <Alert>{message}</Alert>}
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="secondary" onClick={() => setReview(null)} disabled={pending}>
            Back to edit
          </Button>
          <Button type="button" onClick={onCreate} disabled={pending || insufficient || blocked}>
            {pending ? "Creating…" : "Create pay-out request"}
          </Button>
        </div>
      </section>
    );
  }

  return (
    <form onSubmit={onReview} className="max-w-xl space-y-4" noValidate aria-label="New pay-out">
      <Select
        label="Payment method"
        name="paymentMethod"
        value={values.paymentMethod}
        onChange={set("paymentMethod")}
        errors={errors.paymentMethod}
      >
        <option value="">Choose…</option>
        {methods.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </Select>
      {notInTariff.length > 0 && (
        <p className="text-xs text-zinc-500">
          Not in the merchant&apos;s tariff (refused by the platform): {notInTariff.join(", ")}.
        </p>
      )}
      <div className="space-y-1">
        <Field
          label="Bank"
          name="bankName"
          list="bank-directory"
          autoComplete="off"
          placeholder="Type to search the platform's directory"
          maxLength={LIMITS.bankName}
          value={values.bankName}
          onChange={set("bankName")}
          errors={errors.bankName}
        />
        <datalist id="bank-directory">
          {banks.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </div>
      <Field
        label="Recipient number"
        name="recipientNumber"
        inputMode="tel"
        autoComplete="off"
        placeholder={numberHints[values.paymentMethod] ?? "Card (16-19 digits) or phone (+7XXXXXXXXXX)"}
        maxLength={LIMITS.recipientNumber}
        value={values.recipientNumber}
        onChange={set("recipientNumber")}
        errors={errors.recipientNumber}
      />
      <Field
        label="Recipient name (optional)"
        name="recipientName"
        autoComplete="off"
        maxLength={LIMITS.recipientName}
        value={values.recipientName}
        onChange={set("recipientName")}
        errors={errors.recipientName}
      />
      <Field
        label="Amount"
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        placeholder="1500.50"
        maxLength={LIMITS.amount}
        value={values.amount}
        onChange={set("amount")}
        errors={errors.amount}
      />
      <fieldset className="space-y-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
        <legend className="px-1 text-sm font-medium">End client (anti-fraud)</legend>
        <p className="text-xs text-zinc-500">
          The real data of the client in your system. Placeholders (0.0.0.0, &quot;test&quot;, a future date)
          are refused by the platform&apos;s anti-fraud check.
        </p>
        <Field
          label="Client id"
          name="clientID"
          autoComplete="off"
          maxLength={LIMITS.clientID}
          value={values.clientID}
          onChange={set("clientID")}
          errors={errors.clientID}
        />
        <Field
          label="Client IP address"
          name="clientIP"
          autoComplete="off"
          maxLength={LIMITS.clientIP}
          value={values.clientIP}
          onChange={set("clientIP")}
          errors={errors.clientIP}
        />
        <Field
          label="Client registered on"
          name="clientDateCreated"
          type="date"
          value={values.clientDateCreated}
          onChange={set("clientDateCreated")}
          errors={errors.clientDateCreated}
        />
      </fieldset>
      <Field
        label="Webhook URL for this pay-out (optional)"
        name="webhookUrl"
        type="url"
        autoComplete="off"
        placeholder="Leave empty to use the merchant's setting"
        maxLength={LIMITS.webhookUrl}
        value={values.webhookUrl}
        onChange={set("webhookUrl")}
        errors={errors.webhookUrl}
      />
      {message && <Alert>{message}</Alert>}
      <Button type="submit" disabled={pending}>
        {pending ? "Checking…" : "Review"}
      </Button>
      {canOverrideDuplicate && (
        <p className="text-xs text-zinc-500">
          As an admin you may override the duplicate block with a reason.
        </p>
      )}
    </form>
  );
}
