import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { EnvironmentBadge } from "@/components/shell/environment-badge";
import { ssoConfigured } from "@/lib/auth/config";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import { isSignInCode, signInMessages } from "@/lib/auth/sign-in-messages";
import { currentUser } from "@/lib/auth/session";
import { ssoSignInAction } from "@/lib/auth/sign-in-action";
import { Button } from "@/components/ui/button";
import { getEnv, platformLabel } from "@/lib/env";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string; error?: string; code?: string }>;
}) {
  if (await currentUser()) redirect("/");
  const query = await searchParams;
  const error = query.error;
  // Only a same-origin path is carried on to after sign-in; anything else is dropped here already.
  const safe = safeCallbackPath(query.callbackUrl);
  const callbackUrl = safe === "/" ? undefined : safe;
  // Refusals that arrive in the URL: from single sign-on, or from Auth.js's own sign-in route.
  const refusal = error === "CredentialsSignin" ? query.code : error;
  // Auth.js's own route after a right password of a user with two-factor: on to the code.
  if (refusal === "second_factor")
    redirect(`/login/two-factor${callbackUrl ? `?${new URLSearchParams({ callbackUrl })}` : ""}`);
  const refusalMessage = isSignInCode(refusal) ? signInMessages[refusal] : null;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm space-y-6 rounded-xl border border-zinc-200 bg-white p-8 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
        <div className="flex items-center justify-between">
          <h1 className="text-2xl font-semibold">Sign in to Paydesk</h1>
          <EnvironmentBadge label={platformLabel(getEnv().PLATFORM_BASE_URL)} />
        </div>
        {error === "sso-unknown" && (
          <p
            role="alert"
            className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
          >
            Single sign-on worked, but there is no active Paydesk user with your email. Ask an admin to add
            you.
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
              Sign in with single sign-on
            </Button>
          </form>
        )}
      </div>
    </main>
  );
}
