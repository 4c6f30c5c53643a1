// A Russian-speaking admin (language saved on the user) gets the settings, users, reconciliation and
// statements answers in Russian: field errors, refusals and results; an English-speaking colleague gets
// the same answers in English. The figures in the messages (limits, lengths) are the same in both.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { createStaff } from "../../support/mirror";
import { isolateDatabase } from "../../support/database";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
// The browser asks for English: the user's saved language must win over it.
vi.mock("next/headers", () => ({
  headers: async () =>
    new Headers({ "accept-language": "en-US,en;q=0.9", "x-paydesk-client-ip": "198.51.100.77" }),
}));
vi.mock("@/lib/queue/enqueue", () => ({
  enqueueJob: async () => {
    throw new Error("queue down");
  },
}));

const { saveSettingAction } = await import("@/lib/actions/settings");
const { createUserAction, setUserRoleAction } = await import("@/lib/actions/users");
const { decideDriftAction, runReconciliationNowAction } = await import("@/lib/actions/reconcile");
const { annotateMovementAction, issueStatementAction } = await import("@/lib/actions/statements");
const { parseAuditFilter } = await import("@/lib/audit/queries");
const { getSettings, forgetCachedSettings } = await import("@/lib/settings/settings");

let restore: () => Promise<void>;
const users = {} as Record<"ru" | "en", string>;

beforeAll(async () => {
  restore = await isolateDatabase();
  for (const locale of ["ru", "en"] as const) {
    const admin = await createStaff("admin");
    await getDb().user.update({ where: { id: admin.id }, data: { locale } });
    users[locale] = admin.id;
  }
}, 60_000);
afterAll(async () => restore());

const as = (locale: "ru" | "en") => {
  session.current = { userId: users[locale], sessionVersion: 0 };
};

describe("settings page actions", () => {
  it.each([
    ["ru", "0", "Не менее 1 минуты."],
    ["ru", "99999", "Не более 10080 минут (одна неделя)."],
    ["ru", "1e3", "Введите целое число минут, только цифры."],
    ["ru", null, "Введите целое число минут."],
    ["en", "0", "At least 1 minute."],
    ["en", "99999", "At most 10080 minutes (one week)."],
  ] as const)("%s: minutes %j refused with %s", async (locale, value, text) => {
    as(locale);
    const result = await saveSettingAction({ key: "stuckOperationMinutes", value });
    expect(result).toMatchObject({ ok: false, code: "invalid", message: text });
    expect(result).toMatchObject({ fieldErrors: { value: [text] } });
  });

  it("words every kind of refusal in Russian: days, amounts, percentages, lists, tokens, switches", async () => {
    as("ru");
    const refused = async (key: string, value: unknown) => {
      const r = await saveSettingAction({ key, value });
      if (r.ok) throw new Error(`${key} ${JSON.stringify(value)} was accepted`);
      return r.message;
    };
    expect(await refused("apiCallRetentionDays", "3")).toBe("Не менее 7 дней.");
    expect(await refused("apiCallRetentionDays", "4000")).toBe("Не более 3650 дней (десять лет).");
    expect(await refused("sessionIdleMinutes", "1441")).toBe("Не более 1440 минут (одни сутки).");
    expect(await refused("autoApproveBelow", "10.12345")).toBe("Не более 4 знаков после запятой.");
    expect(await refused("autoApproveBelow", "x".repeat(31))).toBe("Не более 30 символов.");
    expect(await refused("nearDuplicateTolerancePercent", "60")).toBe("Не более 50 %.");
    expect(await refused("webhookAllowedIps", ["bank.example"])).toMatch(
      /^Каждая строка — IP-адрес или CIDR/,
    );
    expect(await refused("webhookBearerToken", "short")).toBe("Не менее 16 символов.");
    expect(await refused("webhookOpenEndpoint", "yes")).toBe("Выберите «включено» или «выключено».");
    expect(await refused("webhookBearerToken", 12345)).toBe("Введите токен или очистите поле.");
    // the action's own check (an unknown key) is worded too
    const unknown = await saveSettingAction({ key: "platformToken", value: "x" });
    expect(unknown).toMatchObject({ ok: false, message: "Проверьте выделенные поля." });
    expect(JSON.stringify(unknown)).toMatch(/Неизвестная настройка\./);
  });

  it("takes an amount typed the Russian way (decimal comma, grouped thousands)", async () => {
    as("ru");
    expect(await saveSettingAction({ key: "twoApprovalsAbove", value: "1 500 000,50" })).toMatchObject({
      ok: true,
      value: "1500000.5",
    });
    expect(await saveSettingAction({ key: "autoApproveBelow", value: "1500,5" })).toMatchObject({
      ok: true,
      value: "1500.5",
    });
    forgetCachedSettings();
    expect(await getSettings()).toMatchObject({ twoApprovalsAbove: "1500000.5", autoApproveBelow: "1500.5" });
    const above = await saveSettingAction({ key: "autoApproveBelow", value: "2000000" });
    expect(above).toMatchObject({
      ok: false,
      message: "Лимит автосогласования не может быть выше лимита двух согласований.",
    });
  });
});

