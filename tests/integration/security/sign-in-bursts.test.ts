// Audit of 25 November. The account's failure count was read, then written back + 1: guesses sent
// together overwrote each other's count (20 wrong passwords at once left failedSignIns at 1 and no
// lock), and every one of them was checked. A challenge's attempts were counted the same way (20 codes
// at once on one challenge were all checked). Now an attempt is taken in one statement before anything
// is checked (claimAttempt), and while the account is locked nothing is checked.
import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { cliActor } from "@/lib/audit/log";
import { getDb } from "@/lib/db";
import { createUser } from "@/lib/users/service";
import { codeFor, enrolUser } from "../../support/two-factor";

vi.mock("next/headers", async () => (await import("../../support/next-request")).nextHeadersModule());

const { checkCredentials, failedAttempts, LOCK_AFTER_FAILURES } = await import("@/lib/auth/credentials");
const { completeChallenge, openChallenge, MAX_ATTEMPTS } = await import("@/lib/auth/two-factor/sign-in");

const password = "correct horse battery";
const noWait = async () => {};
const BURST = 20;

beforeEach(() => failedAttempts.reset());

async function newUser(enrolled: boolean) {
  const email = `burst-${randomUUID()}@example.test`;
  const user = await createUser(cliActor, { email, role: "approver", password });
  const secret = enrolled ? await enrolUser(user.id, new Date(Date.now() - 60_000)) : null;
  return { id: user.id, email, secret };
}

const row = (id: string) => getDb().user.findUniqueOrThrow({ where: { id } });

/** Six-digit codes that are none of the codes valid around now. */
function wrongCodes(secret: string, n: number): string[] {
  const now = Date.now();
  const valid = new Set([-30_000, 0, 30_000].map((d) => codeFor(secret, new Date(now + d))));
  return Array.from({ length: n * 2 }, (_, i) => String(100_000 + i * 7919).slice(-6))
    .filter((c) => !valid.has(c))
    .slice(0, n);
}

describe("guesses sent together", () => {
  it(`${BURST} wrong passwords at once lock the account; then the right one is refused like a wrong one`, async () => {
    const u = await newUser(false);
    const now = new Date();
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => checkCredentials(u.email, `wrong ${i}`, now, noWait)),
    );
    expect(answers.every((a) => !a.ok && a.reason === "invalid")).toBe(true);
    expect((await row(u.id)).lockedUntil!.getTime()).toBeGreaterThan(now.getTime());
    expect(await checkCredentials(u.email, password, now, noWait)).toEqual({ ok: false, reason: "invalid" });
  });

  it(`${BURST} right passwords at once for an enrolled user: only ${LOCK_AFTER_FAILURES} are checked`, async () => {
    // an enrolled user's right password opens a challenge and stays counted until the code, so every
    // answer that is not "invalid" is a password that was checked
    const u = await newUser(true);
    const now = new Date();
    const answers = await Promise.all(
      Array.from({ length: BURST }, () => checkCredentials(u.email, password, now, noWait)),
    );
    expect(answers.filter((a) => a.ok)).toHaveLength(LOCK_AFTER_FAILURES);
    expect((await row(u.id)).lockedUntil).not.toBeNull();
  });

  it(`${BURST} wrong codes at once on one challenge: at most ${MAX_ATTEMPTS} are checked, and the account locks`, async () => {
    const u = await newUser(true);
    const token = await openChallenge(u.id);
    const answers = await Promise.all(
      wrongCodes(u.secret!, BURST).map((code) => completeChallenge(token, code, new Date(), noWait)),
    );
    expect(answers.every((a) => !a.ok && a.reason === "invalid")).toBe(true);
    // every code that was checked is audited as a failed sign-in
    const checked = await getDb().auditLog.count({
      where: { action: "twoFactor.signIn.fail", targetId: u.id },
    });
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(MAX_ATTEMPTS);
    expect((await row(u.id)).lockedUntil).not.toBeNull();
    // and the right code, on a new challenge, is not checked while the lock lasts
    const again = await openChallenge(u.id);
    expect(await completeChallenge(again, codeFor(u.secret!), new Date(), noWait)).toEqual({
      ok: false,
      reason: "invalid",
    });
  });
});
