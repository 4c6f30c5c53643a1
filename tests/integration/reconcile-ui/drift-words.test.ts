// The reconciliation page says what each drift item means in the reader's language: the kind in words
// with a short explanation, the fields by their names, and for a disagreement the run did not repair,
// what the mirror keeps (a person must act; resolving records a decision and changes neither the mirror
// nor the ledger).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { DriftKind } from "@/lib/generated/prisma/enums";
import type { Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { MIRRORED_FIELDS } from "@/lib/operations/mirror/mirror-fields";
import { isolateDatabase } from "../../support/database";
import { createStaff } from "../../support/mirror";
import { pageText } from "../../support/page-text";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.33" }),
}));

let restore: () => Promise<void>;
let userId: string;
beforeAll(async () => {
  restore = await isolateDatabase();
  userId = (await createStaff("finance")).id;
  session.current = { userId, sessionVersion: 0 };
  const db = getDb();
  const run = await db.reconciliationRun.create({ data: { kind: "full", status: "completed" } });
  await db.driftItem.createMany({
    data: [
      {
        // a final status the platform disputes: not repaired
        runId: run.id,
        operationId: randomUUID(),
        kind: "statusMismatch",
        fields: ["status", "dateUpdated"],
        mirrorValue: { status: "failed", dateUpdated: "2026-05-01T10:00:00.000Z" },
        platformValue: { status: "success", dateUpdated: "2026-05-01T10:05:00.000Z" },
        sourceRef: "list-1",
      },
      {
        runId: run.id,
        operationId: randomUUID(),
        kind: "amountMismatch",
        fields: ["amountInCurrencyBalance"],
        mirrorValue: { status: "success", amountInCurrencyBalance: "10" },
        platformValue: { status: "success", amountInCurrencyBalance: "12" },
        sourceRef: "list-2",
        repairedAt: new Date("2026-05-02T00:00:00Z"),
      },
      {
        runId: run.id,
        operationId: randomUUID(),
        kind: "missingOnPlatform",
        mirrorValue: { status: "in_progress", amount: "1500.5000", dateAdded: "2026-04-01T00:00:00Z" },
      },
    ],
  });
});
afterAll(async () => restore());

async function page(locale: Locale): Promise<string> {
  await getDb().user.update({ where: { id: userId }, data: { locale, timeZone: "UTC" } });
  const { default: Page } = await import("@/app/(console)/reconciliation/page");
  return pageText(await Page({ searchParams: Promise.resolve({ state: "open" }) })).join(" | ");
}

describe("drift items in words", () => {
  it("in English: kinds and fields in words, what each kind means, and what the mirror keeps", async () => {
    const en = await page("en");
    for (const code of ["statusMismatch", "amountMismatch", "missingOnPlatform", "amountInCurrencyBalance"])
      expect(en).not.toContain(code);
    expect(en).toContain("status differs");
    expect(en).toContain("The mirror's status differs from the platform's.");
    expect(en).toContain("amount differs");
    expect(en).toContain("Amount (balance currency)");
    expect(en).toContain("missing on the platform");
    expect(en).toContain("Status, Last status change");
    expect(en).toMatch(
      /Not repaired: the mirror keeps its values \(Status: failed; Last status change: [^)]*2026[^)]*\)\. Check with the platform and act/,
    );
    expect(en).toContain(
      "Not repaired: the mirror keeps the operation (Status: in_progress; Amount (payment currency): 1,500.5000).",
    );
    // each side's values by name: the platform's status, the repaired amount
    expect(en).toContain("Status: success");
    expect(en).toContain("Amount (balance currency): 12");
    expect(en).toContain(
      "Resolving records a decision and its note; it changes neither the mirror nor the ledger.",
    );
  });

  it("in Russian", async () => {
    const ru = await page("ru");
    expect(ru).toContain("расходится статус");
    expect(ru).toContain("Статус в зеркале отличается от статуса на платформе.");
    expect(ru).toContain("Сумма (в валюте баланса)");
    expect(ru).toContain(
      "Не исправлено: в зеркале остаются прежние значения (Статус: неуспешно; Последняя смена статуса:",
    );
    expect(ru).toContain(
      "Не исправлено: операция остаётся в зеркале (Статус: в обработке; Сумма (в валюте платежа): 1\u00a0500,5000).",
    );
    expect(ru).toContain(
      "Закрытие фиксирует решение и комментарий; ни зеркало, ни учёт при этом не меняются.",
    );
  });

  it.each(["en", "ru"] as const)(
    "every kind has words and an explanation, every mirrored field a name (%s)",
    (locale) => {
      const drift = (
        messagesFor(locale) as { reconciliation: { drift: Record<string, Record<string, string>> } }
      ).reconciliation.drift;
      for (const kind of Object.values(DriftKind)) {
        expect(drift.kinds?.[kind], kind).toMatch(/\s/); // words, not the code
        expect(drift.explain?.[kind], kind).toMatch(/\p{L}/u);
      }
      for (const field of MIRRORED_FIELDS) expect(drift.fields?.[field], field).toMatch(/\p{L}/u);
    },
  );
});
