import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { EnvironmentBadge } from "@/components/shell/environment-badge";
import { LanguageSwitch } from "@/components/shell/language-switch";
import { NavMenu } from "@/components/shell/nav-menu";
import { TimeZoneSync } from "@/components/shell/time-zone-sync";
import { Button } from "@/components/ui/button";
import type { NavGroup, NavItem } from "@/lib/auth/navigation";
import type { StaffUser } from "@/lib/auth/session";
import { signOutAction } from "@/lib/auth/sign-in-action";

const MENU_GROUPS = ["control", "admin"] as const satisfies NavGroup[];

const linkClass =
  "block whitespace-nowrap rounded-md px-2 py-1 text-sm text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800";

export async function ConsoleHeader({
  nav,
  environment,
  user,
}: {
  nav: NavItem[];
  environment: string;
  user: StaffUser;
}) {
  const t = await getTranslations("shell");
  const tTwoFactor = await getTranslations("twoFactor");
  const tAccount = await getTranslations("account.password");
  const inGroup = (group: NavGroup) => nav.filter((item) => item.group === group);
  const link = (item: NavItem) => (
    <Link href={item.href} className={linkClass}>
      {t(`nav.${item.key}` as "nav.operations")}
    </Link>
  );
  return (
    <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <TimeZoneSync saved={user.timeZone ?? null} />
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
        <Link href="/" className="text-lg font-semibold">
          Paydesk
        </Link>
        <EnvironmentBadge label={environment} />
        <nav aria-label={t("mainNavigation")} className="order-last w-full lg:order-none lg:w-auto lg:flex-1">
          <ul className="flex flex-wrap items-center gap-1">
            {inGroup("main").map((item) => (
              <li key={item.href}>{link(item)}</li>
            ))}
            {MENU_GROUPS.map((group) =>
              inGroup(group).length === 0 ? null : (
                <li key={group}>
                  <NavMenu summary={t(`groups.${group}`)} testId={`nav-group-${group}`}>
                    <ul>
                      {inGroup(group).map((item) => (
                        <li key={item.href}>{link(item)}</li>
                      ))}
                    </ul>
                  </NavMenu>
                </li>
              ),
            )}
          </ul>
        </nav>
        <div className="ml-auto text-sm">
          <NavMenu
            align="right"
            testId="user-menu"
            summary={
              <span
                className="max-w-48 truncate text-zinc-600 dark:text-zinc-400"
                data-testid="current-user"
                title={user.email}
              >
                <span translate="no">{user.email}</span> · {t(`roles.${user.role}`)}
              </span>
            }
          >
            <LanguageSwitch />
            <Link href="/account/two-factor" className={linkClass} data-testid="two-factor-link">
              {tTwoFactor("menuLink")}
            </Link>
            <Link href="/account/password" className={linkClass} data-testid="password-link">
              {tAccount("menuLink")}
            </Link>
            <form action={signOutAction} className="border-t border-zinc-200 p-1 dark:border-zinc-700">
              <Button type="submit" variant="ghost" className="w-full justify-start">
                {t("signOut")}
              </Button>
            </form>
          </NavMenu>
        </div>
      </div>
    </header>
  );
}
