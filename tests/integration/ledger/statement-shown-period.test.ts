// "Issue" and the download links act on the period the statements page showed, not on its preset resolved
// again at the click: a page drawn at 23:59:59 on 31 March and clicked two seconds later would freeze
// April's days, and "last 30 days" would end at another instant every time.
import { isValidElement, type ComponentProps, type ReactElement } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { IssueButton } from "@/components/statements/issue-button";
import { StatementSummaryView } from "@/components/statements/summary";
import { getDb } from "@/lib/db";
import { isolateDatabase } from "../../support/database";
import { createStaff, insertOperations } from "../../support/mirror";
import { propsOf } from "../../support/page-text";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({ headers: async () => new Headers({ host: "paydesk.test" }) }));

const DRAWN = new Date("2031-03-31T23:59:59Z");
const CLICKED = new Date("2031-04-01T00:00:01Z");

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
  session.current = { userId: (await createStaff("finance")).id, sessionVersion: 0 };
  await insertOperations([
    { dateAdded: new Date("2031-02-10T10:00:00Z"), status: "success", amountInCurrencyBalance: "7" },
    { dateAdded: new Date("2031-03-31T23:59:58Z"), status: "success", amountInCurrencyBalance: "5" },
    // a moment after the page was drawn: in no period it showed
    { dateAdded: new Date("2031-04-01T00:00:00.500Z"), status: "success", amountInCurrencyBalance: "3" },
  ]);
}, 60_000);
afterAll(async () => restore());
afterEach(() => vi.useRealTimers());

/** The page's body, drawn: StatementBody is an async server component the page's tree only names. */
async function drawnBody(query: Record<string, string>): Promise<unknown> {
  const { default: Page } = await import("@/app/(console)/statements/page");
  const tree = await Page({ searchParams: Promise.resolve(query) });
  const [body] = elements(tree, (e) => typeof e.type === "function" && e.type.name === "StatementBody");
  if (!body) throw new Error("no statement body");
  return (body.type as (props: unknown) => Promise<unknown>)(body.props);
}

function elements(node: unknown, match: (e: ReactElement) => boolean, depth = 0): ReactElement[] {
  if (depth > 60 || node === null || typeof node !== "object") return [];
  if (Array.isArray(node)) return node.flatMap((n) => elements(n, match, depth + 1));
  if (isValidElement(node))
    return [...(match(node) ? [node] : []), ...elements(node.props, match, depth + 1)];
  if (Object.getPrototypeOf(node) !== Object.prototype) return [];
  return Object.values(node).flatMap((v) => elements(v, match, depth + 1));
}

describe.each(["this-month", "last-month", "last-30-days"])("%s drawn at 23:59:59 on 31 March", (period) => {
  it("is issued and downloaded two seconds later as the page showed it", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: DRAWN });
    const body = await drawnBody({ period, tz: "UTC" });
    const [view] = propsOf<ComponentProps<typeof StatementSummaryView>>(body, StatementSummaryView);
    const shown = { from: view!.summary.period.from, to: view!.summary.period.to };
    // What the button sends: the one value the page hands it.
    const [button] = propsOf<Record<string, unknown>>(body, IssueButton);
    const sent = Object.values(button!)[0];
    const [csv] = elements(
      body,
      (e) => (e.props as Record<string, unknown>)["data-testid"] === "download-csv",
    );
    const href = (csv!.props as { href: string }).href;

    vi.setSystemTime(CLICKED);
    const { GET } = await import("@/app/api/statements/export/route");
    const response = await GET(new Request(`http://paydesk.test${href}`));
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const exported = await getDb().auditLog.findFirstOrThrow({
      where: { action: "statements.export" },
      orderBy: { id: "desc" },
    });
    expect(exported.after).toMatchObject({ ...shown, tz: "UTC", format: "csv" });

    const { issueStatementAction } = await import("@/lib/actions/statements");
    const issued = await issueStatementAction(sent);
    if (!issued.ok) throw new Error(`not issued: ${issued.message}`);
    const row = await getDb().issuedStatement.findUniqueOrThrow({ where: { id: issued.id } });
    expect({ from: row.periodFrom.toISOString(), to: row.periodTo.toISOString() }).toEqual(shown);
  });
});

describe("the issue action", () => {
  it("refuses a preset: it would be resolved at the click, not as the page showed it", async () => {
    const { issueStatementAction } = await import("@/lib/actions/statements");
    const result = await issueStatementAction({ period: "last-month", tz: "UTC" });
    expect(result).toMatchObject({
      ok: false,
      code: "invalid",
      fieldErrors: { period: ["Only the period shown on the page can be issued: reload the page."] },
    });
  });
});
