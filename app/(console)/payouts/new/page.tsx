import type { Metadata } from "next";
import Link from "next/link";
import { PayoutForm } from "@/components/payouts/payout-form";
import { requirePagePermission } from "@/lib/auth/session";
import { getBankDirectory } from "@/lib/banks/directory";
import { isPlatformError } from "@/lib/platform/errors";
import { getPlatformClient } from "@/lib/platform/from-env";
import { canOverrideDuplicate } from "@/lib/payouts/policy";
import { payoutMethodChoices } from "@/lib/payouts/requests";

export const metadata: Metadata = { title: "New pay-out" };

export default async function NewPayoutPage() {
  const user = await requirePagePermission("payouts.create");
  const [directory, methods] = await Promise.all([
    getBankDirectory(getPlatformClient(), { actorUserId: user.id }).catch((error: unknown) => {
      if (!isPlatformError(error)) throw error;
      return { error: { traceID: error.traceID } };
    }),
    payoutMethodChoices(),
  ]);

  return (
    <section className="space-y-4">
      <div className="space-y-1">
        <Link href="/payouts" className="text-sm text-indigo-700 underline dark:text-indigo-300">
          ← Pay-outs
        </Link>
        <h1 className="text-2xl font-semibold">New pay-out</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          The request is created after a review step; another person approves it before it is sent.
        </p>
      </div>
      {"error" in directory ? (
        <p
          role="alert"
          className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
        >
          The platform&apos;s bank directory could not be loaded, so no pay-out can be prepared right now. Try
          again in a moment. traceID {directory.error.traceID ?? "none received"}
        </p>
      ) : (
        <PayoutForm
          banks={directory.banks.map((b) => b.name)}
          methods={methods.allowed}
          notInTariff={methods.notInTariff.map((m) => m.method)}
          canOverrideDuplicate={canOverrideDuplicate(user).ok}
        />
      )}
    </section>
  );
}
