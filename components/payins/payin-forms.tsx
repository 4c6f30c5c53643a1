"use client";
import Link from "next/link";
import { useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { createPaymentLinkAction, createPayInAction } from "@/lib/actions/payins";
import { payInMethods } from "@/lib/payins/schemas";

type Errors = Record<string, string[] | undefined>;
type Mode = "payin" | "prepare" | "full";

type PayInResult = Extract<Awaited<ReturnType<typeof createPayInAction>>, { ok: true }>;
type LinkResult = Extract<Awaited<ReturnType<typeof createPaymentLinkAction>>, { ok: true }>;
type Failure = { text: string; traceID: string | null };

const modes: { value: Mode; label: string }[] = [
  { value: "payin", label: "Pay-in (host-to-host details)" },
  { value: "prepare", label: "Payment link: client chooses the method" },
  { value: "full", label: "Payment link: fixed method" },
];

function ClientFields({ errors }: { errors: Errors }) {
  return (
    <>
      <Field
        label="Amount"
        name="amount"
        inputMode="decimal"
        placeholder="1500.50"
        required
        errors={errors.amount}
      />
      <Field label="Client id (in your system)" name="clientID" required errors={errors.clientID} />
      <Field label="Client IP address" name="clientIP" required errors={errors.clientIP} />
      <Field
        label="Client registered on"
        name="clientDateCreated"
        type="date"
        required
        errors={errors.clientDateCreated}
      />
    </>
  );
}

/** The details of a new pay-in: shown here once, never stored in the browser, never offered for reuse. */
function DetailsOnce({ result }: { result: PayInResult }) {
  return (
    <section
      data-testid="payin-details"
      className="space-y-2 rounded-lg border-2 border-amber-400 p-4 dark:border-amber-600"
      aria-labelledby="details-title"
    >
      <h2 id="details-title" className="text-lg font-semibold">
        Transfer details
      </h2>
      <p className="text-sm font-medium text-amber-900 dark:text-amber-200" data-testid="single-use">
        Single-use: valid for this operation only. Give them to this client for this payment; never reuse them
        for another payment. They are not shown again.
      </p>
      {result.details ? (
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-zinc-500">Amount</dt>
          <dd>
            {result.amount} {result.currency}
          </dd>
          <dt className="text-zinc-500">Method</dt>
          <dd>{result.details.paymentMethod ?? "—"}</dd>
          <dt className="text-zinc-500">Bank</dt>
          <dd>{result.details.bankName ?? "—"}</dd>
          <dt className="text-zinc-500">Recipient</dt>
          <dd>{result.details.nameMediator ?? "—"}</dd>
          <dt className="text-zinc-500">Number</dt>
          <dd className="font-mono" data-testid="details-number">
            {result.details.number ?? "—"}
          </dd>
          {result.details.numberAdditional && (
            <>
              <dt className="text-zinc-500">Additional</dt>
              <dd className="font-mono">{result.details.numberAdditional}</dd>
            </>
          )}
        </dl>
      ) : (
        <p className="text-sm">
          This form was already sent: the operation exists and its details were shown then. They are not shown
          again.
        </p>
      )}
      <p className="text-sm">
        Follow the operation:{" "}
        <Link href={`/operations/${result.operationId}`} className="font-mono underline">
          {result.operationId}
        </Link>
        {result.traceID && <span className="ml-2 font-mono text-xs">traceID {result.traceID}</span>}
      </p>
    </section>
  );
}

function LinkShown({ result }: { result: LinkResult }) {
  return (
    <section
      data-testid="payment-link"
      className="space-y-2 rounded-lg border border-zinc-300 p-4 dark:border-zinc-700"
    >
      <h2 className="text-lg font-semibold">Payment link</h2>
      {result.link ? (
        <>
          <div className="flex flex-wrap items-center gap-2">
            <a
              href={result.link}
              target="_blank"
              rel="noreferrer noopener"
              className="break-all font-mono text-sm underline"
              data-testid="link-url"
            >
              {result.link}
            </a>
            <CopyButton text={result.link} label="Copy link" />
          </div>
          {result.qr && (
            // eslint-disable-next-line @next/next/no-img-element -- a server-made data: URL, nothing to optimise
            <img
              src={result.qr}
              alt="QR code of the payment link"
              width={192}
              height={192}
              data-testid="link-qr"
            />
          )}
        </>
      ) : (
        <p className="text-sm">
          The platform did not return a usable link. Look the operation up in Operations.
        </p>
      )}
      {result.operationId && (
        <p className="text-sm">
          Follow the operation:{" "}
          <Link href={`/operations/${result.operationId}`} className="font-mono underline">
            {result.operationId}
          </Link>
          {result.traceID && <span className="ml-2 font-mono text-xs">traceID {result.traceID}</span>}
        </p>
      )}
    </section>
  );
}

export function PayInForms() {
  const [mode, setMode] = useState<Mode>("payin");
  // The form's key: one platform operation per form, however often it is sent. A new key after an answer.
  const [requestKey, setRequestKey] = useState(() => crypto.randomUUID());
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [payIn, setPayIn] = useState<PayInResult | null>(null);
  const [link, setLink] = useState<LinkResult | null>(null);
  const [pending, startTransition] = useTransition();

  const submit = (form: HTMLFormElement) => {
    const data = new FormData(form);
    const text = (k: string) => String(data.get(k) ?? "");
    const common = {
      requestKey,
      amount: text("amount"),
      clientID: text("clientID"),
      clientIP: text("clientIP"),
      clientDateCreated: text("clientDateCreated"),
    };
    setPayIn(null);
    setLink(null);
    setFailure(null);
    startTransition(async () => {
      const r =
        mode === "payin"
          ? await createPayInAction({ ...common, paymentMethod: text("paymentMethod") })
          : await createPaymentLinkAction({
              ...common,
              mode,
              ...(mode === "full" ? { paymentMethod: text("paymentMethod") } : {}),
              redirectSuccessURL: text("redirectSuccessURL"),
              redirectFailURL: text("redirectFailURL"),
            });
      if (r.ok) {
        setErrors({});
        if ("details" in r) setPayIn(r);
        else setLink(r);
        setRequestKey(crypto.randomUUID());
        form.reset();
        return;
      }
      setErrors("fieldErrors" in r ? r.fieldErrors : {});
      setFailure({ text: r.message, traceID: "traceID" in r ? r.traceID : null });
      // A pending answer keeps the key: sending again resolves the same operation instead of a new one.
      if (r.code === "rejected" || r.code === "conflict") setRequestKey(crypto.randomUUID());
    });
  };

  return (
    <div className="space-y-4">
      <fieldset className="flex flex-wrap gap-3 text-sm">
        <legend className="sr-only">What to create</legend>
        {modes.map((m) => (
          <label key={m.value} className="flex items-center gap-1">
            <input
              type="radio"
              name="mode"
              value={m.value}
              checked={mode === m.value}
              onChange={() => {
                setMode(m.value);
                setErrors({});
                setFailure(null);
              }}
            />
            {m.label}
          </label>
        ))}
      </fieldset>
      <form
        data-testid="payin-form"
        noValidate
        autoComplete="off"
        className="grid max-w-3xl gap-3 sm:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault();
          submit(e.currentTarget);
        }}
      >
        {mode !== "prepare" && (
          <Select
            label="Payment method"
            name="paymentMethod"
            defaultValue="toCard"
            errors={errors.paymentMethod}
          >
            {payInMethods.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </Select>
        )}
        <ClientFields errors={errors} />
        {mode !== "payin" && (
          <>
            <Field
              label="Return URL after success (optional)"
              name="redirectSuccessURL"
              errors={errors.redirectSuccessURL}
            />
            <Field
              label="Return URL after failure (optional)"
              name="redirectFailURL"
              errors={errors.redirectFailURL}
            />
          </>
        )}
        <div className="sm:col-span-2">
          <Button type="submit" disabled={pending}>
            {pending ? "Creating…" : mode === "payin" ? "Create pay-in" : "Create payment link"}
          </Button>
        </div>
      </form>
      {failure && (
        <Alert tone="error" testId="payin-error">
          {failure.text}
          {failure.traceID && <span className="block font-mono text-xs">traceID {failure.traceID}</span>}
        </Alert>
      )}
      {payIn && <DetailsOnce result={payIn} />}
      {link && <LinkShown result={link} />}
    </div>
  );
}
