import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ChangePasswordForm } from "@/components/auth/password/change-password-form";
import { Alert } from "@/components/ui/alert";
import { requirePagePermission } from "@/lib/auth/session";
import { PASSWORD_MIN_LENGTH } from "@/lib/users/schemas";
import { hasOwnPassword } from "@/lib/users/service";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("account.password");
  return { title: t("title") };
}

/**
 * The signed-in user's own password: changed with the current one (changeOwnPasswordAction, which
 * asks account.password). A user who signs in only with single sign-on has none, and is told where
 * theirs is changed.
 */
export default async function AccountPasswordPage() {
  const user = await requirePagePermission("account.password");
  const [t, hasPassword] = await Promise.all([getTranslations("account.password"), hasOwnPassword(user.id)]);
  return (
    <div className="max-w-2xl space-y-6">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      {hasPassword ? (
        <>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {t("intro", { minimum: PASSWORD_MIN_LENGTH })}
          </p>
          <ChangePasswordForm />
        </>
      ) : (
        <Alert tone="info" testId="password-sso-only">
          {t("ssoOnly")}
        </Alert>
      )}
    </div>
  );
}
