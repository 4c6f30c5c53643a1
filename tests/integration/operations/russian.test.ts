// The operations, trace, webhook and home screens speak the user's language: a Russian support or
// finance employee reads filter errors, search refusals, action results, export headers and dates in
// Russian (in their own time zone); an English user reads exactly what the screens said before.
import { randomUUID } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ExportLink } from "@/components/operations/export-link";
import { getDb } from "@/lib/db";
import { exportHeader } from "@/lib/operations/export/operations-csv";
import { parseOperationFilter } from "@/lib/operations/list/filter";
import { createStaff, insertOperations } from "../../support/mirror";
import { pageText, propsOf } from "../../support/page-text";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
const browser = vi.hoisted(() => ({ acceptLanguage: "" }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () =>
    new Headers({ "x-paydesk-client-ip": "198.51.100.31", "accept-language": browser.acceptLanguage }),
}));

// The platform of the refresh action: it knows no operation.
(globalThis as { paydeskPlatform?: unknown }).paydeskPlatform = {
  getOperation: async () => ({ operation: null, traceID: "trace-ru-refresh" }),
};

// This file owns the year 2011 of the mirror.
const RANGE = { from: "2011-01-01", to: "2011-12-31" };
const operationId = randomUUID();

type Who = { role: "finance" | "support"; locale: "ru" | "en" | null; timeZone?: string };
async function signIn({ role, locale, timeZone }: Who) {
  const user = await createStaff(role);
  await getDb().user.update({ where: { id: user.id }, data: { locale, timeZone: timeZone ?? null } });
  session.current = { userId: user.id, sessionVersion: 0 };
  return user;
}

beforeAll(async () => {
  await insertOperations([
    {
      id: operationId,
      dateAdded: new Date("2011-03-04T21:30:05Z"),
      status: "in_progress",
      paymentMethod: "sbp",
      idTransactionMerchant: `ru-${operationId}`,
    },
  ]);
});

beforeEach(() => {
  browser.acceptLanguage = "";
});

async function operationsPage(params: Record<string, string>) {
  const { default: Page } = await import("@/app/(console)/operations/page");
  return Page({ searchParams: Promise.resolve(params) });
}

describe("the operations filter", () => {
  it("words its errors in Russian for ru and as before for en", () => {
    const bad = new URLSearchParams("amountMin=1e3&tz=Mars/Olympus&colour=red&type=payIn&type=payOut");
    const ru = parseOperationFilter(bad, "ru");
    const en = parseOperationFilter(bad, "en");
    if (ru.ok || en.ok) throw new Error("expected errors");
    expect(ru.message).toBe("Некоторые значения фильтра нельзя использовать — исправьте их и повторите.");
    expect(ru.fieldErrors.tz).toEqual([
      "Неизвестный часовой пояс «Mars/Olympus» — укажите название IANA, например Europe/Moscow.",
    ]);
    expect(ru.fieldErrors.amountMin?.[0]).toMatch(/^Укажите сумму/);
    expect(ru.fieldErrors.colour).toEqual(["Неизвестный параметр фильтра «colour»."]);
    expect(ru.fieldErrors.type).toEqual(["Параметр type указан больше одного раза."]);
    expect(en.message).toBe("Some filter values cannot be used; fix them and try again.");
    expect(en.fieldErrors.tz).toEqual(['Unknown time zone "Mars/Olympus"; use an IANA name.']);
    expect(en.fieldErrors.colour).toEqual(['Unknown filter parameter "colour".']);
    const size = parseOperationFilter(new URLSearchParams("size=500&status=done"), "ru");
    expect(!size.ok && size.fieldErrors.size).toEqual(["Размер страницы — целое число от 1 до 200."]);
    expect(!size.ok && size.fieldErrors.status?.[0]).toMatch(/^Статус — один из: precreated, created/);
  });

  it("takes amounts as a Russian user types them, and refuses an ambiguous one", () => {
    const typed = parseOperationFilter(
      new URLSearchParams({ amountMin: "1500,50", amountMax: "2 000,5" }),
      "ru",
    );
    expect(typed.ok && [typed.filter.amountMin, typed.filter.amountMax]).toEqual(["1500.50", "2000.5"]);
    const ambiguous = parseOperationFilter(new URLSearchParams({ amountMin: "1,500" }), "ru");
    expect(!ambiguous.ok && ambiguous.fieldErrors.amountMin).toEqual([
      "Укажите сумму не больше чем с 4 знаками после запятой, например 1500,50 или 0,0001.",
    ]);
  });

  it("is shown in Russian on the page of a user who chose Russian", async () => {
    await signIn({ role: "finance", locale: "ru" });
    const text = pageText(await operationsPage({ amountMin: "1e3", tz: "Mars/Olympus" })).join("\n");
    expect(text).toContain("Некоторые значения фильтра нельзя использовать — исправьте их и повторите.");
    expect(text).toContain("Неизвестный часовой пояс «Mars/Olympus»");
    expect(text).not.toContain("cannot be used");
  });

  it("follows a Russian browser when the user has not chosen, and stays English for an English user", async () => {
    browser.acceptLanguage = "ru-RU,ru;q=0.9,en;q=0.5";
    await signIn({ role: "support", locale: null });
    expect(pageText(await operationsPage({ amountMin: "1e3" })).join("\n")).toContain("Некоторые значения");
    await signIn({ role: "support", locale: "en" });
    const text = pageText(await operationsPage({ amountMin: "1e3" })).join("\n");
    expect(text).toContain("Some filter values cannot be used; fix them and try again.");
  });

  it("refuses a longer digit search in Russian", async () => {
    await signIn({ role: "support", locale: "ru" });
    const text = pageText(await operationsPage({ ...RANGE, q: "4276000000000001" })).join("\n");
    expect(text).toContain("Поиск не выполнен.");
    expect(text).toContain("Номера получателей ищутся только по последним 4 цифрам");
  });

  it("shows the list in the user's saved time zone when the URL names none", async () => {
    await signIn({ role: "finance", locale: "ru", timeZone: "Europe/Moscow" });
    const tree = await operationsPage(RANGE);
    expect(pageText(tree).join("\n")).toContain("Время указано в поясе Europe/Moscow.");
    const [link] = propsOf<{ query: string }>(tree, ExportLink);
    expect(new URLSearchParams(link?.query).get("tz")).toBe("Europe/Moscow");
    const utc = await operationsPage({ ...RANGE, tz: "UTC" });
    expect(pageText(utc).join("\n")).toContain("Время указано в поясе UTC.");
  });
});

