// Each open operations export holds a connection of the app's one pool (its COPY) until the client has
// read it to the end, and so does a statement export (its snapshot). One user opening the pool's size of
// them stalled every other query of the app: now a user runs EXPORTS_PER_USER at a time (per process).
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { EXPORTS_PER_USER } from "@/lib/operations/export/slots";
import { createStaff, insertOperations } from "../../support/mirror";

const session = vi.hoisted(() => ({ current: null as null | { userId: string; sessionVersion: number } }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-paydesk-client-ip": "198.51.100.9" }),
}));

// This file owns the year 1992 of the mirror.
const QUERY = "from=1992-01-01&to=1992-01-01";
const users = {} as Record<"first" | "second" | "russian", string>;
const signInAs = (who: keyof typeof users) => {
  session.current = { userId: users[who], sessionVersion: 0 };
};

beforeAll(async () => {
  await insertOperations(
    Array.from({ length: 50 }, (_, i) => ({ dateAdded: new Date(Date.UTC(1992, 0, 1) + i * 1000) })),
  );
  for (const who of ["first", "second", "russian"] as const) users[who] = (await createStaff("finance")).id;
  await getDb().user.update({ where: { id: users.russian }, data: { locale: "ru" } });
});

async function operationsExport(): Promise<Response> {
  const { GET } = await import("@/app/api/exports/operations/route");
  return GET(new Request(`http://test/api/exports/operations?${QUERY}`));
}

/** An export whose client has read its first part and reads on no further (a slow download). */
async function openExport(): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const response = await operationsExport();
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  await reader.read();
  return reader;
}

type Refusal = { ok: boolean; code: string; message: string };

describe("open exports per user", () => {
  it("refuses a user's export past the limit with 429; other users are not affected", async () => {
    signInAs("first");
    const open = [];
    for (let i = 0; i < EXPORTS_PER_USER; i++) open.push(await openExport());
    const refused = await operationsExport();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await refused.json()) as Refusal).toMatchObject({
      ok: false,
      code: "too_many_exports",
      message: `You already have ${EXPORTS_PER_USER} exports in progress; wait for one to finish and try again.`,
    });
    // A statement export holds a connection too: the same slots.
    const { GET: statementExport } = await import("@/app/api/statements/export/route");
    const statement = await statementExport(
      new Request("http://test/api/statements/export?period=yesterday&format=csv"),
    );
    expect(statement.status).toBe(429);

    signInAs("second");
    const other = await operationsExport();
    expect(other.status).toBe(200);
    expect((await other.text()).split("\r\n").filter(Boolean)).toHaveLength(51);

    // A cancelled download frees its slot...
    signInAs("first");
    await open.pop()!.cancel();
    const again = await operationsExport();
    expect(again.status).toBe(200);
    // ...and so does one read to the end.
    expect((await again.text()).split("\r\n").filter(Boolean)).toHaveLength(51);
    let rest = "";
    for (let part = await open[0]!.read(); !part.done; part = await open[0]!.read()) {
      rest += new TextDecoder().decode(part.value);
    }
    expect(rest).toContain("\r\n");
    for (let i = 0; i < EXPORTS_PER_USER; i++) open.push(await openExport());
    expect((await operationsExport()).status).toBe(429);
    for (const reader of open) await reader.cancel();
  });

  it("says it in the user's language", async () => {
    signInAs("russian");
    const open = [];
    for (let i = 0; i < EXPORTS_PER_USER; i++) open.push(await openExport());
    const refused = await operationsExport();
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as Refusal).message).toBe(
      `У вас уже идут ${EXPORTS_PER_USER} выгрузки; дождитесь, пока одна из них закончится, и повторите.`,
    );
    for (const reader of open) await reader.cancel();
  });
});
