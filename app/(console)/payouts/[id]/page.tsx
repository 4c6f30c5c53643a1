import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { PayoutDetailView } from "@/components/payouts/payout-detail";
import { can } from "@/lib/auth/permissions";
import { requirePagePermission } from "@/lib/auth/session";
import { getPayoutDetail } from "@/lib/payouts/queries";
import { isUuid } from "@/lib/uuid";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("payouts"))("detail.heading") };
}

export default async function PayoutPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePagePermission("payouts.read");
  const { id } = await params;
  if (!isUuid(id)) notFound();
  const p = await getPayoutDetail(id.toLowerCase(), user);
  if (!p) notFound();
  return (
    <PayoutDetailView
      p={p}
      canReveal={can(user.role, "recipients.reveal")}
      canApprove={can(user.role, "payouts.approve")}
    />
  );
}
