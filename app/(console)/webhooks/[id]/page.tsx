import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { OutcomeBadge } from "@/components/webhooks/outcome-badge";
import { RawBody } from "@/components/webhooks/raw-body";
import { ReprocessButton } from "@/components/webhooks/reprocess-button";
import { can } from "@/lib/auth/permissions";
import { requirePagePermission } from "@/lib/auth/session";
import { formatInZone } from "@/lib/time/zone";
import { deliveryIdSchema, getDelivery } from "@/lib/webhooks/inbox";

export const metadata: Metadata = { title: "Webhook delivery" };

export default async function WebhookDeliveryPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePagePermission("webhooks.read");
  const { id } = await params;
  const parsed = deliveryIdSchema.safeParse(id);
  if (!parsed.success) notFound();
  const d = await getDelivery(parsed.data);
  if (!d) notFound();
  return (
    <section className="space-y-4">
      <Link href="/webhooks" className="text-sm underline">
        ← Webhook inbox
      </Link>
      <h1 className="text-2xl font-semibold">Webhook delivery #{d.id}</h1>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-zinc-500">Outcome</dt>
        <dd data-testid="delivery-outcome">
          <OutcomeBadge outcome={d.outcome} /> {d.outcomeDetail}
        </dd>
        <dt className="text-zinc-500">Received</dt>
        <dd>{formatInZone(new Date(d.receivedAt), "UTC")} UTC</dd>
        <dt className="text-zinc-500">Processed</dt>
        <dd>{d.processedAt ? `${formatInZone(new Date(d.processedAt), "UTC")} UTC` : "not yet"}</dd>
        <dt className="text-zinc-500">Attempts</dt>
        <dd>{d.processingAttempts}</dd>
        <dt className="text-zinc-500">Source IP</dt>
        <dd className="font-mono">{d.sourceIp ?? "unknown"}</dd>
        <dt className="text-zinc-500">Operation</dt>
        <dd className="font-mono">
          {d.operationId ? (
            <Link href={`/operations/${d.operationId}`} className="underline">
              {d.operationId}
            </Link>
          ) : (
            "—"
          )}{" "}
          {d.operationStatus}
        </dd>
        <dt className="text-zinc-500">traceID</dt>
        <dd className="font-mono">{d.traceID ?? "—"}</dd>
        <dt className="text-zinc-500">Read-back traceID</dt>
        <dd className="font-mono">
          {d.readBackTraceID ? (
            <Link href={`/trace?q=${encodeURIComponent(d.readBackTraceID)}`} className="underline">
              {d.readBackTraceID}
            </Link>
          ) : (
            "—"
          )}
        </dd>
        <dt className="text-zinc-500">Body size</dt>
        <dd>{d.bodyBytes} bytes</dd>
      </dl>
      {d.canReprocess && can(user.role, "webhooks.reprocess") && <ReprocessButton id={d.id} />}
      {!d.canReprocess && d.outcome !== "received" && (
        <p className="text-sm text-zinc-500">A {d.outcome} delivery is not processed again.</p>
      )}
      <h2 className="text-lg font-semibold">Headers (kept)</h2>
      <pre className="overflow-x-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-900">
        {JSON.stringify(d.headers, null, 2)}
      </pre>
      <RawBody
        id={d.id}
        body={d.body}
        numbersMasked={d.bodyMasked}
        canReveal={can(user.role, "recipients.reveal")}
      />
    </section>
  );
}
