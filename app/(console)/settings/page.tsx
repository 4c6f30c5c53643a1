import type { Metadata } from "next";
import { headers } from "next/headers";
import { getTranslations } from "next-intl/server";
import { TwoFactorPolicySettings } from "@/components/auth/two-factor/policy-settings";
import { OpenEndpointToggle } from "@/components/settings/open-endpoint-toggle";
import { SettingForm } from "@/components/settings/setting-form";
import { TestConnection } from "@/components/settings/test-connection";
import { Alert } from "@/components/ui/alert";
import { CopyButton } from "@/components/ui/copy-button";
import { requirePagePermission } from "@/lib/auth/session";
import { requestPreferences } from "@/lib/auth/request-preferences";
import { translatorFor } from "@/lib/auth/translator";
import { originFrom } from "@/lib/http/origin";
import { getPlatformConnection } from "@/lib/settings/connection";
import { getSettings, toPublicSettings, type Settings } from "@/lib/settings/settings";
import { webhookEndpointView } from "@/lib/webhooks/endpoint";
import type { CatalogMessages } from "@/i18n/messages-type";
import { formatDateTime } from "@/lib/time/zone";
import { Card } from "@/components/ui/card";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("settings");
  return { title: t("title") };
}

type SettingsWords = CatalogMessages["settings"]["fields"];
type FieldKey = keyof SettingsWords;
type LimitKey =
  "autoApproveBelow" | "autoApproveRecipientDailySum" | "nearDuplicateTolerancePercent" | "twoApprovalsAbove";
type CountKey = {
  [K in FieldKey]: K extends keyof Settings ? (Settings[K] extends number ? K : never) : never;
}[FieldKey];
type HintedKey = { [K in FieldKey]: SettingsWords[K] extends { hint: string } ? K : never }[FieldKey];

export default async function SettingsPage() {
  await requirePagePermission("settings.manage");
  const [connection, settings] = await Promise.all([getPlatformConnection(), getSettings()]);
  const visible = toPublicSettings(settings);
  const webhook = await webhookEndpointView(originFrom(await headers()));
  const { locale, timeZone } = await requestPreferences();
  // translatorFor rather than getTranslations: the same words, and the page also runs outside Next (tests).
  const t = await translatorFor("settings");
  const label = (key: FieldKey) => t(`fields.${key}.label`);
  const hint = (key: HintedKey) => t(`fields.${key}.hint`);
  const optionalHint = (key: FieldKey) =>
    t.has(`fields.${key as HintedKey}.hint`) ? hint(key as HintedKey) : undefined;
  // A count of minutes or days, or a limit (an amount or a percentage) that is off when cleared.
  const fields = (keys: (CountKey | LimitKey)[]) =>
    keys.map((key) => {
      const limit = typeof visible[key] !== "number";
      return (
        <SettingForm
          key={key}
          settingKey={key}
          label={label(key)}
          hint={optionalHint(key)}
          initial={String(visible[key] ?? "")}
          clearable={limit}
          clearLabel={limit ? t(`fields.${key as LimitKey}.clear`) : undefined}
        />
      );
    });
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>

      <Card title={t("connection.title")}>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-zinc-500">{t("connection.baseUrl")}</dt>
          <dd className="font-mono break-all">{connection.baseUrl}</dd>
          <dt className="text-zinc-500">{t("connection.token")}</dt>
          <dd data-testid="platform-token">
            {connection.tokenConfigured ? t("connection.tokenConfigured") : t("connection.tokenMissing")}
          </dd>
          <dt className="text-zinc-500">{t("connection.lastCall")}</dt>
          <dd>
            {connection.lastSuccessfulCallAt
              ? `${formatDateTime(new Date(connection.lastSuccessfulCallAt), timeZone, locale)} ${timeZone}`
              : t("connection.noneYet")}
            {connection.lastSuccessfulTraceID && (
              <span className="ml-2 font-mono text-xs">traceID {connection.lastSuccessfulTraceID}</span>
            )}
          </dd>
        </dl>
        <TestConnection />
      </Card>

      <Card title={t("webhooks.title")}>
        <div className="space-y-1 text-sm">
          <p className="font-medium">{t("webhooks.urlToRegister")}</p>
          {webhook.url ? (
            <div className="flex flex-wrap items-center gap-2">
              <code
                data-testid="webhook-url"
                className="break-all rounded bg-zinc-100 px-2 py-1 dark:bg-zinc-800"
              >
                {webhook.url}
              </code>
              <CopyButton text={webhook.url} />
            </div>
          ) : (
            <p>{t("webhooks.setPublicBaseUrl")}</p>
          )}
          <p className="text-xs text-zinc-500" data-testid="webhook-path-secret">
            {webhook.pathSecret === "open"
              ? t("webhooks.openEndpoint")
              : t("webhooks.secretSegment", { source: webhook.pathSecret })}
          </p>
          <OpenEndpointToggle open={visible.webhookOpenEndpoint} />
        </div>
        {webhook.unprotected && (
          <Alert tone="warning" testId="webhook-unprotected">
            {t("webhooks.unprotected")}
          </Alert>
        )}
        {visible.webhookAllowedIps.length === 0 && (
          <Alert tone="warning" testId="allowlist-empty">
            {t("webhooks.allowlistEmpty")}
          </Alert>
        )}
        <SettingForm
          settingKey="webhookAllowedIps"
          label={label("webhookAllowedIps")}
          hint={hint("webhookAllowedIps")}
          kind="list"
          initial={visible.webhookAllowedIps.join("\n")}
        />
        <p className="text-sm" data-testid="bearer-token-state">
          {t.rich("webhooks.bearerState", {
            configured: String(visible.webhookBearerTokenConfigured),
            strong: (chunks) => <strong>{chunks}</strong>,
          })}
        </p>
        <SettingForm
          settingKey="webhookBearerToken"
          label={
            visible.webhookBearerTokenConfigured
              ? t("fields.webhookBearerToken.labelReplace")
              : label("webhookBearerToken")
          }
          hint={hint("webhookBearerToken")}
          kind="secret"
          clearable={visible.webhookBearerTokenConfigured}
        />
        <SettingForm
          settingKey="allowPrivateWebhookUrls"
          label={label("allowPrivateWebhookUrls")}
          hint={hint("allowPrivateWebhookUrls")}
          kind="toggle"
          initial={String(visible.allowPrivateWebhookUrls)}
        />
      </Card>

      <Card title={t("cards.approvals")}>
        {fields([
          "autoApproveBelow",
          "autoApproveRecipientDailySum",
          "nearDuplicateTolerancePercent",
          "twoApprovalsAbove",
        ])}
      </Card>
      <Card title={t("cards.operations")}>
        {fields(["stuckOperationMinutes", "balanceDifferenceMinutes"])}
      </Card>
      <Card title={t("cards.retention")}>
        {fields([
          "apiCallRetentionDays",
          "failedApiCallRetentionDays",
          "webhookRetentionDays",
          "refusedWebhookRetentionDays",
        ])}
      </Card>
      <Card title={t("cards.sessions")}>{fields(["sessionLifetimeMinutes", "sessionIdleMinutes"])}</Card>

      <TwoFactorPolicySettings settings={visible} />
    </div>
  );
}
