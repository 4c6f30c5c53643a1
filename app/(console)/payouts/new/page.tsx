import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { NewPayout } from "@/components/payouts/new-payout";
import { requirePagePermission } from "@/lib/auth/session";
import { getBankDirectory } from "@/lib/banks/directory";
import { isPlatformError } from "@/lib/platform/errors";
import { getPlatformClient } from "@/lib/platform/from-env";
import { canOverrideDuplicate } from "@/lib/payouts/policy";
import { payoutMethodChoices } from "@/lib/payouts/method-choices";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("payouts"))("newPayout") };
}

export default async function NewPayoutPage() {
  const user = await requirePagePermission("payouts.create");
  const [directory, methods] = await Promise.all([
    getBankDirectory(getPlatformClient(), { actorUserId: user.id }).then(
      (d) => ({ banks: d.banks.map((b) => b.name) }),
      (error: unknown) => {
        if (!isPlatformError(error)) throw error;
        return { error: { traceID: error.traceID } };
      },
    ),
    payoutMethodChoices(),
  ]);
  return (
    <NewPayout
      directory={directory}
      methods={methods.allowed}
      notInTariff={methods.notInTariff.map((m) => m.method)}
      canOverrideDuplicate={canOverrideDuplicate(user).ok}
    />
  );
}
