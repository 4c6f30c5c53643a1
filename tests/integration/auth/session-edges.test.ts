// Server-side sessions at their edges: the stored end is the sooner of lifetime and idle timeout, the
// idle timeout and the once-a-minute touch at their exact instants, a touch or an end that reaches
// only the session it names, and sign-out or "end all" never widening to other sessions.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliActor } from "@/lib/audit/log";
import { endAllSessions, endSession, resumeSession, startSession } from "@/lib/auth/session-store";
import { getDb } from "@/lib/db";
import { forgetCachedSettings } from "@/lib/settings/settings";
import { createUser } from "@/lib/users/service";
import { isolateDatabase } from "../../support/database";

const MINUTE = 60_000;
// The defaults in force on a fresh database: 12 hours' lifetime, 30 minutes' idle timeout.
const IDLE_MINUTES = 30;

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateDatabase();
  forgetCachedSettings();
});
afterAll(async () => {
  forgetCachedSettings();
  await restore();
});

async function newUser() {
  const email = `session-edge-${randomUUID()}@example.test`;
  return createUser(cliActor, { email, role: "support", password: "correct horse battery" });
}
const row = (sid: string) => getDb().session.findUniqueOrThrow({ where: { sessionToken: sid } });
const at = (start: Date, minutes: number) => new Date(start.getTime() + minutes * MINUTE);

describe("stored end and touch", () => {
  it("a new session is stored to end at the idle timeout, the sooner of the two limits", async () => {
    const user = await newUser();
    const t0 = new Date("2031-04-01T08:00:00Z");
    const sid = await startSession(user.id, t0);
    expect(await row(sid)).toMatchObject({ createdAt: t0, lastSeenAt: t0, expires: at(t0, IDLE_MINUTES) });
  });

  it("ends a session idle for exactly the idle timeout", async () => {
    const user = await newUser();
    const t0 = new Date("2031-04-02T08:00:00Z");
    const sid = await startSession(user.id, t0);
    expect(await resumeSession(sid, new Date(at(t0, IDLE_MINUTES).getTime() - 1))).toMatchObject({
      ok: true,
    });
    const again = await startSession(user.id, t0);
    expect(await resumeSession(again, at(t0, IDLE_MINUTES))).toEqual({ ok: false, reason: "idle" });
  });

  it("touches a session used exactly one minute later, and only that session", async () => {
    const user = await newUser();
    const t0 = new Date("2031-04-03T08:00:00Z");
    const used = await startSession(user.id, t0);
    const other = await startSession(user.id, t0);
    expect(await resumeSession(used, at(t0, 1))).toEqual({ ok: true, userId: user.id });
    expect(await row(used)).toMatchObject({ lastSeenAt: at(t0, 1), expires: at(t0, 1 + IDLE_MINUTES) });
    expect(await row(other)).toMatchObject({ lastSeenAt: t0, expires: at(t0, IDLE_MINUTES) });
  });
});

describe("ending sessions", () => {
  it("sign-out without a usable session id ends no session at all", async () => {
    const user = await newUser();
    const sid = await startSession(user.id);
    for (const missing of [undefined, null, 42, "", {}]) await endSession(missing);
    expect(await resumeSession(sid)).toEqual({ ok: true, userId: user.id });
  });

  it("sign-out ends the named session only", async () => {
    const user = await newUser();
    const ended = await startSession(user.id);
    const kept = await startSession(user.id);
    await endSession(ended);
    expect(await resumeSession(ended)).toEqual({ ok: false, reason: "missing" });
    expect(await resumeSession(kept)).toEqual({ ok: true, userId: user.id });
  });

  it("ending all of one user's sessions leaves other users signed in", async () => {
    const target = await newUser();
    const bystander = await newUser();
    const targetSid = await startSession(target.id);
    const bystanderSid = await startSession(bystander.id);
    await getDb().$transaction((tx) => endAllSessions(tx, target.id));
    expect(await resumeSession(targetSid)).toEqual({ ok: false, reason: "missing" });
    expect(await resumeSession(bystanderSid)).toEqual({ ok: true, userId: bystander.id });
  });
});
