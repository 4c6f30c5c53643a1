import type { Metadata } from "next";
import { useTranslations } from "next-intl";
import { getTranslations } from "next-intl/server";
import { PayInForms } from "@/components/payins/payin-forms";
import { requirePagePermission } from "@/lib/auth/session";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("payins"))("title") };
}

function PayInsIntro() {
  const t = useTranslations("payins");
  return (
    <>
      <h1 className="text-2xl font-semibold">{t("heading")}</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("intro")}</p>
    </>
  );
}

export default async function PayInsPage() {
  await requirePagePermission("payins.create");
  return (
    <section className="space-y-4">
      <PayInsIntro />
      <PayInForms />
    </section>
  );
}
