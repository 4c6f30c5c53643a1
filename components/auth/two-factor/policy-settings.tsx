import { getTranslations } from "next-intl/server";
import { SettingForm } from "@/components/settings/setting-form";
import { ssoConfigured } from "@/lib/auth/config";
import type { PublicSettings } from "@/lib/settings/settings";
import { RequiredRolesForm } from "./required-roles-form";

/** The Settings card of the two-factor policy: required roles, step-up window, and what single sign-on counts for. */
export async function TwoFactorPolicySettings({ settings }: { settings: PublicSettings }) {
  const t = await getTranslations("twoFactor.policy");
  return (
    <section
      className="space-y-3 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
      data-testid="two-factor-policy"
    >
      <h2 className="text-lg font-semibold">{t("title")}</h2>
      <RequiredRolesForm initial={settings.twoFactorRequiredRoles} />
      <SettingForm
        settingKey="stepUpFreshMinutes"
        label={t("freshMinutes")}
        hint={t("freshMinutesHint")}
        initial={String(settings.stepUpFreshMinutes)}
      />
      <p className="text-sm" data-testid="two-factor-sso">
        {ssoConfigured() ? t("ssoCounts") : t("ssoOff")}
      </p>
    </section>
  );
}