describe("users page actions", () => {
  it("a Russian admin gets Russian field errors for a new user; nothing is created", async () => {
    as("ru");
    const count = await getDb().user.count();
    const result = await createUserAction({
      email: "not-an-email",
      name: "\u202Egnp.exe",
      role: "root",
      password: "short",
    });
    expect(result).toMatchObject({ ok: false, code: "invalid", message: "Проверьте выделенные поля." });
    if (result.ok || !("fieldErrors" in result)) throw new Error("expected field errors");
    expect(result.fieldErrors.email).toEqual(["должен быть адресом электронной почты"]);
    expect(result.fieldErrors.password).toEqual(["должен быть не короче 12 символов"]);
    expect(result.fieldErrors.role).toEqual(["выберите одну из ролей: admin, finance, approver, support"]);
    expect(result.fieldErrors.name?.[0]).toMatch(/U\+202E/);
    expect(await getDb().user.count()).toBe(count);
  });

  it("the same input from an English admin reads as before", async () => {
    as("en");
    const result = await createUserAction({ email: "not-an-email", role: "finance", password: "short" });
    if (result.ok || !("fieldErrors" in result)) throw new Error("expected field errors");
    expect(result.message).toBe("Check the highlighted fields.");
    expect(result.fieldErrors.email).toEqual(["must be an email address"]);
    expect(result.fieldErrors.password).toEqual(["must be at least 12 characters"]);
  });

  it("refusals and conflicts are worded in Russian", async () => {
    as("ru");
    expect(await setUserRoleAction({ userId: users.ru, role: "support" })).toMatchObject({
      ok: false,
      code: "not_allowed",
      message: "Нельзя сменить собственную роль.",
    });
    expect(await setUserRoleAction({ userId: randomUUID(), role: "support" })).toMatchObject({
      ok: false,
      code: "not_found",
      message: "Такого пользователя нет.",
    });
    const email = `ru-${randomUUID()}@test.local`;
    expect(await createUserAction({ email, role: "support", password: "" })).toMatchObject({ ok: true });
    expect(await createUserAction({ email, role: "support", password: "" })).toMatchObject({
      ok: false,
      code: "conflict",
      message: `Пользователь с адресом ${email} уже существует.`,
    });
  });
});

describe("reconciliation and statements actions", () => {
  it("a short note, an unknown drift item and an unreachable queue are refused in Russian", async () => {
    as("ru");
    const short = await decideDriftAction({ id: randomUUID(), decision: "resolve", note: "ok" });
    if (short.ok || !("fieldErrors" in short)) throw new Error("expected field errors");
    expect(short.fieldErrors.note).toEqual([
      "Напишите комментарий не короче 3 символов: что проверено или сделано.",
    ]);
    expect(await decideDriftAction({ id: randomUUID(), decision: "resolve", note: "checked" })).toMatchObject(
      {
        ok: false,
        code: "not_found",
        message: "Такого расхождения нет.",
      },
    );
    expect(await runReconciliationNowAction({ kind: "full" })).toMatchObject({
      ok: false,
      message: "Очередь заданий недоступна.",
    });
  });

  it("a statement period or a movement that cannot be used is refused in Russian", async () => {
    as("ru");
    expect(
      await issueStatementAction({ period: "custom", tz: "UTC", from: "2031-03-10", to: "2031-03-01" }),
    ).toMatchObject({ ok: false, message: "Последний день раньше первого." });
    const zone = await issueStatementAction({ period: "last-month", tz: "Mars/Olympus" });
    if (zone.ok || !("fieldErrors" in zone)) throw new Error("expected field errors");
    expect((zone.fieldErrors as Record<string, string[] | undefined>).tz).toEqual([
      "Неизвестный часовой пояс.",
    ]);
    const kind = await annotateMovementAction({ id: randomUUID(), kind: "gift" });
    if (kind.ok || !("fieldErrors" in kind)) throw new Error("expected field errors");
    expect(kind.fieldErrors.kind).toEqual(["Выберите пополнение, вывод средств или корректировку."]);
    expect(await annotateMovementAction({ id: randomUUID(), kind: "topUp" })).toMatchObject({
      ok: false,
      message: "Такого движения нет.",
    });
  });

  it("the audit log filters are refused in the reader's language", () => {
    const ru = parseAuditFilter({ from: "2024-05-02", to: "2024-05-01", actor: "x".repeat(400) }, "ru");
    expect(ru).toMatchObject({
      ok: false,
      message: "Проверьте фильтры.",
      fieldErrors: { to: ["Дата «По» не может быть раньше даты «С»."], actor: ["Не более 320 символов."] },
    });
    expect(parseAuditFilter({ to: "2024-02-30" }, "en")).toMatchObject({
      ok: false,
      fieldErrors: { to: ["To: a date such as 2025-01-31."] },
    });
  });
});
