import type { Metadata } from "next";
import { PayInForms } from "@/components/payins/payin-forms";
import { requirePagePermission } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Pay-ins" };

export default async function PayInsPage() {
  await requirePagePermission("payins.create");
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">Pay-ins and payment links</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        A host-to-host pay-in returns transfer details for the client, shown once. A payment link is a page
        hosted by the platform: the client chooses the method there, or you fix it. Either way the operation
        then appears in Operations and is followed like any other.
      </p>
      <PayInForms />
    </section>
  );
}
