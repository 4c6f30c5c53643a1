import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { EnvironmentBadge } from "@/components/shell/environment-badge";
import { currentUser } from "@/lib/auth/session";
import { getEnv, platformLabel } from "@/lib/env";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string }>;
}) {
  if (await currentUser()) redirect("/");
  const { callbackUrl } = await searchParams;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm space-y-6 rounded-xl border border-zinc-200 bg-white p-8 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
        <div className="flex items-center justify-between">
          <h1 className="text-2xl font-semibold">Sign in to Paydesk</h1>
          <EnvironmentBadge label={platformLabel(getEnv().PLATFORM_BASE_URL)} />
        </div>
        <LoginForm callbackUrl={callbackUrl} />
      </div>
    </main>
  );
}
