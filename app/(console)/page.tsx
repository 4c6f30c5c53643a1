import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { AttentionList, attentionItems } from "@/components/home/attention-list";
import { BalanceProofAttention } from "@/components/home/balance-proof-attention";
import { can } from "@/lib/auth/permissions";
import { requireSignedIn } from "@/lib/auth/session";
import { getAttention } from "@/lib/home/attention";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("home");
  return { title: t("title") };
}

export default async function HomePage() {
  const user = await requireSignedIn();
  const [t, roles] = await Promise.all([getTranslations("home"), getTranslations("shell.roles")]);
  const may = {
    payouts: can(user.role, "payouts.read"),
    operations: can(user.role, "operations.read"),
    webhooks: can(user.role, "webhooks.read"),
    reconciliation: can(user.role, "reconciliation.read"),
  };
  const items = attentionItems(await getAttention(), may);
  const needing = items.filter((i) => i.alert).length;
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">{t("welcome", { name: user.name ?? user.email })}</h1>
      <p className="text-zinc-600 dark:text-zinc-400">
        {t.rich("signedInAs", { role: roles(user.role), strong: (chunks) => <strong>{chunks}</strong> })}{" "}
        {items.length === 0
          ? t("chooseScreen")
          : needing === 0
            ? t("nothingNeedsAttention")
            : t("itemsNeedAttention", { count: needing })}
      </p>
      {items.length > 0 && (
        <>
          <h2 className="text-lg font-semibold">{t("needsAttention")}</h2>
          <AttentionList items={items} />
        </>
      )}
      {can(user.role, "statements.read") && <BalanceProofAttention />}
    </section>
  );
}
