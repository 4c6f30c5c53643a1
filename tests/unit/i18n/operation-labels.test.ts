// Every operation status, type, payment method, snapshot source, webhook outcome and column has a name in
// both languages: the lists come from the code (enums, method lists, column keys), so a value added
// there without its catalog entries fails here.
import { createElement, type ComponentProps, type FunctionComponent } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createTranslator, NextIntlClientProvider, type Messages } from "next-intl";
import { describe, expect, it } from "vitest";
import { AttentionList, type AttentionItem } from "@/components/home/attention-list";
import {
  anyStatusLabel,
  LABELLED_METHODS,
  paymentMethodLabel,
  statusLabel,
  typeLabel,
  typeTitle,
} from "@/components/operations/labels";
import { StatusBadge } from "@/components/operations/status-badge";
import { OutcomeBadge } from "@/components/webhooks/outcome-badge";
import { OperationStatus, OperationType, SnapshotSource, WebhookOutcome } from "@/lib/generated/prisma/enums";
import { LOCALES, type Locale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { operationColumns } from "@/lib/operations/list/columns";
import { exportHeader } from "@/lib/operations/export/operations-csv";
import {
  AZN_METHODS,
  KNOWN_MONO_BANK_METHODS,
  KZT_METHODS,
  RUB_METHODS,
} from "@/lib/platform/payment-methods";
import { OPERATION_STATUSES, OPERATION_TYPES } from "@/lib/platform/schemas";

const translator = (locale: Locale) =>
  createTranslator({ locale, messages: messagesFor(locale) as Messages });
const statuses = (locale: Locale) =>
  createTranslator({ locale, messages: messagesFor(locale) as Messages, namespace: "statuses" });

const CYRILLIC = /[А-Яа-яЁё]/;
const allStatuses = [...new Set([...Object.values(OperationStatus), ...OPERATION_STATUSES])];
const allTypes = [...new Set([...Object.values(OperationType), ...OPERATION_TYPES])];
const allMethods = [...RUB_METHODS, ...KZT_METHODS, ...AZN_METHODS, ...KNOWN_MONO_BANK_METHODS];

describe.each(LOCALES)("labels in %s", (locale) => {
  const t = translator(locale);
  const names = statuses(locale);

  it("name every operation status and type", () => {
    for (const status of allStatuses) {
      expect(t.has(`statuses.operationStatus.${status}`), status).toBe(true);
      expect(statusLabel(names, status).trim()).not.toBe("");
    }
    for (const type of allTypes) {
      expect(t.has(`statuses.operationType.${type}`), type).toBe(true);
      expect(t.has(`statuses.operationTypeTitle.${type}`), type).toBe(true);
    }
  });

  it("name every payment method of the spec and every known mono-bank pair", () => {
    expect(LABELLED_METHODS).toEqual(allMethods);
    for (const method of allMethods) {
      expect(t.has(`statuses.paymentMethod.${method}`), method).toBe(true);
      expect(paymentMethodLabel(names, method).trim()).not.toBe("");
    }
  });

  it("name every snapshot source, webhook outcome, list column and export column", () => {
    for (const source of Object.values(SnapshotSource)) {
      expect(t.has(`operations.timeline.source.${source}`), source).toBe(true);
    }
    for (const outcome of Object.values(WebhookOutcome)) {
      expect(t.has(`webhooks.outcome.${outcome}`), outcome).toBe(true);
    }
    for (const { key } of operationColumns) expect(t.has(`operations.column.${key}`), key).toBe(true);
    for (const key of exportHeader) expect(t.has(`operations.export.column.${key}`), key).toBe(true);
  });
});

describe("Russian names", () => {
  const ru = statuses("ru");

  it("are Russian words for every status, type and method", () => {
    for (const status of allStatuses) expect(statusLabel(ru, status)).toMatch(CYRILLIC);
    for (const type of allTypes) {
      expect(typeLabel(ru, type)).toMatch(CYRILLIC);
      expect(typeTitle(ru, type)).toMatch(CYRILLIC);
    }
    for (const method of allMethods) expect(paymentMethodLabel(ru, method), method).toMatch(CYRILLIC);
  });

  it("follow the glossary: СБП, На карту, платёж, выплата, a mono-bank pair by its bank", () => {
    expect(paymentMethodLabel(ru, "sbp")).toBe("СБП");
    expect(paymentMethodLabel(ru, "SBP")).toBe("СБП");
    expect(paymentMethodLabel(ru, "toCard")).toBe("На карту");
    expect(paymentMethodLabel(ru, "sber_sber")).toMatch(/^Сбербанк/);
    expect(typeLabel(ru, "payIn")).toBe("платёж");
    expect(typeLabel(ru, "payOut")).toBe("выплата");
    expect(statusLabel(ru, "in_progress")).toBe("в обработке");
  });

  it("keep what they cannot name: an unknown mono-bank pair by its code, anything else as given", () => {
    expect(paymentMethodLabel(ru, "newbank_newbank")).toBe("newbank_newbank — внутрибанковский");
    expect(paymentMethodLabel(ru, "cryptoMagic")).toBe("cryptoMagic");
    expect(paymentMethodLabel(ru, "__proto__")).toBe("__proto__");
    expect(anyStatusLabel(ru, "success")).toBe("успешно");
    expect(anyStatusLabel(ru, "toString")).toBe("toString");
  });
});

describe("English names", () => {
  const en = statuses("en");

  it("stay the platform's codes the screens showed before (tests and habits rely on them)", () => {
    for (const status of allStatuses) expect(statusLabel(en, status)).toBe(status);
    for (const method of allMethods) expect(paymentMethodLabel(en, method)).toBe(method);
    expect(typeLabel(en, "payIn")).toBe("pay-in");
    expect(typeTitle(en, "payOut")).toBe("Pay-out");
  });
});

function render<P extends object>(locale: Locale, component: FunctionComponent<P>, props: P): string {
  const config = { locale, messages: messagesFor(locale), timeZone: "UTC" };
  return renderToStaticMarkup(
    createElement(
      NextIntlClientProvider,
      config as ComponentProps<typeof NextIntlClientProvider>,
      createElement(component, props),
    ),
  );
}

describe("badges and the home page's items, rendered", () => {
  const items: AttentionItem[] = [
    { key: "stuck", label: "stuck", value: { count: 3 }, alert: true, href: "/operations?stuck=1" },
    {
      key: "reconciliation",
      label: "reconciliation",
      value: { agoMs: 45 * 60_000 },
      alert: false,
      href: "/reconciliation",
    },
    {
      key: "webhook-oldest",
      label: "webhookOldest",
      value: { none: "noneWaiting" },
      alert: false,
      href: "/webhooks",
    },
  ];

  it("in Russian", () => {
    expect(render("ru", StatusBadge, { status: "pending_retry" })).toContain("ожидает повторной отправки");
    expect(render("ru", OutcomeBadge, { outcome: "duplicate" })).toContain("дубликат");
    const html = render("ru", AttentionList, { items });
    expect(html).toContain("Зависшие операции");
    expect(html).toContain("45 мин 00 с назад");
    expect(html).toContain("очередь пуста");
  });

  it("in English, as before", () => {
    expect(render("en", StatusBadge, { status: "pending_retry" })).toContain(">pending_retry<");
    const html = render("en", AttentionList, { items });
    expect(html).toContain("Stuck operations");
    expect(html).toContain("45 min 00 s ago");
    expect(html).toContain("none waiting");
  });
});
