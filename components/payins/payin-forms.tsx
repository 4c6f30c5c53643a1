"use client";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Money } from "@/components/money/money";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { createPaymentLinkAction, createPayInAction } from "@/lib/actions/payins";
import { payInMethods } from "@/lib/payins/methods";

type Errors = Record<string, string[] | undefined>;
type Mode = "payin" | "prepare" | "full";

type PayInResult = Extract<Awaited<ReturnType<typeof createPayInAction>>, { ok: true }>;
type LinkResult = Extract<Awaited<ReturnType<typeof createPaymentLinkAction>>, { ok: true }>;
type Failure = { text: string; platformMessage: string | null; traceID: string | null };

const MODES: Mode[] = ["payin", "prepare", "full"];

/** A method by its name in the reader's language, with the platform's value ("СБП · sbp"). */
function useMethodLabel() {
  const t = useTranslations("payins");
  return (m: string) => {
    const key = `methods.${m}` as "methods.toCard";
    return t.has(key) ? `${t(key)} · ${m}` : m;
  };
}

function ClientFields({ errors }: { errors: Errors }) {
  const t = useTranslations("payins.fields");
  return (
    <>
      <Field
        label={t("amount")}
        name="amount"
        inputMode="decimal"
        placeholder={t("amountPlaceholder")}
        required
        errors={errors.amount}
      />
      <Field label={t("clientId")} name="clientID" required errors={errors.clientID} />
      <Field label={t("clientIp")} name="clientIP" required errors={errors.clientIP} />
      <Field
        label={t("clientRegisteredOn")}
        name="clientDateCreated"
        type="date"
        required
        errors={errors.clientDateCreated}
      />
    </>
  );
}

function FollowOperation({ operationId, traceID }: { operationId: string; traceID: string | null }) {
  const t = useTranslations("payins");
  return (
    <p className="text-sm">
      {t("followOperation")}{" "}
      <Link href={`/operations/${operationId}`} className="font-mono underline">
        {operationId}
      </Link>
      {traceID && <span className="ml-2 font-mono text-xs">traceID {traceID}</span>}
    </p>
  );
}

/** The details of a new pay-in: shown here once, never stored in the browser, never offered for reuse. */
export function DetailsOnce({ result }: { result: PayInResult }) {
  const t = useTranslations("payins.details");
  const methodLabel = useMethodLabel();
  return (
    <section
      data-testid="payin-details"
      className="space-y-2 rounded-lg border-2 border-amber-400 p-4 dark:border-amber-600"
      aria-labelledby="details-title"
    >
      <h2 id="details-title" className="text-lg font-semibold">
        {t("heading")}
      </h2>
      <p className="text-sm font-medium text-amber-900 dark:text-amber-200" data-testid="single-use">
        {t("singleUse")}
      </p>
      {result.details ? (
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-zinc-500">{t("amount")}</dt>
          <dd>
            <Money amount={result.amount} currency={result.currency} />
          </dd>
          <dt className="text-zinc-500">{t("method")}</dt>
          <dd>{result.details.paymentMethod ? methodLabel(result.details.paymentMethod) : "—"}</dd>
          <dt className="text-zinc-500">{t("bank")}</dt>
          <dd>{result.details.bankName ?? "—"}</dd>
          <dt className="text-zinc-500">{t("recipient")}</dt>
          <dd>{result.details.nameMediator ?? "—"}</dd>
          <dt className="text-zinc-500">{t("number")}</dt>
          <dd className="font-mono" data-testid="details-number">
            {result.details.number ?? "—"}
          </dd>
          {result.details.numberAdditional && (
            <>
              <dt className="text-zinc-500">{t("additional")}</dt>
              <dd className="font-mono">{result.details.numberAdditional}</dd>
            </>
          )}
          {result.details.qRcodeImage && (
            <>
              <dt className="text-zinc-500">{t("qr")}</dt>
              <dd>
                {/* eslint-disable-next-line @next/next/no-img-element -- a server-made data: URL, nothing to optimise */}
                <img
                  src={result.details.qRcodeImage}
                  alt={t("qrAlt")}
                  width={192}
                  height={192}
                  data-testid="details-qr"
                />
              </dd>
            </>
          )}
        </dl>
      ) : (
        <p className="text-sm">{result.alreadySent ? t("alreadySent") : t("noneReceived")}</p>
      )}
      <FollowOperation operationId={result.operationId} traceID={result.traceID} />
    </section>
  );
}

