// The buttons of a row of the users page (components/admin/user-row.tsx), in both languages: a disabled
// user has Enable where an active one has Disable (audit of user administration: a disabled user could
// not be brought back), and one's own row has neither Disable nor Reset password (an admin could set
// their own password there without the current one). With single sign-on configured, a user who has a
// password has Remove password (they then sign in with single sign-on only). Each row says whether the
// user has a password and whether an admin set it (who could sign in as them).
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
  createUserAction: vi.fn(),
  disableUserAction: vi.fn(),
  enableUserAction: vi.fn(),
  removeUserPasswordAction: vi.fn(),
  resetUserPasswordAction: vi.fn(),
  setUserRoleAction: vi.fn(),
}));
vi.mock("@/lib/actions/two-factor", () => ({ resetUserTwoFactorAction: vi.fn() }));

const { UserRow } = await import("@/components/admin/user-row");
const { CreateUserForm } = await import("@/components/admin/create-user-form");
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
  hasPassword: true,
  passwordSetByAdmin: false,
};

function render(locale: "en" | "ru", user: Partial<Row>, ssoConfigured?: boolean): string {
  return renderToStaticMarkup(
    createElement(
      NextIntlClientProvider,
      { locale, timeZone: "UTC", messages: catalogs[locale] } as ComponentProps<
        typeof NextIntlClientProvider
      >,
      createElement(
        "table",
        null,
        createElement("tbody", null, createElement(UserRow, { user: { ...base, ...user }, ssoConfigured })),
      ),
    ),
  );
}

/** The labels of the row's buttons. */
function buttons(locale: "en" | "ru", user: Partial<Row>, ssoConfigured?: boolean): string[] {
  const html = render(locale, user, ssoConfigured);
  return [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((m) => m[1]!);
}

/** The text of the row's password cell. */
function passwordMarker(locale: "en" | "ru", user: Partial<Row>): string {
  const cell = /<td[^>]*data-testid="user-password"[^>]*>(.*?)<\/td>/.exec(render(locale, user))?.[1];
  return (cell ?? "").replace(/<[^>]+>/g, "");
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

describe("single sign-on only on a row of the users page", () => {
  it.each([
    ["en", "a user with a password", {}, ["Disable", "Reset password", "Remove password"]],
    [
      "en",
      "a single-sign-on-only user (a reset gives a password back)",
      { hasPassword: false },
      ["Disable", "Reset password"],
    ],
    ["en", "a disabled user", { disabled: true }, ["Enable"]],
    ["en", "one's own row", { isMe: true }, []],
    ["ru", "a user with a password", {}, ["Отключить", "Сбросить пароль", "Удалить пароль"]],
    ["ru", "a single-sign-on-only user", { hasPassword: false }, ["Отключить", "Сбросить пароль"]],
    ["ru", "one's own row", { isMe: true }, []],
  ] as const)("with single sign-on configured, %s, %s: %j", (locale, _what, user, expected) => {
    expect(buttons(locale, user, true)).toEqual(expected);
  });

  it.each([
    ["en", { hasPassword: false, passwordSetByAdmin: false }, "none: single sign-on only"],
    ["en", { hasPassword: true, passwordSetByAdmin: false }, "yes"],
    ["en", { hasPassword: true, passwordSetByAdmin: true }, "yes, set by an admin"],
    ["ru", { hasPassword: false, passwordSetByAdmin: false }, "нет: только единый вход"],
    ["ru", { hasPassword: true, passwordSetByAdmin: false }, "есть"],
    ["ru", { hasPassword: true, passwordSetByAdmin: true }, "есть, задан администратором"],
  ] as const)("the password marker in %s for %j: %s", (locale, user, expected) => {
    expect(passwordMarker(locale, user)).toBe(expected);
  });

  it("the admin-set marker explains itself (its title) in both languages", () => {
    expect(render("en", { passwordSetByAdmin: true })).toContain(
      'title="An admin chose this password and could sign in as this user;',
    );
    expect(render("ru", { passwordSetByAdmin: true })).toContain('title="Этот пароль выбрал администратор');
  });
});

// The users page's form offers "single sign-on only" (no password) only when single sign-on is configured.
describe("the new-user form's single-sign-on-only choice", () => {
  const form = (locale: "en" | "ru", ssoConfigured: boolean) =>
    renderToStaticMarkup(
      createElement(
        NextIntlClientProvider,
        { locale, timeZone: "UTC", messages: catalogs[locale] } as ComponentProps<
          typeof NextIntlClientProvider
        >,
        createElement(CreateUserForm, { ssoConfigured }),
      ),
    );
  const choice = (html: string) =>
    /<label[^>]*><input type="checkbox"[^>]* name="ssoOnly"[^>]*\/>([^<]*)<\/label>/.exec(html)?.[1] ?? null;

  it.each([
    ["en", "Single sign-on only (no password)"],
    ["ru", "Только единый вход (без пароля)"],
  ] as const)("is worded in %s when single sign-on is configured: %s", (locale, label) => {
    expect(choice(form(locale, true))).toBe(label);
  });

  it.each(["en", "ru"] as const)("is not offered in %s without single sign-on", (locale) => {
    const html = form(locale, false);
    expect(html).not.toContain('name="ssoOnly"');
    expect(html).toContain('name="password"');
  });
});
