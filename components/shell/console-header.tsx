import Link from "next/link";
import { EnvironmentBadge } from "@/components/shell/environment-badge";
import { Button } from "@/components/ui/button";
import type { NavItem } from "@/lib/auth/navigation";
import { signOutAction } from "@/lib/auth/sign-in-action";

export function ConsoleHeader({
  nav,
  environment,
  user,
}: {
  nav: NavItem[];
  environment: string;
  user: { email: string; role: string };
}) {
  return (
    <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
        <Link href="/" className="text-lg font-semibold">
          Paydesk
        </Link>
        <EnvironmentBadge label={environment} />
        <nav
          aria-label="Main"
          className="order-last w-full overflow-x-auto md:order-none md:w-auto md:flex-1"
        >
          <ul className="flex gap-1">
            {nav.map((item) => (
              <li key={item.href}>
                <Link
                  href={item.href}
                  className="block whitespace-nowrap rounded-md px-2 py-1 text-sm text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
                >
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="ml-auto flex items-center gap-3 text-sm">
          <span className="hidden text-zinc-600 sm:inline dark:text-zinc-400" data-testid="current-user">
            {user.email} · {user.role}
          </span>
          <form action={signOutAction}>
            <Button type="submit" variant="secondary">
              Sign out
            </Button>
          </form>
        </div>
      </div>
    </header>
  );
}
