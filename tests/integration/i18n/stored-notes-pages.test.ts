// The webhook inbox, a delivery's page and the reconciliation page word what the receiver, the worker and
// reconciliation stored (a code and its arguments) in the reader's language and zone; a row from before
// the codes whose sentence matched none still shows its text, as data; the worded notes are no longer
// marked translate="no".
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Cell } from "@/components/ui/data-table";
import { getDb } from "@/lib/db";
import { isolateDatabase } from "../../support/database";
import { createStaff } from "../../support/mirror";
import { pageText, propsOf } from "../../support/page-text";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.7" }),
}));

let restore: () => Promise<void>;
const ids = { coded: "", legacy: "", dated: "" };

beforeAll(async () => {
  restore = await isolateDatabase();
  const db = getDb();
  const delivery = (data: object) =>
    db.webhookDelivery.create({
      data: { headers: {}, body: "{}", bodyBytes: 2, processedAt: new Date(), ...data } as never,
    });
  ids.coded = (
    await delivery({
      outcome: "failed",
      outcomeCode: "readBackFailed",
      outcomeArgs: { attempts: 8, error: "connect ECONNREFUSED 127.0.0.1:9" },
    })
  ).id.toString();
  ids.dated = (
    await delivery({
      outcome: "disagreement",
      outcomeCode: "readBackDateAhead",
      outcomeArgs: { at: "2099-12-31T21:30:00.000Z" },
    })
  ).id.toString();
  // a read-back note has no instant: the page's date formatter is not handed an empty one
  await delivery({
    outcome: "applied",
    outcomeCode: "readBack",
    outcomeArgs: { why: "finalStatus", status: "success", then: null, traceID: null },
  });
  ids.legacy = (
    await delivery({ outcome: "rejected", outcomeDetail: "a sentence no code matches" })
  ).id.toString();
  await db.reconciliationRun.createMany({
    data: [
      {
        kind: "incremental",
        status: "completed",
        stopCode: "passedLowerBound",
        stopArgs: { at: "2026-01-01T21:30:00.000Z" },
        startedAt: new Date("2026-01-02T00:00:00Z"),
      },
      {
        kind: "incremental",
        status: "completed",
        stopCode: "passedWatermark",
        stopArgs: { at: "2026-01-04T21:30:00.000Z", readById: 2 },
        startedAt: new Date("2026-01-05T00:00:00Z"),
      },
      {
        kind: "full",
        status: "failed",
        errorCode: "failed",
        error: "connect ECONNREFUSED 127.0.0.1:9",
        startedAt: new Date("2026-01-03T00:00:00Z"),
      },
      {
        kind: "full",
        status: "completed",
        stopReason: "an old reason no code matches",
        startedAt: new Date("2026-01-04T00:00:00Z"),
      },
    ],
  });
});

afterAll(async () => {
  await restore();
});

async function signIn(locale: "ru" | "en", role: "support" | "finance") {
  const user = await createStaff(role);
  await getDb().user.update({ where: { id: user.id }, data: { locale, timeZone: "Europe/Moscow" } });
  session.current = { userId: user.id, sessionVersion: 0 };
}

async function inbox() {
  const { default: Page } = await import("@/app/(console)/webhooks/page");
  return Page({ searchParams: Promise.resolve({}) });
}

async function deliveryPage(id: string) {
  const { default: Page } = await import("@/app/(console)/webhooks/[id]/page");
  return Page({ params: Promise.resolve({ id }) });
}

async function reconciliation() {
  const { default: Page } = await import("@/app/(console)/reconciliation/page");
  return Page({ searchParams: Promise.resolve({}) });
}

const textOf = (tree: unknown) => pageText(tree).join("\n");

describe("webhook notes", () => {
  it("the inbox words stored codes in Russian, the exception's message and an old sentence as data", async () => {
    await signIn("ru", "support");
    const tree = await inbox();
    const text = textOf(tree);
    expect(text).toContain("Контрольный запрос не удался 8 раз:");
    expect(text).toContain("connect ECONNREFUSED 127.0.0.1:9");
    // in the reader's zone (Moscow, UTC+3)
    expect(text).toContain(
      "dateUpdated вебхука 01.01.2100 00:30:00 Europe/Moscow позже его получения; применён результат контрольного запроса.",
    );
    expect(text).toContain("Подтверждён контрольным запросом: окончательный статус «успешно».");
    expect(text).toContain("a sentence no code matches");
    expect(text).not.toContain("read-back failed");
    // the note cells are words of the interface now: nothing marks them translate="no"
    const cells = propsOf<{ kind?: string; translate?: string }>(tree, Cell).filter((c) => c.kind === "note");
    expect(cells.length).toBe(4);
    expect(cells.every((c) => c.translate === undefined)).toBe(true);
  });

  it("the inbox words the same codes in English", async () => {
    await signIn("en", "support");
    const text = textOf(await inbox());
    expect(text).toContain("The read-back failed 8 times:");
    expect(text).toContain("connect ECONNREFUSED 127.0.0.1:9");
    expect(text).toContain("a sentence no code matches");
  });

  it("a delivery's page words its note in the reader's language; an old row keeps its text", async () => {
    await signIn("ru", "support");
    expect(textOf(await deliveryPage(ids.coded))).toContain("Контрольный запрос не удался 8 раз:");
    expect(textOf(await deliveryPage(ids.legacy))).toContain("a sentence no code matches");
    await signIn("en", "support");
    expect(textOf(await deliveryPage(ids.coded))).toContain("The read-back failed 8 times:");
  });
});

describe("reconciliation run notes", () => {
  it("the runs table words why a run stopped or failed in Russian and English", async () => {
    await signIn("ru", "finance");
    const ru = await reconciliation();
    const text = textOf(ru);
    expect(text).toContain(
      "Остановилась после 02.01.2026 00:30:00 Europe/Moscow: последняя сверенная точка и самая ранняя незавершённая операция, с перекрытием.",
    );
    expect(text).toContain(
      "Остановилась после 05.01.2026 00:30:00 Europe/Moscow: последняя сверенная точка, с перекрытием. 2 более ранние незавершённые операции прочитаны по id.",
    );
    expect(text).toContain("Ошибка:");
    expect(text).toContain("connect ECONNREFUSED 127.0.0.1:9");
    expect(text).toContain("an old reason no code matches");
    const cells = propsOf<{ testId?: string; translate?: string }>(ru, Cell).filter(
      (c) => c.testId === "run-note",
    );
    expect(cells).toHaveLength(4);
    expect(cells.every((c) => c.translate === undefined)).toBe(true);

    await signIn("en", "finance");
    const en = textOf(await reconciliation());
    expect(en).toContain(
      "Stopped past 2026-01-02 00:30:00 Europe/Moscow: the last reconciled point and the oldest open operation, with overlap.",
    );
    expect(en).toContain(
      "Stopped past 2026-01-05 00:30:00 Europe/Moscow: the last reconciled point, with overlap. 2 older open operations read by id.",
    );
    expect(en).toContain("Failed:");
    expect(en).toContain("an old reason no code matches");
  });
});
