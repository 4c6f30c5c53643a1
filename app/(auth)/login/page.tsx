import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { LoginForm } from "@/components/auth/login-form";
import { EnvironmentBadge } from "@/components/shell/environment-badge";
import { ssoConfigured } from "@/lib/auth/config";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import {
  isSignInCode,
  PASSWORD_CHANGED_NOTICE,
  signInMessageKey,
  signInMessageValues,
} from "@/lib/auth/sign-in-messages";
import { currentUser } from "@/lib/auth/session";
import { ssoSignInAction } from "@/lib/auth/sign-in-action";
import { Button } from "@/components/ui/button";
import { getEnv, platformLabel } from "@/lib/env";
import { translatorFor } from "@/lib/auth/translator";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("auth.signIn");
  return { title: t("pageTitle") };
}

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string; error?: string; code?: string; notice?: string }>;
}) {
  if (await currentUser()) redirect("/");
  const query = await searchParams;
  // The browser's language (no user yet). translatorFor rather than getTranslations: the same words,
  // and the page also runs outside Next (tests).
  const t = await translatorFor("auth");
  const error = query.error;
  // Only a same-origin path is carried on to after sign-in; anything else is dropped here already.
  const safe = safeCallbackPath(query.callbackUrl);
  const callbackUrl = safe === "/" ? undefined : safe;
  // Refusals that arrive in the URL: from single sign-on, or from Auth.js's own sign-in route.
  const refusal = error === "CredentialsSignin" ? query.code : error;
  // Auth.js's own route after a right password of a user with two-factor: on to the code.
  if (refusal === "second_factor")
    redirect(`/login/two-factor${callbackUrl ? `?${new URLSearchParams({ callbackUrl })}` : ""}`);
  const refusalMessage = isSignInCode(refusal) ? t(signInMessageKey(refusal), signInMessageValues) : null;
  // After changing one's own password every session ends, the changing one too (lib/actions/account.ts).
  const passwordChanged = query.notice === PASSWORD_CHANGED_NOTICE;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm space-y-6 rounded-xl border border-zinc-200 bg-white p-8 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
        <div className="flex items-center justify-between">
          <h1 className="text-2xl font-semibold">{t("signIn.heading")}</h1>
          <EnvironmentBadge label={platformLabel(getEnv().PLATFORM_BASE_URL)} />
        </div>
        {error === "sso-unknown" && (
          <p
            role="alert"
            className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
          >
            {t("signIn.ssoUnknown")}
          </p>
        )}
        {passwordChanged && (
          <p
            role="status"
            data-testid="password-changed"
            className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200"
          >
            {t("signIn.passwordChanged")}
          </p>
        )}
        {refusalMessage && (
          <p
            role="alert"
            className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
          >
            {refusalMessage}
          </p>
        )}
        <LoginForm callbackUrl={callbackUrl} />
        {ssoConfigured() && (
          <form action={ssoSignInAction}>
            {callbackUrl && <input type="hidden" name="callbackUrl" value={callbackUrl} />}
            <Button type="submit" variant="secondary" className="w-full">
              {t("signIn.sso")}
            </Button>
          </form>
        )}
      </div>
    </main>
  );
}
