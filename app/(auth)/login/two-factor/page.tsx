import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { SignInCodeForm } from "@/components/auth/two-factor/sign-in-code-form";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import { currentUser } from "@/lib/auth/session";
import { readChallengeCookie } from "@/lib/auth/two-factor/sign-in";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("twoFactor.signIn");
  return { title: t("title") };
}

/** The second step of signing in (after the password, or single sign-on without the provider's MFA). */
export default async function SignInCodePage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string }>;
}) {
  if (await currentUser()) redirect("/");
  const safe = safeCallbackPath((await searchParams).callbackUrl);
  const callbackUrl = safe === "/" ? undefined : safe;
  const restart = `/login${callbackUrl ? `?${new URLSearchParams({ callbackUrl })}` : ""}`;
  if (!(await readChallengeCookie())) redirect(restart);
  const t = await getTranslations("twoFactor.signIn");
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm space-y-6 rounded-xl border border-zinc-200 bg-white p-8 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
        <div className="space-y-2">
          <h1 className="text-2xl font-semibold">{t("title")}</h1>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("explain")}</p>
        </div>
        <SignInCodeForm callbackUrl={callbackUrl} />
        <p className="text-sm">
          <Link href={restart} className="text-indigo-700 underline dark:text-indigo-300">
            {t("startAgain")}
          </Link>
        </p>
      </div>
    </main>
  );
}