describe("the JSON list and the CSV export", () => {
  async function exportCsv(query: string) {
    const { GET } = await import("@/app/api/exports/operations/route");
    return GET(new Request(`http://test/api/exports/operations?${query}`));
  }
  /** The body with its byte order mark, if any, kept as U+FEFF (Response.text() drops it). */
  const exactText = async (response: Response) =>
    new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());
  const range = new URLSearchParams(RANGE).toString();
  const machineLine = `${exportHeader.join(",")}\r\n`;

  it("answer a bad filter in Russian", async () => {
    await signIn({ role: "finance", locale: "ru" });
    const { GET } = await import("@/app/api/operations/route");
    const list = await GET(new Request("http://test/api/operations?amountMin=1e3"));
    expect(list.status).toBe(400);
    const body = (await list.json()) as { message: string; fieldErrors: Record<string, string[]> };
    expect(body.message).toBe("Некоторые параметры нельзя использовать.");
    expect(body.fieldErrors.amountMin?.[0]).toMatch(/^Укажите сумму/);
    const csv = await exportCsv(`${range}&after=abc`);
    expect(csv.status).toBe(400);
    expect(((await csv.json()) as { message: string }).message).toMatch(/^Некоторые значения фильтра/);
  });

  it("keep the machine header row by default and when asked, whatever the language", async () => {
    await signIn({ role: "finance", locale: "ru" });
    for (const query of [range, `${range}&header=machine`]) {
      const response = await exportCsv(query);
      expect(response.status).toBe(200);
      const text = await exactText(response);
      expect(text.startsWith(machineLine)).toBe(true);
      expect(text.charCodeAt(0)).not.toBe(0xfeff);
      expect(text).toContain(`ru-${operationId}`);
    }
  });

  it("write the column titles in the user's language when asked, the rows unchanged", async () => {
    await signIn({ role: "finance", locale: "ru" });
    const machine = await exactText(await exportCsv(range));
    const ru = await exactText(await exportCsv(`${range}&header=language`));
    const [ruHeader, ...ruRows] = ru.split("\r\n");
    expect(ruHeader).toBe(
      "\uFEFFID операции,ID мерчанта,Тип,Статус,Создана,Создана (UTC),Последняя смена статуса," +
        "Последняя смена статуса (UTC),Способ оплаты,Банк,Номер получателя,Валюта платежа,Исходная сумма," +
        "Сумма,Комиссия,Валюта баланса,Сумма (в валюте баланса),Комиссия (в валюте баланса),Курс",
    );
    expect(ruRows).toEqual(machine.split("\r\n").slice(1));

    await signIn({ role: "finance", locale: "en" });
    const en = await exactText(await exportCsv(`${range}&header=language`));
    expect(en.split("\r\n")[0]).toBe(
      "\uFEFFOperation id,Merchant id,Type,Status,Created,Created (UTC),Last status change," +
        "Last status change (UTC),Payment method,Bank,Recipient number,Payment currency,Initial amount," +
        "Amount,Commission,Balance currency,Amount (balance currency),Commission (balance currency),Exchange rate",
    );
  });

  it("refuses a header choice it does not know, or given twice, before any CSV", async () => {
    await signIn({ role: "finance", locale: "ru" });
    for (const query of [`${range}&header=xml`, `${range}&header=language&header=machine`]) {
      const response = await exportCsv(query);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { fieldErrors: Record<string, string[]> };
      expect(body.fieldErrors.header?.[0]).toMatch(/^Заголовки столбцов — «machine»/);
    }
  });
});

