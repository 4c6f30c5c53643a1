// Finding 12 (sign-in part): with the database down, sign-in said "Wrong email, password or code." and
// Auth.js's own route sent the browser to `error=Configuration`. Now both say the database is
// unavailable, with a code of its own. The Prisma client is pointed at a closed port.
import { createServer } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cliActor } from "@/lib/audit/log";
import { createUser } from "@/lib/users/service";
import { browser, followAction, postCredentials } from "../../support/next-request";

vi.mock("next/headers", async () => (await import("../../support/next-request")).nextHeadersModule());
vi.mock("next/navigation", async () => (await import("../../support/next-request")).nextNavigationModule());

const { checkCredentials } = await import("@/lib/auth/credentials");
const { signInAction } = await import("@/lib/auth/sign-in-action");
const { handlers } = await import("@/lib/auth/config");

const UNAVAILABLE = "The database is unavailable; try again in a moment.";
const email = `outage-${Date.now()}@example.test`;
const password = "correct horse battery";

/** A port nothing listens on: taken from the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const holder = globalThis as unknown as { paydeskDb?: { $disconnect(): Promise<void> } };
let sharedUrl: string | undefined;

async function pointDatabaseAt(url: string | undefined) {
  await holder.paydeskDb?.$disconnect();
  holder.paydeskDb = undefined;
  process.env.DATABASE_URL = url;
}

beforeEach(async () => {
  sharedUrl = process.env.DATABASE_URL;
  // a real user exists: the outage, not the email, is what the answer must be about
  await createUser(cliActor, { email, role: "finance", password }).catch(() => undefined);
  await pointDatabaseAt(`postgresql://paydesk:secret@127.0.0.1:${await closedPort()}/paydesk`);
});
afterEach(async () => {
  await pointDatabaseAt(sharedUrl);
});

describe("sign-in while the database cannot be reached", () => {
  it("the credentials check reports the outage, not a wrong password", async () => {
    expect(await checkCredentials(email, password)).toEqual({ ok: false, reason: "unavailable" });
    expect(await checkCredentials("someone@example.test", "whatever")).toEqual({
      ok: false,
      reason: "unavailable",
    });
  });

  it("the sign-in form says the database is unavailable", async () => {
    browser.clear();
    const form = new FormData();
    form.set("email", email);
    form.set("password", password);
    const outcome = await followAction(() => signInAction(null, form));
    expect(outcome).toEqual({ result: { ok: false, code: "unavailable", message: UNAVAILABLE } });
    expect(browser.jar.has("authjs.session-token")).toBe(false);
  });

  it("Auth.js's own sign-in route sends the browser back with code=unavailable, not error=Configuration", async () => {
    const { location } = await postCredentials(handlers, { email, password });
    expect(location.pathname).toBe("/login");
    expect(Object.fromEntries(location.searchParams)).toEqual({
      error: "CredentialsSignin",
      code: "unavailable",
    });
  });
});
