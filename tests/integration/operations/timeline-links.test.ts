// The status timeline's references (a traceID, a webhook delivery) link to the trace page for those who
// may open it, and stay plain text for the others (an approver reads operations, not traces).
import { NextIntlClientProvider } from "next-intl";
import { createElement, type ComponentProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Timeline } from "@/components/operations/timeline";
import { messagesFor } from "@/lib/i18n/messages";
import type { TimelineEntry } from "@/lib/operations/detail/timeline";
import { isolateDatabase } from "../../support/database";
import { createStaff, insertOperations } from "../../support/mirror";
import { propsOf } from "../../support/page-text";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.79" }),
}));

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
});
afterAll(() => restore());

const entries: TimelineEntry[] = [
  {
    status: "created",
    fromStatus: null,
    at: "2026-11-20T10:00:00.000Z",
    recordedAt: "2026-11-20T10:00:00.000Z",
    source: "creation",
    sourceRef: "trace-1 &x",
    durationMs: 60_000,
    ongoing: false,
  },
];

const html = (traceLinks: boolean) =>
  renderToStaticMarkup(
    createElement(
      NextIntlClientProvider,
      { locale: "en", timeZone: "UTC", messages: messagesFor("en") } as ComponentProps<
        typeof NextIntlClientProvider
      >,
      createElement(Timeline, { entries, tz: "UTC", traceLinks }),
    ),
  );

describe("the timeline's references", () => {
  it("link to the trace page, encoded, only when asked", () => {
    expect(html(true)).toContain('href="/trace?q=trace-1%20%26x"');
    expect(html(false)).not.toContain("/trace?q=");
    expect(html(false)).toContain("trace-1 &amp;x");
  });

  it.each([
    ["support", true],
    ["finance", true],
    ["approver", false],
  ] as const)("the operation page asks for links for %s: %s", async (role, links) => {
    const [id] = await insertOperations([{ dateAdded: new Date() }]);
    session.current = { userId: (await createStaff(role)).id, sessionVersion: 0 };
    const { default: Page } = await import("@/app/(console)/operations/[id]/page");
    const page = await Page({ params: Promise.resolve({ id: id! }), searchParams: Promise.resolve({}) });
    expect(propsOf<ComponentProps<typeof Timeline>>(page, Timeline)[0]?.traceLinks).toBe(links);
  });
});
