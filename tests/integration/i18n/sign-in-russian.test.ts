// The sign-in page speaks the browser's language (there is no user yet), and in Russian as in English an
// unknown email and a wrong password get the same words: the answer says nothing about which was wrong.
import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { cliActor } from "@/lib/audit/log";
import { createUser, disableUser } from "@/lib/users/service";
import { pageText } from "../../support/page-text";

const browserLanguage = vi.hoisted(() => ({ current: "ru-RU,ru;q=0.9,en;q=0.5" }));
vi.mock("next/headers", async () => {
  const support = (await import("../../support/next-request")).nextHeadersModule();
  return {
    ...support,
    headers: async () => {
      const headers = await support.headers();
      headers.set("accept-language", browserLanguage.current);
      return headers;
    },
  };
});
vi.mock("next/navigation", async () => (await import("../../support/next-request")).nextNavigationModule());

const { signInAction } = await import("@/lib/auth/sign-in-action");
const { failedAttempts } = await import("@/lib/auth/credentials");
const { browser, followAction } = await import("../../support/next-request");
const { default: LoginPage } = await import("@/app/(auth)/login/page");

const password = "correct horse battery";
const newEmail = () => `ru-sign-in-${randomUUID()}@example.test`;

async function submit(email: string, attempt: string) {
  browser.clear();
  const form = new FormData();
  form.set("email", email);
  form.set("password", attempt);
  const outcome = await followAction(() => signInAction(null, form));
  return "result" in outcome ? outcome.result : outcome;
}

beforeEach(() => {
  failedAttempts.reset();
  browserLanguage.current = "ru-RU,ru;q=0.9,en;q=0.5";
});

describe("sign-in in Russian", () => {
  it("an unknown email, a wrong password and a disabled account read exactly the same", async () => {
    const known = newEmail();
    await createUser(cliActor, { email: known, role: "support", password });
    const disabled = newEmail();
    await createUser(cliActor, { email: disabled, role: "support", password });
    await disableUser(cliActor, disabled);
    const generic = {
      ok: false,
      code: "invalid",
      message:
        "Неверный адрес электронной почты, пароль или код. После 5 неудачных попыток подряд вход в учётную запись приостанавливается на 15 минут.",
    };
    expect(await submit(newEmail(), password)).toEqual(generic);
    expect(await submit(known, "not the password")).toEqual(generic);
    expect(await submit(disabled, "not the password")).toEqual(generic);
    // with the right password a disabled account says so, in Russian
    expect(await submit(disabled, password)).toEqual({
      ok: false,
      code: "disabled",
      message: "Учётная запись отключена. Обратитесь к администратору.",
    });
  });

  it("the form's field errors are in Russian", async () => {
    expect(await submit("not-an-email", "")).toEqual({
      ok: false,
      code: "fields",
      message: "Проверьте выделенные поля.",
      fieldErrors: {
        email: ["Введите адрес электронной почты, с которым входите."],
        password: ["Введите пароль."],
      },
    });
  });

  it("an English browser gets the words it always had", async () => {
    browserLanguage.current = "en-US,en;q=0.9";
    expect(await submit(newEmail(), password)).toEqual({
      ok: false,
      code: "invalid",
      message:
        "Wrong email, password or code. After 5 failed attempts in a row, signing in to the account pauses for 15 minutes.",
    });
  });

  it("the page itself: heading and a refusal carried in the address", async () => {
    browser.clear();
    const text = pageText(
      await LoginPage({ searchParams: Promise.resolve({ error: "CredentialsSignin", code: "invalid" }) }),
    );
    expect(text).toContain("Вход в Paydesk");
    expect(text).toContain(
      "Неверный адрес электронной почты, пароль или код. После 5 неудачных попыток подряд вход в учётную запись приостанавливается на 15 минут.",
    );
    const sso = pageText(await LoginPage({ searchParams: Promise.resolve({ error: "sso-unknown" }) }));
    expect(sso).toContain(
      "Единый вход выполнен, но активного пользователя Paydesk с вашим адресом нет. Попросите администратора добавить вас.",
    );
  });
});
