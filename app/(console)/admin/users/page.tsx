import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { CreateUserForm } from "@/components/admin/create-user-form";
import { UserRow } from "@/components/admin/user-row";
import { DataTable } from "@/components/ui/data-table";
import { requirePagePermission } from "@/lib/auth/session";
import { ssoConfigured } from "@/lib/auth/sso";
import { requestPreferences } from "@/lib/auth/request-preferences";
import { translatorFor } from "@/lib/auth/translator";
import { formatDateTime } from "@/lib/time/zone";
import { listUsers } from "@/lib/users/service";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("admin.users");
  return { title: t("title") };
}

export default async function UsersPage() {
  const me = await requirePagePermission("users.manage");
  const users = await listUsers();
  const { locale, timeZone } = await requestPreferences();
  // translatorFor rather than getTranslations: the same words, and the page also runs outside Next (tests).
  const t = await translatorFor("admin");
  // A user without a password signs in with single sign-on only: offered only when it is configured.
  const sso = ssoConfigured();
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">{t("users.title")}</h1>
      <h2 className="text-lg font-semibold">{t("users.newUser")}</h2>
      <CreateUserForm ssoConfigured={sso} />
      <h2 className="text-lg font-semibold">{t("users.staff")}</h2>
      <DataTable
        testId="users-table"
        label={t("users.staff")}
        headers={[
          t("users.columns.email"),
          t("users.columns.name"),
          t("users.columns.role"),
          t("users.columns.state"),
          t("users.columns.password"),
          t("users.columns.lastSignIn", { zone: timeZone }),
          t("users.columns.actions"),
        ]}
      >
        {users.map((u) => (
          <UserRow
            key={u.id}
            ssoConfigured={sso}
            user={{
              id: u.id,
              email: u.email,
              name: u.name,
              role: u.role,
              disabled: u.disabledAt !== null,
              lastSignInAt: u.lastSignInAt ? formatDateTime(u.lastSignInAt, timeZone, locale) : null,
              isMe: u.id === me.id,
              twoFactor: u.totpEnrolledAt !== null,
              hasPassword: u.hasPassword,
              passwordSetByAdmin: u.passwordSetByAdmin,
            }}
          />
        ))}
      </DataTable>
    </section>
  );
}
