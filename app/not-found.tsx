import type { Metadata } from "next";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { getTranslations } from "next-intl/server";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("errors.notFound");
  return { title: t("pageTitle") };
}

export default function NotFound() {
  const t = useTranslations("errors");
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-3 px-4 text-center">
      <h1 className="text-2xl font-semibold">{t("notFound.heading")}</h1>
      <p className="text-zinc-600 dark:text-zinc-400">{t("notFound.text")}</p>
      <Link href="/" className="text-indigo-600 underline dark:text-indigo-400">
        {t("backToConsole")}
      </Link>
    </main>
  );
}