describe("actions answer in Russian", () => {
  it("saving a view: a missing name, a name too long, a refused search", async () => {
    await signIn({ role: "support", locale: "ru" });
    const { saveViewAction } = await import("@/lib/actions/operations");
    const noName = (await saveViewAction({ name: " ", query: "" })) as {
      fieldErrors?: Record<string, string[]>;
    };
    expect(noName.fieldErrors?.name).toEqual(["Дайте фильтру название."]);
    const long = (await saveViewAction({ name: "в".repeat(81), query: "" })) as {
      fieldErrors?: Record<string, string[]>;
    };
    expect(long.fieldErrors?.name).toEqual(["Не больше 80 символов."]);
    const search = (await saveViewAction({ name: "номер", query: "q=4276000000000001" })) as {
      fieldErrors?: Record<string, string[]>;
    };
    expect(search.fieldErrors?.q?.[0]).toMatch(/по последним 4 цифрам/);
  });

  it("refreshing an operation the platform does not know, deleting a missing view", async () => {
    await signIn({ role: "finance", locale: "ru" });
    const { deleteViewAction, refreshOperationAction } = await import("@/lib/actions/operations");
    expect(await refreshOperationAction({ id: operationId })).toMatchObject({
      ok: false,
      code: "not_found",
      message: "Платформа не знает эту операцию.",
      traceID: "trace-ru-refresh",
    });
    expect(await deleteViewAction({ id: randomUUID() })).toMatchObject({ message: "Такого фильтра нет." });
  });

  it("processing a webhook delivery again that does not exist", async () => {
    await signIn({ role: "support", locale: "ru" });
    const { reprocessWebhookAction } = await import("@/lib/actions/webhooks");
    expect(await reprocessWebhookAction({ id: "999999999999" })).toMatchObject({
      ok: false,
      message: "Такого вебхука нет.",
    });
  });
});

describe("the other screens", () => {
  it("operation page: labels, method name and dates in Russian, in the user's zone", async () => {
    await signIn({ role: "finance", locale: "ru", timeZone: "Europe/Moscow" });
    const { default: Page } = await import("@/app/(console)/operations/[id]/page");
    const tree = await Page({
      params: Promise.resolve({ id: operationId }),
      searchParams: Promise.resolve({}),
    });
    const text = pageText(tree).join("\n");
    expect(text).toContain("Платёж");
    expect(text).toContain("Суммы");
    expect(text).toContain("Способ оплаты");
    expect(text).toContain("05.03.2011 00:30:05 (Europe/Moscow)");
  });

  it("trace lookup: an unusable query in Russian", async () => {
    await signIn({ role: "support", locale: "ru" });
    const { default: Page } = await import("@/app/(console)/trace/page");
    const text = pageText(await Page({ searchParams: Promise.resolve({ q: "abc\u0000" }) })).join("\n");
    expect(text).toContain("Уберите управляющие или невидимые символы форматирования");
    expect(text).toContain("Поиск по traceID");
  });

  it("webhook inbox: an unknown outcome in Russian", async () => {
    await signIn({ role: "support", locale: "ru" });
    const { default: Page } = await import("@/app/(console)/webhooks/page");
    const text = pageText(await Page({ searchParams: Promise.resolve({ outcome: "lost" }) })).join("\n");
    expect(text).toContain("Неизвестный результат обработки.");
    expect(text).toContain("Входящие вебхуки");
  });

  it("home: the welcome in Russian", async () => {
    const user = await signIn({ role: "support", locale: "ru" });
    const { default: Home } = await import("@/app/(console)/page");
    const text = pageText(await Home()).join("\n");
    expect(text).toContain(`Добро пожаловать, ${user.name}`);
  });
});
