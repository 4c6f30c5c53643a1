import type { Metadata } from "next";
import { getLocale, getTimeZone, getTranslations } from "next-intl/server";
import { EnrolmentPanel } from "@/components/auth/two-factor/enrolment-panel";
import { ManagePanel } from "@/components/auth/two-factor/manage-panel";
import { Alert } from "@/components/ui/alert";
import { currentSignIn, requireSignedIn } from "@/lib/auth/session";
import { twoFactorOverview } from "@/lib/auth/two-factor/overview";
import type { Locale } from "@/lib/i18n/locales";
import { formatDateTime } from "@/lib/time/zone";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("twoFactor.account");
  return { title: t("title") };
}

/** The signed-in user's own second factor: its state, enrolment, new recovery codes, turning it off. */
export default async function AccountTwoFactorPage() {
  await requireSignedIn();
  const signedIn = (await currentSignIn())!;
  const [t, overview, locale, timeZone] = await Promise.all([
    getTranslations("twoFactor.account"),
    twoFactorOverview(signedIn),
    getLocale() as Promise<Locale>,
    getTimeZone(),
  ]);
  const when = (date: Date) => formatDateTime(date, timeZone, locale);
  return (
    <div className="max-w-2xl space-y-6">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm" data-testid="two-factor-state">
        <dt className="text-zinc-500">{t("state")}</dt>
        <dd data-testid="two-factor-enrolled">
          {overview.enrolledAt ? t("enrolledSince", { when: when(overview.enrolledAt) }) : t("notEnrolled")}
        </dd>
        {overview.enrolledAt && (
          <>
            <dt className="text-zinc-500">{t("recoveryCodesLeft")}</dt>
            <dd data-testid="recovery-codes-left">{overview.remainingRecoveryCodes}</dd>
          </>
        )}
        <dt className="text-zinc-500">{t("policy")}</dt>
        <dd>{overview.required ? t("requiredForRole") : t("optionalForRole")}</dd>
        <dt className="text-zinc-500">{t("thisSession")}</dt>
        <dd>
          {overview.verifiedAt ? t("verifiedAt", { when: when(overview.verifiedAt) }) : t("notVerified")}
          {overview.identityProviderMfa && <span className="block">{t("viaIdentityProvider")}</span>}
        </dd>
      </dl>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        {t("stepUpExplain", { minutes: overview.stepUpFreshMinutes })}
      </p>
      {overview.enrolledAt ? (
        <ManagePanel required={overview.required} />
      ) : (
        <section className="space-y-3">
          {overview.identityProviderMfa && <Alert tone="info">{t("identityProviderCounts")}</Alert>}
          <EnrolmentPanel next="/account/two-factor" />
        </section>
      )}
    </div>
  );
}
