"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { ResetTwoFactorButton } from "@/components/auth/two-factor/reset-button";
import { useStepUp } from "@/components/auth/two-factor/step-up";
import { Button } from "@/components/ui/button";
import { roles, type Role } from "@/lib/auth/permissions";
import {
  disableUserAction,
  enableUserAction,
  removeUserPasswordAction,
  resetUserPasswordAction,
  setUserRoleAction,
} from "@/lib/actions/users";

const isRole = (value: string): value is Role => (roles as readonly string[]).includes(value);

export type UserRowData = {
  id: string;
  email: string;
  name: string | null;
  role: string;
  disabled: boolean;
  lastSignInAt: string | null;
  isMe: boolean;
  /** Enrolled in two-factor sign-in (an admin can reset it). */
  twoFactor: boolean;
  /** Has a password (none: single sign-on only). */
  hasPassword: boolean;
  /** The password was set by an admin (who could sign in with it: lib/payouts/policy.ts). */
  passwordSetByAdmin: boolean;
};

/**
 * One user of the users page. `ssoConfigured`: single sign-on is configured, so a password can be
 * removed (the user then signs in with single sign-on only).
 */
export function UserRow({ user, ssoConfigured = false }: { user: UserRowData; ssoConfigured?: boolean }) {
  const t = useTranslations("admin.users");
  const roleName = useTranslations("shell.roles");
  const router = useRouter();
  const withStepUp = useStepUp();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const run = (
    fn: () => Promise<{ ok: boolean; message?: string } & Record<string, unknown>>,
    done: string,
  ) =>
    startTransition(async () => {
      const r = await withStepUp(fn);
      setMessage(r.ok ? { ok: true, text: done } : { ok: false, text: r.message ?? t("notSaved") });
      if (r.ok) router.refresh();
    });
  const roleId = `role-${user.id}`;
  return (
    <tr
      data-testid="user-row"
      data-email={user.email}
      className="border-t border-zinc-200 align-top dark:border-zinc-800"
    >
      <td className="px-2 py-1">
        {user.email}
        {user.isMe && <span className="ml-1 text-xs text-zinc-500">{t("you")}</span>}
      </td>
      <td className="px-2 py-1" translate="no">
        {user.name ?? ""}
      </td>
      <td className="px-2 py-1">
        <label htmlFor={roleId} className="sr-only">
          {t("roleOf", { email: user.email })}
        </label>
        <select
          id={roleId}
          defaultValue={user.role}
          disabled={pending || user.disabled || user.isMe}
          onChange={(e) => {
            const role = e.target.value;
            run(
              () => setUserRoleAction({ userId: user.id, role }),
              t("roleChanged", { role: isRole(role) ? roleName(role) : role }),
            );
          }}
          className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        >
          {roles.map((r) => (
            <option key={r} value={r}>
              {roleName(r)}
            </option>
          ))}
        </select>
      </td>
      <td className="px-2 py-1" data-testid="user-state">
        {user.disabled ? t("disabled") : t("active")}
      </td>
      <td className="px-2 py-1 text-xs" data-testid="user-password">
        {!user.hasPassword ? (
          t("passwordNone")
        ) : user.passwordSetByAdmin ? (
          <span title={t("passwordByAdminHint")}>{t("passwordByAdmin")}</span>
        ) : (
          t("passwordOwn")
        )}
      </td>
      <td className="whitespace-nowrap px-2 py-1 text-xs">{user.lastSignInAt ?? t("never")}</td>
      <td className="px-2 py-1">
        <div className="flex flex-wrap gap-1">
          {!user.disabled && !user.isMe && (
            <Button
              type="button"
              variant="secondary"
              disabled={pending}
              onClick={() => {
                if (window.confirm(t("confirmDisable", { email: user.email })))
                  run(() => disableUserAction({ userId: user.id }), t("disabledDone"));
              }}
            >
              {t("disable")}
            </Button>
          )}
          {user.disabled && !user.isMe && (
            <Button
              type="button"
              variant="secondary"
              disabled={pending}
              onClick={() => {
                if (window.confirm(t("confirmEnable", { email: user.email })))
                  run(() => enableUserAction({ userId: user.id }), t("enabledDone"));
              }}
            >
              {t("enable")}
            </Button>
          )}
          {/* Never one's own: that would change it without the current password. */}
          {!user.disabled && !user.isMe && (
            <Button
              type="button"
              variant="secondary"
              disabled={pending}
              onClick={() =>
                startTransition(async () => {
                  const r = await withStepUp(() => resetUserPasswordAction({ userId: user.id }));
                  setMessage(
                    r.ok
                      ? { ok: true, text: t("newPassword", { password: r.generated ?? "" }) }
                      : { ok: false, text: r.message },
                  );
                })
              }
            >
              {t("resetPassword")}
            </Button>
          )}
          {/* Single sign-on only: nobody, the admin who set it included, signs in with a password. */}
          {ssoConfigured && user.hasPassword && !user.disabled && !user.isMe && (
            <Button
              type="button"
              variant="secondary"
              disabled={pending}
              onClick={() => {
                if (window.confirm(t("confirmRemovePassword", { email: user.email })))
                  run(() => removeUserPasswordAction({ userId: user.id }), t("removedPassword"));
              }}
            >
              {t("removePassword")}
            </Button>
          )}
          {user.twoFactor && !user.isMe && <ResetTwoFactorButton userId={user.id} email={user.email} />}
        </div>
        {message && (
          <p
            role={message.ok ? "status" : "alert"}
            className={`mt-1 text-xs ${message.ok ? "text-emerald-700" : "text-red-700"}`}
          >
            {message.text}
          </p>
        )}
      </td>
    </tr>
  );
}
