// Finding 6: user enumeration. Unknown emails answered fast, existing ones slowed down; after five
// attempts only real accounts said "locked"; a disabled account said "disabled" whatever the password.
// Now every refusal before the right password is the same code and words after the same work (one
// argon2 verification, the same growing delay); no timing is measured here, the work is counted.
// Audit of 25 November: the right password on a locked account still said "locked", so the lock told a
// guesser which guess was right. While locked, no password is checked and every answer is "invalid".
import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { cliActor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { createUser, disableUser } from "@/lib/users/service";
import { browser, followAction } from "../../support/next-request";

const argon2 = vi.hoisted(() => ({ verifications: 0 }));
vi.mock("@node-rs/argon2", async (importOriginal) => {
  const original = await importOriginal<typeof import("@node-rs/argon2")>();
  return {
    ...original,
    verify: (...args: Parameters<typeof original.verify>) => {
      argon2.verifications++;
      return original.verify(...args);
    },
  };
});
vi.mock("next/headers", async () => (await import("../../support/next-request")).nextHeadersModule());
vi.mock("next/navigation", async () => (await import("../../support/next-request")).nextNavigationModule());

const { checkCredentials, LOCK_AFTER_FAILURES, SLOWDOWN_MS_PER_FAILURE, failedAttempts } =
  await import("@/lib/auth/credentials");
const { signInAction } = await import("@/lib/auth/sign-in-action");

const password = "correct horse battery";
const newEmail = () => `enum-${randomUUID()}@example.test`;

/** Records the delays instead of sleeping them. */
function recorder() {
  const delays: number[] = [];
  return { delays, wait: async (ms: number) => void delays.push(ms) };
}

async function lockedUser(): Promise<string> {
  const email = newEmail();
  const user = await createUser(cliActor, { email, role: "finance", password });
  await getDb().user.update({
    where: { id: user.id },
    data: { lockedUntil: new Date(Date.now() + 10 * 60_000) },
  });
  return email;
}

async function disabledUser(): Promise<string> {
  const email = newEmail();
  await createUser(cliActor, { email, role: "finance", password });
  await disableUser(cliActor, email);
  return email;
}

beforeEach(() => {
  failedAttempts.reset();
  argon2.verifications = 0;
});

describe("every refusal before the right password looks the same", () => {
  it("unknown email, wrong password, locked and disabled accounts: same result, one argon2 verification each", async () => {
    const known = newEmail();
    await createUser(cliActor, { email: known, role: "support", password });
    const attempts = [
      ["unknown email", newEmail(), password],
      ["wrong password", known, "not the password"],
      ["locked account, wrong password", await lockedUser(), "not the password"],
      ["disabled account, wrong password", await disabledUser(), "not the password"],
    ] as const;
    for (const [what, email, attempt] of attempts) {
      const before = argon2.verifications;
      const { wait } = recorder();
      expect(await checkCredentials(email, attempt, new Date(), wait), what).toEqual({
        ok: false,
        reason: "invalid",
      });
      expect(argon2.verifications - before, `${what}: argon2 verifications`).toBe(1);
    }
  });

  it("the delay grows the same way for an unknown email as for an existing one", async () => {
    const known = newEmail();
    await createUser(cliActor, { email: known, role: "support", password });
    const unknown = recorder();
    const existing = recorder();
    const now = new Date();
    for (let i = 0; i < LOCK_AFTER_FAILURES + 2; i++) {
      await checkCredentials("Nobody-Here@Example.test", "wrong", now, unknown.wait);
      await checkCredentials(known.toUpperCase(), "wrong", now, existing.wait);
    }
    const expected = [1, 2, 3, 4, 5, 5, 5].map((n) => n * SLOWDOWN_MS_PER_FAILURE);
    expect(unknown.delays).toEqual(expected);
    expect(existing.delays).toEqual(expected);
    // counting an unknown email creates no user row
    expect(await getDb().user.count({ where: { email: "nobody-here@example.test" } })).toBe(0);
  });

  it(`after ${LOCK_AFTER_FAILURES} failures a real account answers as an unknown one does, until the right password`, async () => {
    const known = newEmail();
    await createUser(cliActor, { email: known, role: "approver", password });
    const now = new Date();
    const noWait = async () => {};
    const real = [];
    const unknown = [];
    for (let i = 0; i < LOCK_AFTER_FAILURES + 1; i++) {
      real.push(await checkCredentials(known, "wrong", now, noWait));
      unknown.push(await checkCredentials("nobody@example.test", "wrong", now, noWait));
    }
    expect(real).toEqual(unknown);
    expect(new Set(real.map((r) => JSON.stringify(r)))).toEqual(new Set(['{"ok":false,"reason":"invalid"}']));
    // the account is locked all the same
    const stored = await getDb().user.findUniqueOrThrow({ where: { email: known } });
    expect(stored.lockedUntil?.getTime()).toBeGreaterThan(now.getTime());
    expect(await checkCredentials(known, password, now, noWait)).toEqual({ ok: false, reason: "invalid" });
  });

  it("locked + right password says invalid, after the same one argon2 verification; disabled + right password says disabled", async () => {
    const locked = await lockedUser();
    const before = argon2.verifications;
    expect(await checkCredentials(locked, password)).toEqual({ ok: false, reason: "invalid" });
    expect(argon2.verifications - before).toBe(1);
    expect(await checkCredentials(await disabledUser(), password)).toEqual({ ok: false, reason: "disabled" });
  });
});

describe("the sign-in form", () => {
  async function submit(email: string, attempt: string) {
    browser.clear();
    const form = new FormData();
    form.set("email", email);
    form.set("password", attempt);
    const outcome = await followAction(() => signInAction(null, form));
    return "result" in outcome ? outcome.result : outcome;
  }

  it("shows the same code and words for unknown, wrong and locked, and for disabled until the password is right", async () => {
    const known = newEmail();
    await createUser(cliActor, { email: known, role: "support", password });
    const locked = await lockedUser();
    const disabled = await disabledUser();
    const generic = {
      ok: false,
      code: "invalid",
      message:
        "Wrong email, password or code. After 5 failed attempts in a row, signing in to the account pauses for 15 minutes.",
    };
    expect(await submit(newEmail(), password)).toEqual(generic);
    expect(await submit(known, "not the password")).toEqual(generic);
    expect(await submit(locked, "not the password")).toEqual(generic);
    expect(await submit(disabled, "not the password")).toEqual(generic);

    expect(await submit(locked, password)).toEqual(generic);
    expect(await submit(disabled, password)).toEqual({
      ok: false,
      code: "disabled",
      message: "This account is disabled. Ask an admin.",
    });
  });
});
