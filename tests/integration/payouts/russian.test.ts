// Pay-outs for a Russian reader: the user's saved language (else the browser's Accept-Language) decides
// the words of field errors, refusals, the duplicate guard and platform refusals; amounts typed the
// Russian way (1 500,50) are sent to the platform as the plain decimal (1500.5).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Sandbox } from "../../../sandbox/index";
import type { Role } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db";
import type { PlatformClient } from "@/lib/platform/client";
import { runSubmissionJob } from "@/lib/payouts/hand-off";
import { freshCard } from "../../support/cards";
import { getPayoutDetail } from "@/lib/payouts/queries";
import { createPayoutRequest } from "@/lib/payouts/requests";
import { payoutFormSchema } from "@/lib/payouts/schemas";
import { KNOWN_MONO_BANK_METHODS } from "@/lib/platform/payment-methods";
import type { InMemoryRecorder } from "../../support/in-memory-recorder";
import { createStaff } from "../../support/mirror";
import { clientFor, control, startSandbox } from "../../support/sandbox";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
const acceptLanguage = vi.hoisted(() => ({ current: null as string | null }));
vi.mock("next/headers", () => ({
  headers: async () =>
    new Headers(acceptLanguage.current ? { "accept-language": acceptLanguage.current } : {}),
}));
const queued = vi.hoisted(() => [] as unknown[]);
vi.mock("@/lib/queue/enqueue", () => ({
  enqueueTask: async (_name: string, data: unknown) => {
    queued.push(data);
    return "job";
  },
}));

let sandbox: Sandbox;
let platform: PlatformClient;
let recorder: InMemoryRecorder;
const db = getDb();
const users = {} as Record<
  "finance" | "approver" | "admin" | "browserOnly",
  { id: string; email: string; role: Role }
>;

beforeAll(async () => {
  sandbox = await startSandbox({ seedDemoHistory: false });
  const client = clientFor(sandbox);
  recorder = client.recorder;
  platform = client.platform;
  (globalThis as { paydeskPlatform?: unknown }).paydeskPlatform = client.platform;
  await control(sandbox, "POST", "/merchants/demo/balance", { amount: "1000000" });
  for (const [name, role] of [
    ["finance", "finance"],
    ["approver", "approver"],
    ["admin", "admin"],
    ["browserOnly", "approver"],
  ] as const) {
    const { id, email } = await createStaff(role);
    // the saved language (user menu); browserOnly has none: the browser decides
    if (name !== "browserOnly") await db.user.update({ where: { id }, data: { locale: "ru" } });
    users[name] = { id, email, role };
  }
});
afterAll(async () => {
  (globalThis as { paydeskPlatform?: unknown }).paydeskPlatform = undefined;
  await sandbox.stop();
});
beforeEach(() => {
  recorder.clear();
  acceptLanguage.current = null;
});

function signInAs(name: keyof typeof users) {
  session.current = { userId: users[name].id, sessionVersion: 0 };
}

/** A unique amount in Russian spelling ("5 123,4567") and the plain decimal it stands for. */
function russianAmount(): { typed: string; plain: string } {
  const whole = 2000 + Math.floor(Math.random() * 7000);
  const fraction = String(Math.floor(Math.random() * 9000) + 1000);
  const grouped = `${String(whole).slice(0, -3)}\u00a0${String(whole).slice(-3)}`;
  return { typed: `${grouped},${fraction}`, plain: `${whole}.${fraction}`.replace(/0+$/, "") };
}

function input(overrides: Record<string, unknown> = {}) {
  return {
    paymentMethod: "toCard",
    bankName: "Сбербанк",
    recipientNumber: freshCard(),
    recipientName: "Иван Петров",
    amount: russianAmount().typed,
    clientID: `client-${randomUUID()}`,
    clientIP: "85.143.12.7",
    clientDateCreated: "2023-04-17",
    webhookUrl: "",
    ...overrides,
  };
}

const actions = () => import("@/lib/actions/payouts");
const payoutCalls = () => recorder.calls.filter((c) => c.path.includes("/host2host/payout"));

