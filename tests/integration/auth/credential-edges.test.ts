// The credentials check at its edges: the fifth failure (not the fourth) locks, the lock ends exactly at
// `lockedUntil`, a success clears the count, the delay grows per failure within the limiter's window
// and per normalised email, the default wait really waits, and an error that is not an outage is thrown.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cliActor } from "@/lib/audit/log";
import {
  checkCredentials,
  LOCK_AFTER_FAILURES,
  LOCK_MINUTES,
  SLOWDOWN_MS_PER_FAILURE,
} from "@/lib/auth/credentials";
import { getDb } from "@/lib/db";
import { createUser } from "@/lib/users/service";

const password = "correct horse battery";
const MINUTE = 60_000;
const newEmail = () => `edge-${randomUUID()}@example.test`;
const noWait = async () => {};
const stored = (email: string) => getDb().user.findUniqueOrThrow({ where: { email } });

describe("locking", () => {
  it(`${LOCK_AFTER_FAILURES - 1} failures leave the account open; a success then clears the count`, async () => {
    const email = newEmail();
    await createUser(cliActor, { email, role: "finance", password });
    const t0 = new Date("2031-03-01T10:00:00Z");
    for (let i = 0; i < LOCK_AFTER_FAILURES - 1; i++) await checkCredentials(email, "wrong", t0, noWait);
    expect((await stored(email)).failedSignIns).toBe(LOCK_AFTER_FAILURES - 1);

    const signedIn = new Date(t0.getTime() + MINUTE);
    expect(await checkCredentials(email, password, signedIn, noWait)).toMatchObject({ ok: true });
    expect(await stored(email)).toMatchObject({
      failedSignIns: 0,
      lockedUntil: null,
      lastSignInAt: signedIn,
    });

    // the count started again: four more failures still do not lock
    for (let i = 0; i < LOCK_AFTER_FAILURES - 1; i++)
      await checkCredentials(email, "wrong", signedIn, noWait);
    expect(await checkCredentials(email, password, signedIn, noWait)).toMatchObject({ ok: true });
  });

  it("the fifth failure locks until exactly lockedUntil; at that instant the right password works", async () => {
    const email = newEmail();
    await createUser(cliActor, { email, role: "support", password });
    const t0 = new Date("2031-03-02T10:00:00Z");
    for (let i = 0; i < LOCK_AFTER_FAILURES; i++) await checkCredentials(email, "wrong", t0, noWait);
    const until = new Date(t0.getTime() + LOCK_MINUTES * MINUTE);
    expect(await stored(email)).toMatchObject({ failedSignIns: 0, lockedUntil: until });

    const justBefore = new Date(until.getTime() - 1);
    expect(await checkCredentials(email, password, justBefore, noWait)).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await checkCredentials(email, password, until, noWait)).toMatchObject({ ok: true });
  });

  it("the email is trimmed and lower-cased before it is looked up", async () => {
    const email = newEmail();
    await createUser(cliActor, { email, role: "finance", password });
    expect(await checkCredentials(`  ${email.toUpperCase()}\t`, password, new Date(), noWait)).toMatchObject({
      ok: true,
      user: { email },
    });
  });
});

describe("the growing delay", () => {
  // 2031-03-03T10:00Z starts one of the limiter's 15-minute windows.
  const t0 = new Date("2031-03-03T10:00:00Z");
  const at = (minutes: number) => new Date(t0.getTime() + minutes * MINUTE);

  it("grows by one step per failure within the window, whatever the email's case or spaces", async () => {
    const email = newEmail();
    const waits: number[] = [];
    const wait = async (ms: number) => {
      waits.push(ms);
    };
    await checkCredentials(email, "wrong", at(0), wait);
    await checkCredentials(email.toUpperCase(), "wrong", at(1), wait);
    await checkCredentials(` ${email} `, "wrong", at(14), wait);
    expect(waits).toEqual([1, 2, 3].map((n) => n * SLOWDOWN_MS_PER_FAILURE));
  });

  it("without a wait given, it really waits", async () => {
    const email = newEmail();
    const now = at(5);
    await checkCredentials(email, "wrong", now, noWait);
    const started = Date.now();
    expect(await checkCredentials(email, "wrong", now)).toEqual({ ok: false, reason: "invalid" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * SLOWDOWN_MS_PER_FAILURE - 20);
  });
});

describe("errors", () => {
  it("an error that is not a database outage is thrown, not reported as one", async () => {
    const boom = async () => {
      throw new Error("not an outage");
    };
    await expect(checkCredentials(newEmail(), "wrong", new Date(), boom)).rejects.toThrow("not an outage");
  });
});
