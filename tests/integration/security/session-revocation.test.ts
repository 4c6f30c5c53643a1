// Finding 8: sign-out did not end the session; a cookie captured before sign-out worked for up to 12 h.
// Sessions now live on the server (lib/auth/session-store.ts): sign-out deletes this browser's one,
// disabling a user or resetting a password deletes all of theirs, and the lifetime and idle timeout
// (admin settings) are checked on every `auth()`.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cliActor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { forgetCachedSettings, saveSetting, settingValueSchemas } from "@/lib/settings/settings";
import { createUser, disableUser, resetPassword } from "@/lib/users/service";
import { isolateDatabase } from "../../support/database";
import { browser, followAction } from "../../support/next-request";

vi.mock("next/headers", async () => (await import("../../support/next-request")).nextHeadersModule());
vi.mock("next/navigation", async () => (await import("../../support/next-request")).nextNavigationModule());

const { signInAction, signOutAction } = await import("@/lib/auth/sign-in-action");
const { auth } = await import("@/lib/auth/config");
const { currentUser } = await import("@/lib/auth/session");
const { endSession, resumeSession, startSession } = await import("@/lib/auth/session-store");

const password = "correct horse battery";
const MINUTE = 60_000;
const at = (start: Date, minutes: number) => new Date(start.getTime() + minutes * MINUTE);

let restore: () => Promise<void>;
// Settings are one table for the whole process: this file works on a database of its own.
beforeAll(async () => {
  restore = await isolateDatabase();
  forgetCachedSettings();
});
afterAll(async () => {
  forgetCachedSettings();
  await restore();
});

async function newUser() {
  const email = `session-${randomUUID()}@example.test`;
  const user = await createUser(cliActor, { email, role: "support", password });
  return { id: user.id, email };
}

/** Signs in through the real form action; the browser's jar then holds the session cookie. */
async function signInAs(email: string) {
  browser.clear();
  const form = new FormData();
  form.set("email", email);
  form.set("password", password);
  const outcome = await followAction(() => signInAction(null, form));
  if (!("redirectedTo" in outcome)) throw new Error(`not signed in: ${JSON.stringify(outcome)}`);
  return browser.capture();
}

describe("sign-out through the real action and cookie", () => {
  it("a session cookie captured before sign-out is refused after it", async () => {
    const user = await newUser();
    const captured = await signInAs(user.email);
    expect(await currentUser()).toMatchObject({ id: user.id });

    const out = await followAction(() => signOutAction());
    expect(out).toEqual({ redirectedTo: "http://paydesk.test/login" });
    expect(await currentUser()).toBeNull();

    browser.restore(captured); // the attacker's copy
    expect(await auth()).toBeNull();
    expect(await currentUser()).toBeNull();
  });

  it("signing out in one browser leaves the user's other sessions signed in", async () => {
    const user = await newUser();
    const laptop = await signInAs(user.email);
    const phone = await signInAs(user.email);
    browser.restore(laptop);
    await followAction(() => signOutAction());
    browser.restore(phone);
    expect(await currentUser()).toMatchObject({ id: user.id });
    browser.restore(laptop);
    expect(await currentUser()).toBeNull();
  });

  it("disabling a user or resetting their password ends their sessions", async () => {
    const disabled = await newUser();
    const disabledCookie = await signInAs(disabled.email);
    const reset = await newUser();
    const resetCookie = await signInAs(reset.email);

    await disableUser(cliActor, disabled.email);
    await resetPassword(cliActor, reset.email, "another long password");

    for (const cookie of [disabledCookie, resetCookie]) {
      browser.restore(cookie);
      expect(await auth()).toBeNull();
      expect(await currentUser()).toBeNull();
    }
    const rows = await getDb().session.count({ where: { userId: { in: [disabled.id, reset.id] } } });
    expect(rows).toBe(0);
  });
});

