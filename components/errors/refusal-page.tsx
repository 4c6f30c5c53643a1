import type { Metadata } from "next";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { getTranslations } from "next-intl/server";

type Refusal = "forbidden" | "notFound";

export async function refusalMetadata(refusal: Refusal): Promise<Metadata> {
  const t = await getTranslations("errors");
  return { title: t(`${refusal}.pageTitle`) };
}

/** A whole page saying the address is not there, or not for this user, with the way back. */
export function RefusalPage({ refusal }: { refusal: Refusal }) {
  const t = useTranslations("errors");
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-3 px-4 text-center">
      <h1 className="text-2xl font-semibold">{t(`${refusal}.heading`)}</h1>
      <p className="text-zinc-600 dark:text-zinc-400">{t(`${refusal}.text`)}</p>
      <Link href="/" className="text-indigo-600 underline dark:text-indigo-400">
        {t("backToConsole")}
      </Link>
    </main>
  );
}
