// The interface language: the user's saved choice first, then the browser's Accept-Language, then
// DEFAULT_LOCALE; saved from the user menu (audited), kept across sessions, and refused when it is not
// one of ours. Server actions answer in that language, zod's own messages included.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { createStaff } from "../../support/mirror";
import { isolateDatabase } from "../../support/database";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
const request = vi.hoisted(() => ({ acceptLanguage: "en-US,en;q=0.9" }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () =>
    new Headers({ "x-paydesk-client-ip": "198.51.100.7", "accept-language": request.acceptLanguage }),
}));

const { setLanguage, setTimeZone } = await import("@/lib/actions/preferences");
const { requestPreferences } = await import("@/lib/auth/request-preferences");
const { authorizedAction } = await import("@/lib/auth/action");

let restore: () => Promise<void>;
let userId: string;

beforeAll(async () => {
  restore = await isolateDatabase();
  userId = (await createStaff("support")).id;
});
afterAll(async () => restore());
beforeEach(async () => {
  session.current = { userId, sessionVersion: 0 };
  request.acceptLanguage = "en-US,en;q=0.9";
  await getDb().user.update({ where: { id: userId }, data: { locale: null, timeZone: null } });
});

// requestPreferences is cached per React render; outside one each call reads afresh.
describe("which language a request gets", () => {
  it("follows the browser when the user has not chosen", async () => {
    request.acceptLanguage = "ru-RU,ru;q=0.9,en;q=0.8";
    expect((await requestPreferences()).locale).toBe("ru");
    request.acceptLanguage = "de-DE,en;q=0.5";
    expect((await requestPreferences()).locale).toBe("en");
  });

  it("falls back to DEFAULT_LOCALE when the browser asks for neither", async () => {
    request.acceptLanguage = "de-DE,fr;q=0.5";
    expect((await requestPreferences()).locale).toBe(process.env.DEFAULT_LOCALE);
  });

  it("prefers the saved choice over the browser, and keeps it (a new session reads it again)", async () => {
    request.acceptLanguage = "en-US";
    expect(await setLanguage({ locale: "ru" })).toEqual({ ok: true, locale: "ru" });
    expect((await requestPreferences()).locale).toBe("ru");
    session.current = { userId, sessionVersion: 0 };
    expect((await requestPreferences()).locale).toBe("ru");
    const entry = await getDb().auditLog.findFirstOrThrow({
      where: { action: "user.language.change", targetId: userId },
      orderBy: { at: "desc" },
    });
    expect(entry).toMatchObject({ before: { locale: null }, after: { locale: "ru" } });
  });

  it("signed out, the browser decides (the sign-in page)", async () => {
    await getDb().user.update({ where: { id: userId }, data: { locale: "en" } });
    session.current = null;
    request.acceptLanguage = "ru";
    expect((await requestPreferences()).locale).toBe("ru");
  });
});

describe("refusals change nothing", () => {
  it.each([["de"], [""], ["ru\u0000"], ["\u202eru"], [null]])("language %j is refused", async (locale) => {
    const result = await setLanguage({ locale });
    expect(result).toMatchObject({ ok: false, code: "invalid" });
    expect((await getDb().user.findUniqueOrThrow({ where: { id: userId } })).locale).toBeNull();
  });

  it("an unknown time zone is refused in the user's language", async () => {
    await getDb().user.update({ where: { id: userId }, data: { locale: "ru" } });
    const result = await setTimeZone({ timeZone: "Mars/Olympus" });
    expect(result).toEqual({
      ok: false,
      code: "invalid",
      message: "Проверьте выделенные поля.",
      fieldErrors: { timeZone: ["Такой часовой пояс неизвестен."] },
    });
    expect((await getDb().user.findUniqueOrThrow({ where: { id: userId } })).timeZone).toBeNull();
  });

  it("signed out, nothing is saved", async () => {
    session.current = null;
    expect(await setLanguage({ locale: "ru" })).toMatchObject({ ok: false, code: "unauthenticated" });
    expect((await getDb().user.findUniqueOrThrow({ where: { id: userId } })).locale).toBeNull();
  });
});

describe("the time zone", () => {
  it("stores the canonical name once and audits it", async () => {
    expect(await setTimeZone({ timeZone: "europe/moscow" })).toEqual({ ok: true, timeZone: "Europe/Moscow" });
    expect((await requestPreferences()).timeZone).toBe("Europe/Moscow");
  });
});

describe("server actions answer in the user's language", () => {
  const probe = authorizedAction("operations.read", z.object({ n: z.number().min(5) }), async () => ({
    ok: true,
  }));

  it("zod's own messages and the summary in Russian for a ru user", async () => {
    await getDb().user.update({ where: { id: userId }, data: { locale: "ru" } });
    const result = await probe({ n: 1 });
    expect(result).toMatchObject({ ok: false, code: "invalid", message: "Проверьте выделенные поля." });
    expect((result as { fieldErrors: Record<string, string[]> }).fieldErrors.n![0]).toMatch(/[А-Яа-я]/);
  });

  it("and in English for an en user", async () => {
    await getDb().user.update({ where: { id: userId }, data: { locale: "en" } });
    const result = await probe({ n: 1 });
    expect(result).toMatchObject({ message: "Check the highlighted fields." });
    expect((result as { fieldErrors: Record<string, string[]> }).fieldErrors.n![0]).toMatch(/5/);
  });

  it("a refusal for lack of permission is worded in the user's language", async () => {
    await getDb().user.update({ where: { id: userId }, data: { locale: "ru" } });
    const forbidden = authorizedAction("users.manage", z.object({}), async () => ({ ok: true }));
    expect(await forbidden({})).toEqual({
      ok: false,
      code: "forbidden",
      message: "Ваша роль не позволяет это сделать.",
    });
  });
});
