import type { Metadata } from "next";
import { headers } from "next/headers";
import { TwoFactorPolicySettings } from "@/components/auth/two-factor/policy-settings";
import { OpenEndpointToggle } from "@/components/settings/open-endpoint-toggle";
import { SettingForm } from "@/components/settings/setting-form";
import { TestConnection } from "@/components/settings/test-connection";
import { Alert } from "@/components/ui/alert";
import { CopyButton } from "@/components/ui/copy-button";
import { requirePagePermission } from "@/lib/auth/session";
import { getPlatformConnection, originFrom } from "@/lib/settings/connection";
import { getSettings, toPublicSettings } from "@/lib/settings/settings";
import { webhookEndpointView } from "@/lib/settings/webhook-endpoint";
import { formatInZone } from "@/lib/time/zone";

export const metadata: Metadata = { title: "Settings" };

function Card({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="space-y-3 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

export default async function SettingsPage() {
  await requirePagePermission("settings.manage");
  const [connection, settings] = await Promise.all([getPlatformConnection(), getSettings()]);
  const visible = toPublicSettings(settings);
  const webhook = await webhookEndpointView(originFrom(await headers()));
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Settings</h1>

      <Card title="Platform connection">
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-zinc-500">Base URL</dt>
          <dd className="font-mono break-all">{connection.baseUrl}</dd>
          <dt className="text-zinc-500">Token</dt>
          <dd data-testid="platform-token">
            {connection.tokenConfigured ? "configured (PLATFORM_TOKEN)" : "not configured"}
          </dd>
          <dt className="text-zinc-500">Last successful call</dt>
          <dd>
            {connection.lastSuccessfulCallAt
              ? `${formatInZone(new Date(connection.lastSuccessfulCallAt), "UTC")} UTC`
              : "none yet"}
            {connection.lastSuccessfulTraceID && (
              <span className="ml-2 font-mono text-xs">traceID {connection.lastSuccessfulTraceID}</span>
            )}
          </dd>
        </dl>
        <TestConnection />
      </Card>

      <Card title="Webhooks">
        <div className="space-y-1 text-sm">
          <p className="font-medium">URL to register with the platform</p>
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
            <p>Set PUBLIC_BASE_URL to show the URL.</p>
          )}
          <p className="text-xs text-zinc-500" data-testid="webhook-path-secret">
            {webhook.pathSecret === "open"
              ? "No secret path segment is required: you chose to accept webhooks at the bare URL."
              : `It ends with the secret path segment (${webhook.pathSecret === "environment" ? "WEBHOOK_PATH_SECRET" : "generated at the first start"}): keep it out of tickets and chats. Requests without it are answered 404.`}
          </p>
          <OpenEndpointToggle open={visible.webhookOpenEndpoint} />
        </div>
        {webhook.unprotected && (
          <Alert tone="warning" testId="webhook-unprotected">
            Nothing protects the webhook endpoint: no secret path segment, no bearer token and no IP
            allowlist. Anyone who can reach this server can post webhooks. Paydesk takes amounts and new
            operations only from the platform&apos;s own API, but a forged webhook can still move a status
            until the next read and makes Paydesk call the platform. Require the secret path segment, or set a
            bearer token or the allowlist.
          </Alert>
        )}
        {visible.webhookAllowedIps.length === 0 && (
          <Alert tone="warning" testId="allowlist-empty">
            The IP allowlist is empty: webhooks are accepted from any address. The platform signs nothing, so
            add the platform&apos;s IP ranges (from the account manager).
          </Alert>
        )}
        <SettingForm
          settingKey="webhookAllowedIps"
          label="Source IP allowlist"
          hint="One IP address or CIDR per line, e.g. 203.0.113.0/24."
          kind="list"
          initial={visible.webhookAllowedIps.join("\n")}
        />
        <p className="text-sm" data-testid="bearer-token-state">
          Webhook bearer token:{" "}
          <strong>{visible.webhookBearerTokenConfigured ? "configured" : "not configured"}</strong>
        </p>
        <SettingForm
          settingKey="webhookBearerToken"
          label={visible.webhookBearerTokenConfigured ? "New bearer token" : "Bearer token"}
          hint="Checked when set: webhooks must carry Authorization: Bearer <token>. It is never shown again."
          kind="secret"
          clearable={visible.webhookBearerTokenConfigured}
        />
        <SettingForm
          settingKey="allowPrivateWebhookUrls"
          label="Allow private webhook URLs on pay-outs"
          hint="Off: a pay-out's own webhook URL may not point at localhost, private, loopback or link-local addresses. Turn on only for a test bench whose platform runs on the same network."
          kind="toggle"
          initial={String(visible.allowPrivateWebhookUrls)}
        />
      </Card>

      <Card title="Pay-out approvals">
        <SettingForm
          settingKey="autoApproveBelow"
          label="Auto-approve pay-outs below (payment currency)"
          hint="Empty: every pay-out needs an approval."
          initial={visible.autoApproveBelow ?? ""}
          clearable
          clearLabel="Remove limit"
        />
        <SettingForm
          settingKey="autoApproveRecipientDailySum"
          label="Auto-approve while one recipient's pay-outs of 24 h stay below (payment currency)"
          hint="Counts the recipient's pay-outs of the last 24 hours that are not rejected, cancelled or failed, so that a pay-out split into small ones still needs an approver. Empty: the auto-approval limit above."
          initial={visible.autoApproveRecipientDailySum ?? ""}
          clearable
          clearLabel="Same as the auto-approval limit"
        />
        <SettingForm
          settingKey="nearDuplicateTolerancePercent"
          label="Near-duplicate tolerance (% of the amount)"
          hint="A pay-out to a recipient who had one within this share of the amount in the last 24 hours is blocked like a duplicate (an admin can override it). Empty: only exact duplicates are blocked."
          initial={visible.nearDuplicateTolerancePercent ?? ""}
          clearable
          clearLabel="Turn off"
        />
        <SettingForm
          settingKey="twoApprovalsAbove"
          label="Two approvals for pay-outs above (payment currency)"
          hint="Empty: one approval is enough for any amount."
          initial={visible.twoApprovalsAbove ?? ""}
          clearable
          clearLabel="Remove limit"
        />
      </Card>

      <Card title="Operations">
        <SettingForm
          settingKey="stuckOperationMinutes"
          label="Flag an operation as stuck after (minutes without a status change)"
          initial={String(visible.stuckOperationMinutes)}
        />
        <SettingForm
          settingKey="balanceDifferenceMinutes"
          label="Treat a difference between the ledger and the platform's balance as lasting after (minutes)"
          hint="Then what operations do not explain is recorded as a movement outside operations."
          initial={String(visible.balanceDifferenceMinutes)}
        />
      </Card>

      <Card title="Data retention">
        <SettingForm
          settingKey="apiCallRetentionDays"
          label="Keep platform call records for (days)"
          hint="7 to 3650. Calls of pay-outs, of operations with open drift or audited actions are never deleted."
          initial={String(visible.apiCallRetentionDays)}
        />
        <SettingForm
          settingKey="failedApiCallRetentionDays"
          label="Keep failed platform calls for (days)"
          initial={String(visible.failedApiCallRetentionDays)}
        />
        <SettingForm
          settingKey="webhookRetentionDays"
          label="Keep webhook bodies for (days)"
          hint="Webhooks not yet processed are never deleted."
          initial={String(visible.webhookRetentionDays)}
        />
        <SettingForm
          settingKey="refusedWebhookRetentionDays"
          label="Keep refused or failed webhooks for (days)"
          initial={String(visible.refusedWebhookRetentionDays)}
        />
      </Card>

      <Card title="Sessions">
        <SettingForm
          settingKey="sessionLifetimeMinutes"
          label="Sign staff out this long after they sign in (minutes)"
          hint="15 to 10080 (one week). Applies to sessions already open."
          initial={String(visible.sessionLifetimeMinutes)}
        />
        <SettingForm
          settingKey="sessionIdleMinutes"
          label="Sign staff out after this long without a request (minutes)"
          hint="5 to 1440 (one day). Applies to sessions already open."
          initial={String(visible.sessionIdleMinutes)}
        />
      </Card>

      <TwoFactorPolicySettings settings={visible} />
    </div>
  );
}
