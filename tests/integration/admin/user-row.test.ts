// The buttons of a row of the users page (components/admin/user-row.tsx), in both languages: a disabled
// user has Enable where an active one has Disable (audit of user administration: a disabled user could
// not be brought back), and one's own row has neither Disable nor Reset password (an admin could set
// their own password there without the current one).
import { createElement, type ComponentProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NextIntlClientProvider } from "next-intl";
import { describe, expect, it, vi } from "vitest";
import enAdmin from "@/messages/en/admin.json";
import enShell from "@/messages/en/shell.json";
import enTwoFactor from "@/messages/en/twoFactor.json";
import ruAdmin from "@/messages/ru/admin.json";
import ruShell from "@/messages/ru/shell.json";
import ruTwoFactor from "@/messages/ru/twoFactor.json";

vi.mock("next/navigation", () => ({ useRouter: () => ({ refresh: () => undefined }) }));
vi.mock("@/lib/actions/users", () => ({
  disableUserAction: vi.fn(),
  enableUserAction: vi.fn(),
  resetUserPasswordAction: vi.fn(),
  setUserRoleAction: vi.fn(),
}));
vi.mock("@/lib/actions/two-factor", () => ({ resetUserTwoFactorAction: vi.fn() }));

const { UserRow } = await import("@/components/admin/user-row");
type Row = ComponentProps<typeof UserRow>["user"];

const catalogs = {
  en: { admin: enAdmin, shell: enShell, twoFactor: enTwoFactor },
  ru: { admin: ruAdmin, shell: ruShell, twoFactor: ruTwoFactor },
};
const base: Row = {
  id: "0b7c3a0e-4a4e-4f57-9d1e-0c7f3bb0a001",
  email: "someone@test.local",
  name: null,
  role: "finance",
  disabled: false,
  lastSignInAt: null,
  isMe: false,
  twoFactor: false,
};

/** The labels of the row's buttons. */
function buttons(locale: "en" | "ru", user: Partial<Row>): string[] {
  const html = renderToStaticMarkup(
    createElement(
      NextIntlClientProvider,
      { locale, timeZone: "UTC", messages: catalogs[locale] } as ComponentProps<
        typeof NextIntlClientProvider
      >,
      createElement(
        "table",
        null,
        createElement("tbody", null, createElement(UserRow, { user: { ...base, ...user } })),
      ),
    ),
  );
  return [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((m) => m[1]!);
}

describe("a row of the users page", () => {
  it.each([
    ["en", "an active user", {}, ["Disable", "Reset password"]],
    ["en", "a disabled user", { disabled: true }, ["Enable"]],
    ["en", "one's own row", { isMe: true }, []],
    ["ru", "an active user", {}, ["Отключить", "Сбросить пароль"]],
    ["ru", "a disabled user", { disabled: true }, ["Включить"]],
    ["ru", "one's own row", { isMe: true }, []],
  ] as const)("%s, %s: %j", (locale, _what, user, expected) => {
    expect(buttons(locale, user)).toEqual(expected);
  });
});