describe("a user who chose Russian", () => {
  it("gets the create action's field errors in Russian, and nothing is created or sent", async () => {
    const a = await actions();
    signInAs("finance");
    const card = freshCard();
    const bad = input({
      amount: "1.500,50",
      recipientNumber: card.replace(/\d$/, (d) => String((Number(d) + 1) % 10)),
      clientIP: "0.0.0.0",
      clientID: "test",
      recipientName: "Иван \u202Egnp.exe",
    });
    const r = await a.createPayoutRequestAction(bad);
    expect(r).toMatchObject({ ok: false, code: "invalid", message: "Проверьте выделенные поля." });
    if (!("fieldErrors" in r) || !r.fieldErrors) throw new Error(JSON.stringify(r));
    expect(r.fieldErrors).toMatchObject({
      amount: [
        "Сумму можно прочитать двояко. Запишите её без разделителя тысяч и с одним десятичным разделителем: 1500,50 или 1500.50.",
      ],
      clientIP: [
        "0.0.0.0 не может быть адресом конечного клиента: это не настоящий адрес. Антифрод-проверка отклоняет адреса-заглушки.",
      ],
      clientID: [
        "«test» похоже на заглушку: антифрод-проверка отклоняет ненастоящие ID. Укажите реальный ID клиента в вашей системе.",
      ],
      recipientName: ["В имени получателя есть невидимые или управляющие символы (U+202E)."],
    });
    expect(await db.payoutRequest.count({ where: { makerId: users.finance.id } })).toBe(0);
    expect(payoutCalls()).toHaveLength(0);
  });

  it("an amount typed the Russian way is reviewed and created as the plain decimal", async () => {
    const a = await actions();
    signInAs("finance");
    const amount = russianAmount();
    const typed = input({ amount: amount.typed });
    const reviewed = await a.reviewPayoutAction(typed);
    if (!("review" in reviewed)) throw new Error(JSON.stringify(reviewed));
    expect(reviewed.review.form.amount).toBe(amount.plain);
    const created = await a.createPayoutRequestAction({
      ...typed,
      idTransactionMerchant: reviewed.review.form.idTransactionMerchant,
    });
    if (!("id" in created)) throw new Error(JSON.stringify(created));
    const row = await db.payoutRequest.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.amount.toFixed()).toBe(amount.plain);

    // the same pay-out again: the duplicate guard says so in Russian
    const again = await a.createPayoutRequestAction(typed);
    expect(again).toMatchObject({
      ok: false,
      code: "duplicate",
      message:
        "Заблокировано: заявка на выплату этому получателю на эту сумму уже в статусе «ждёт согласования». " +
        "Повторная выплата может привести к двойной оплате. Администратор может обойти блокировку, указав причину.",
    });
  });

  it("the maker's own approval is refused in Russian, and the page gives the same reason", async () => {
    const a = await actions();
    signInAs("admin");
    const created = await a.createPayoutRequestAction(input());
    if (!("id" in created)) throw new Error(JSON.stringify(created));
    const reason = "Вы создали эту выплату: согласовать или отклонить её должен другой сотрудник.";
    expect(await a.approvePayoutAction({ id: created.id, comment: "моя" })).toEqual({
      ok: false,
      code: "own_request",
      message: reason,
    });
    expect(await getPayoutDetail(created.id, users.admin)).toMatchObject({ approveBlockedReason: reason });
    expect(await a.approvePayoutAction({ id: created.id, comment: "  " })).toMatchObject({
      ok: false,
      code: "invalid",
      fieldErrors: { comment: ["Напишите комментарий к решению."] },
    });
  });

  /** Creates a request outside the form (as the maker), approves it through the action as the approver, sends it. */
  async function approvedAndSent(overrides: Record<string, unknown>) {
    const a = await actions();
    const form = payoutFormSchema.parse(input(overrides));
    const created = await createPayoutRequest(form, users.finance, {
      thresholds: { autoApproveBelow: null, twoApprovalsAbove: null },
    });
    if (!created.ok) throw new Error(JSON.stringify(created));
    signInAs("approver");
    expect(await a.approvePayoutAction({ id: created.id, comment: "сверено со счётом" })).toMatchObject({
      ok: true,
      status: "approved",
    });
    for (const job of queued.splice(0)) await runSubmissionJob(job, platform);
    const detail = await getPayoutDetail(created.id, users.approver);
    expect(detail?.status).toBe("failed_to_submit");
    const platformSaid = payoutCalls().at(-1)?.message;
    expect(platformSaid).toBeTruthy();
    return { error: detail?.error, platformSaid };
  }

  it("a platform refusal is explained in Russian, the platform's own message beside it unchanged", async () => {
    await control(sandbox, "PATCH", "/merchants/demo", {
      tariff: { payOut: ["toCard", "sbp", "toAccount", "sber_sber"] },
    });
    try {
      const { error, platformSaid } = await approvedAndSent({ paymentMethod: "psb_psb" });
      expect(error).toMatchObject({
        code: "noSuitableTariffForRequest",
        codeError: "noSuitableTariffForRequest",
        message:
          "Способа оплаты psb_psb нет в тарифе мерчанта. Выберите другой способ или попросите менеджера добавить его в тариф.",
        platformMessage: platformSaid,
      });
    } finally {
      await control(sandbox, "PATCH", "/merchants/demo", {
        tariff: { payOut: ["toCard", "sbp", "toAccount", ...KNOWN_MONO_BANK_METHODS] },
      });
    }
  });

  it("the balance shortage names both amounts in Russian number format", async () => {
    const { error, platformSaid } = await approvedAndSent({ amount: "999 999 999 999" });
    expect(error?.code).toBe("notEnoughMoneyOnBalance");
    expect(error?.platformMessage).toBe(platformSaid);
    expect(error?.message).toMatch(
      /^Баланса не хватает для этой выплаты: нужно [\d\u00a0]+,\d{2,4}\u00a0USDT, на балансе [\d\u00a0]+,\d{2,4}\u00a0USDT\. Пополните баланс или уменьшите сумму\.$/,
    );
  });
});

describe("a user with no saved language", () => {
  it("reads what the browser asks for: Russian, then English", async () => {
    const a = await actions();
    signInAs("browserOnly");
    acceptLanguage.current = "ru-RU,ru;q=0.9,en;q=0.8";
    expect(await a.approvePayoutAction({ id: "not-a-uuid", comment: "x" })).toMatchObject({
      message: "Проверьте выделенные поля.",
      fieldErrors: { id: ["Это не ID заявки на выплату."] },
    });
    expect(await a.cancelPayoutAction({ id: randomUUID() })).toMatchObject({ ok: false, code: "forbidden" });
    const missing = await a.approvePayoutAction({ id: randomUUID(), comment: "ок" });
    expect(missing).toEqual({ ok: false, code: "not_found", message: "Такой заявки на выплату нет." });

    acceptLanguage.current = "en-US,en;q=0.9";
    expect(await a.approvePayoutAction({ id: randomUUID(), comment: "ok" })).toEqual({
      ok: false,
      code: "not_found",
      message: "No such pay-out request.",
    });
  });
});
