import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { EnrolmentPanel } from "@/components/auth/two-factor/enrolment-panel";
import { LanguageSwitch } from "@/components/shell/language-switch";
import { Button } from "@/components/ui/button";
import { currentSignIn, mustEnrolFirst, requireSignedIn } from "@/lib/auth/session";
import { signOutAction } from "@/lib/auth/sign-in-action";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("twoFactor.setup");
  return { title: t("title") };
}

/**
 * Enrolment outside the console: the one page a user whom the policy requires to have two-factor can
 * open before they have it (the console layout sends them here).
 */
export default async function TwoFactorSetupPage() {
  const user = await requireSignedIn({ allowBeforeEnrolment: true });
  const signedIn = await currentSignIn();
  if (!signedIn || signedIn.secondFactor.enrolled) redirect("/account/two-factor");
  const required = await mustEnrolFirst(signedIn);
  const t = await getTranslations("twoFactor.setup");
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-8">
      <div className="w-full max-w-lg space-y-6 rounded-xl border border-zinc-200 bg-white p-8 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="space-y-1">
            <h1 className="text-2xl font-semibold">{t("title")}</h1>
            <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="current-user-email">
              {user.email}
            </p>
          </div>
          <form action={signOutAction}>
            <Button type="submit" variant="secondary">
              {t("signOut")}
            </Button>
          </form>
        </div>
        <p className="text-sm" data-testid="setup-reason">
          {required ? t("required") : t("optional")}
        </p>
        <EnrolmentPanel next="/" />
        <div className="border-t border-zinc-200 pt-3 dark:border-zinc-700">
          <LanguageSwitch />
        </div>
      </div>
    </main>
  );
}
