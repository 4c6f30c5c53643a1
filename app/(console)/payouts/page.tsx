import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PayoutList } from "@/components/payouts/payout-list";
import { can } from "@/lib/auth/permissions";
import { requirePagePermission } from "@/lib/auth/session";
import { listPayouts, parseStatusFilter } from "@/lib/payouts/queries";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("payouts"))("title") };
}

export default async function PayoutsPage({
  searchParams,
}: {
  searchParams: Promise<{ status?: string | string[] }>;
}) {
  const user = await requirePagePermission("payouts.read");
  const { status: statusParam } = await searchParams;
  const status = parseStatusFilter(statusParam);
  const rows = await listPayouts({ status });
  return (
    <PayoutList
      rows={rows}
      status={status}
      canReveal={can(user.role, "recipients.reveal")}
      canCreate={can(user.role, "payouts.create")}
    />
  );
}