describe("resumeSession (what every auth() asks)", () => {
  it("refuses a session id after sign-out, and a token without one", async () => {
    const user = await newUser();
    const sid = await startSession(user.id);
    expect(await resumeSession(sid)).toEqual({ ok: true, userId: user.id });
    await endSession(sid);
    expect(await resumeSession(sid)).toEqual({ ok: false, reason: "missing" });
    for (const sid of [undefined, null, "", 42, "made-up"]) {
      expect(await resumeSession(sid)).toEqual({ ok: false, reason: "missing" });
    }
  });

  it("ends a session left idle for 30 minutes (the default); use keeps it going", async () => {
    const user = await newUser();
    const t0 = new Date("2030-01-01T08:00:00Z");
    const sid = await startSession(user.id, t0);
    expect(await resumeSession(sid, at(t0, 29))).toMatchObject({ ok: true });
    expect(await resumeSession(sid, at(t0, 58))).toMatchObject({ ok: true });
    expect(await resumeSession(sid, at(t0, 88.5))).toEqual({ ok: false, reason: "idle" });
    // the ended session is gone: coming back later does not revive it
    expect(await resumeSession(sid, at(t0, 89))).toEqual({ ok: false, reason: "missing" });
  });

  it("ends a session 12 hours after sign-in (the default) however busy it is", async () => {
    const user = await newUser();
    const t0 = new Date("2030-01-02T08:00:00Z");
    const sid = await startSession(user.id, t0);
    for (let minutes = 20; minutes < 12 * 60; minutes += 20) {
      expect(await resumeSession(sid, at(t0, minutes)), `after ${minutes} min`).toMatchObject({ ok: true });
    }
    expect(await resumeSession(sid, at(t0, 12 * 60))).toEqual({ ok: false, reason: "expired" });
  });

  it("writes the last-seen time at most once a minute", async () => {
    const user = await newUser();
    const t0 = new Date("2030-01-03T08:00:00Z");
    const sid = await startSession(user.id, t0);
    await resumeSession(sid, at(t0, 0.5));
    const seen = () => getDb().session.findUniqueOrThrow({ where: { sessionToken: sid } });
    expect((await seen()).lastSeenAt).toEqual(t0);
    await resumeSession(sid, at(t0, 2));
    expect((await seen()).lastSeenAt).toEqual(at(t0, 2));
  });

  it("applies a changed lifetime or idle timeout to sessions already open", async () => {
    const admin = await newUser();
    const actor = { id: admin.id, email: admin.email };
    const user = await newUser();
    const t0 = new Date("2030-01-04T08:00:00Z");
    const idleSid = await startSession(user.id, t0);
    const lifetimeSid = await startSession(user.id, t0);
    expect(await saveSetting(actor, "sessionIdleMinutes", "10")).toMatchObject({ ok: true, value: 10 });
    expect(await resumeSession(idleSid, at(t0, 11))).toEqual({ ok: false, reason: "idle" });
    expect(await saveSetting(actor, "sessionLifetimeMinutes", 60)).toMatchObject({ ok: true, value: 60 });
    for (const minutes of [8, 16, 24, 32, 40, 48, 56]) await resumeSession(lifetimeSid, at(t0, minutes));
    expect(await resumeSession(lifetimeSid, at(t0, 60))).toEqual({ ok: false, reason: "expired" });
    await saveSetting(actor, "sessionIdleMinutes", 30);
    await saveSetting(actor, "sessionLifetimeMinutes", 720);
  });
});

describe("session settings", () => {
  it.each([
    ["sessionLifetimeMinutes", "720", 720],
    ["sessionLifetimeMinutes", " 15 ", 15],
    ["sessionLifetimeMinutes", 10_080, 10_080],
    ["sessionIdleMinutes", "30", 30],
    ["sessionIdleMinutes", 5, 5],
    ["sessionIdleMinutes", "1440", 1440],
  ] as const)("%s accepts %j", (key, value, parsed) => {
    expect(settingValueSchemas[key].safeParse(value)).toEqual({ success: true, data: parsed });
  });

  it.each([
    ["sessionLifetimeMinutes", "14", "At least 15 minutes."],
    ["sessionLifetimeMinutes", "10081", "At most 10080 minutes (one week)."],
    ["sessionLifetimeMinutes", "9".repeat(400), "At most 10080 minutes (one week)."],
    ["sessionLifetimeMinutes", "1e3", "Enter a whole number of minutes, digits only."],
    ["sessionLifetimeMinutes", "", "Enter a whole number of minutes, digits only."],
    ["sessionLifetimeMinutes", 12.5, "Enter a whole number of minutes."],
    ["sessionIdleMinutes", "4", "At least 5 minutes."],
    ["sessionIdleMinutes", -30, "At least 5 minutes."],
    ["sessionIdleMinutes", "1441", "At most 1440 minutes (one day)."],
    ["sessionIdleMinutes", "30\u0000", "Enter a whole number of minutes, digits only."],
    ["sessionIdleMinutes", "\u0663\u0660", "Enter a whole number of minutes, digits only."],
    ["sessionIdleMinutes", null, "Enter a whole number of minutes."],
  ] as const)("%s refuses %j", async (key, value, message) => {
    const admin = await newUser();
    const before = await getDb().setting.findUnique({ where: { key } });
    expect(await saveSetting({ id: admin.id, email: admin.email }, key, value)).toMatchObject({
      ok: false,
      code: "invalid",
      message,
    });
    expect(await getDb().setting.findUnique({ where: { key } })).toEqual(before);
  });
});
