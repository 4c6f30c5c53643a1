import type { Metadata } from "next";
import { AttentionList, attentionItems } from "@/components/home/attention-list";
import { BalanceProofAttention } from "@/components/home/balance-proof-attention";
import { can } from "@/lib/auth/permissions";
import { requireSignedIn } from "@/lib/auth/session";
import { getAttention } from "@/lib/home/attention";

export const metadata: Metadata = { title: "Home" };

export default async function HomePage() {
  const user = await requireSignedIn();
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
      <h1 className="text-2xl font-semibold">Welcome, {user.name ?? user.email}</h1>
      <p className="text-zinc-600 dark:text-zinc-400">
        Signed in as <strong>{user.role}</strong>.{" "}
        {items.length === 0
          ? "Choose a screen above."
          : needing === 0
            ? "Nothing needs attention right now."
            : `${needing} ${needing === 1 ? "item needs" : "items need"} attention.`}
      </p>
      {items.length > 0 && (
        <>
          <h2 className="text-lg font-semibold">Needs attention</h2>
          <AttentionList items={items} />
        </>
      )}
      {can(user.role, "statements.read") && <BalanceProofAttention />}
    </section>
  );
}