export function LinkShown({ result }: { result: LinkResult }) {
  const t = useTranslations("payins.link");
  return (
    <section
      data-testid="payment-link"
      className="space-y-2 rounded-lg border border-zinc-300 p-4 dark:border-zinc-700"
    >
      <h2 className="text-lg font-semibold">{t("heading")}</h2>
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
            <CopyButton text={result.link} label={t("copy")} />
          </div>
          {result.qr && (
            // eslint-disable-next-line @next/next/no-img-element -- a server-made data: URL, nothing to optimise
            <img src={result.qr} alt={t("qrAlt")} width={192} height={192} data-testid="link-qr" />
          )}
        </>
      ) : (
        <p className="text-sm">
          {result.linkLost && result.operationId
            ? t("lost", { operationId: result.operationId })
            : t("noLink")}
        </p>
      )}
      {result.operationId && <FollowOperation operationId={result.operationId} traceID={result.traceID} />}
    </section>
  );
}

export function PayInForms() {
  const t = useTranslations("payins");
  const tp = useTranslations("platformErrors");
  const methodLabel = useMethodLabel();
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
      setFailure({
        text: r.message,
        platformMessage: "platformMessage" in r ? r.platformMessage : null,
        traceID: "traceID" in r ? r.traceID : null,
      });
      // A pending answer keeps the key: sending again resolves the same operation instead of a new one.
      if (r.code === "rejected" || r.code === "conflict") setRequestKey(crypto.randomUUID());
    });
  };

  return (
    <div className="space-y-4">
      <fieldset className="flex flex-wrap gap-3 text-sm">
        <legend className="sr-only">{t("modes.legend")}</legend>
        {MODES.map((m) => (
          <label key={m} className="flex items-center gap-1">
            <input
              type="radio"
              name="mode"
              value={m}
              checked={mode === m}
              onChange={() => {
                setMode(m);
                setErrors({});
                setFailure(null);
              }}
            />
            {t(`modes.${m}`)}
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
            label={t("fields.paymentMethod")}
            name="paymentMethod"
            defaultValue="toCard"
            errors={errors.paymentMethod}
          >
            {payInMethods.map((m) => (
              <option key={m} value={m}>
                {methodLabel(m)}
              </option>
            ))}
          </Select>
        )}
        <ClientFields errors={errors} />
        {mode !== "payin" && (
          <>
            <Field
              label={t("fields.redirectSuccess")}
              name="redirectSuccessURL"
              errors={errors.redirectSuccessURL}
            />
            <Field label={t("fields.redirectFail")} name="redirectFailURL" errors={errors.redirectFailURL} />
          </>
        )}
        <div className="sm:col-span-2">
          <Button type="submit" disabled={pending}>
            {pending ? t("creating") : mode === "payin" ? t("createPayin") : t("createLink")}
          </Button>
        </div>
      </form>
      {failure && (
        <Alert tone="error" testId="payin-error">
          {failure.text}
          {failure.platformMessage && (
            <span className="block" data-testid="platform-message">
              {tp.rich("platformSaid", {
                message: failure.platformMessage,
                bdi: (chunks) => <bdi className="whitespace-pre-wrap">{chunks}</bdi>,
              })}
            </span>
          )}
          {failure.traceID && <span className="block font-mono text-xs">traceID {failure.traceID}</span>}
        </Alert>
      )}
      {payIn && <DetailsOnce result={payIn} />}
      {link && <LinkShown result={link} />}
    </div>
  );
}
