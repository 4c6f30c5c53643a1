import type { Metadata } from "next";
import { headers } from "next/headers";
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
      </Card>
    </div>
  );
}
