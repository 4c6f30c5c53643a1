// Issue 15, one's own second factor: enrolment (a QR code and the secret as text, confirmed by a first
// code; the secret stored encrypted and never sent again), 10 recovery codes shown once and stored as
// argon2id hashes, each usable once; new recovery codes and turning it off, each with a current code.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db";
import { createStaff } from "../../support/mirror";
import { codeFor, sessionFor } from "../../support/two-factor";

const session = vi.hoisted(() => ({ current: null as null | object }));
vi.mock("@/lib/auth/config", () => ({ auth: async () => session.current }));
vi.mock("next/headers", async () => (await import("../../support/next-request")).nextHeadersModule());

const actions = await import("@/lib/actions/two-factor");
const { spendRecoveryCode } = await import("@/lib/auth/two-factor/recovery-codes");
const { failedAttempts } = await import("@/lib/auth/credentials");

type Started = { ok: true; secret: string; qr: string };
type Codes = { ok: true; recoveryCodes: string[] };

let userId: string;
let sessionId: string;

beforeEach(async () => {
  failedAttempts.reset();
  const u = await createStaff("finance");
  userId = u.id;
  const s = await sessionFor(userId, "none");
  sessionId = s.sessionId;
  session.current = s;
});
afterEach(() => {
  vi.useRealTimers();
});

/** Codes of the next steps: each step's code is accepted once, so tests move the clock on. */
function later(steps: number): Date {
  return new Date(Date.now() + steps * 30_000);
}

async function enrol(): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = (await actions.startEnrolmentAction()) as Started;
  const confirmed = (await actions.confirmEnrolmentAction({ code: codeFor(started.secret) })) as Codes;
  return { secret: started.secret, recoveryCodes: confirmed.recoveryCodes };
}

const stored = () =>
  getDb().user.findUniqueOrThrow({
    where: { id: userId },
    select: { totpSecret: true, totpEnrolledAt: true, totpLastStep: true },
  });

describe("enrolment", () => {
  it("a new secret as a QR code (data: SVG) and as text; stored encrypted, not yet enrolled", async () => {
    const started = await actions.startEnrolmentAction();
    expect(started).toMatchObject({ ok: true, secret: expect.stringMatching(/^[A-Z2-7]{32}$/) });
    const { secret, qr } = started as Started;
    expect(qr).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qr.split(",")[1]!, "base64").toString()).toMatch(/^<svg/);
    const row = await stored();
    expect(row.totpEnrolledAt).toBeNull();
    expect(row.totpSecret).toMatch(/^v1\./);
    expect(row.totpSecret).not.toContain(secret);
    // the default query never returns the column
    expect(await getDb().user.findUniqueOrThrow({ where: { id: userId } })).not.toHaveProperty("totpSecret");
  });

  it("a wrong first code enrols nothing", async () => {
    await actions.startEnrolmentAction();
    expect(await actions.confirmEnrolmentAction({ code: "000000" })).toMatchObject({
      ok: false,
      code: "wrong_code",
    });
    expect((await stored()).totpEnrolledAt).toBeNull();
  });

  it("the first right code: enrolled, 10 recovery codes once (stored as argon2id hashes), session verified, audited", async () => {
    const { secret, recoveryCodes } = await enrol();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await stored()).totpEnrolledAt).not.toBeNull();
    const hashes = await getDb().recoveryCode.findMany({ where: { userId }, select: { codeHash: true } });
    expect(hashes).toHaveLength(10);
    for (const { codeHash } of hashes) {
      expect(codeHash).toMatch(/^\$argon2id\$/);
      for (const code of recoveryCodes) expect(codeHash).not.toContain(code.replace("-", ""));
    }
    const row = await getDb().session.findUniqueOrThrow({ where: { id: sessionId } });
    expect(row.secondFactorAt).not.toBeNull();
    const entries = await getDb().auditLog.findMany({
      where: { actorUserId: userId },
      select: { action: true, before: true, after: true },
    });
    expect(entries).toEqual([{ action: "twoFactor.enrol", before: null, after: null }]);
    expect(JSON.stringify(entries)).not.toContain(secret);
  });

  it("once enrolled, the secret is never sent again: starting again is refused and changes nothing", async () => {
    await enrol();
    const before = await stored();
    expect(await actions.startEnrolmentAction()).toMatchObject({ ok: false, code: "already_enrolled" });
    expect(await stored()).toEqual(before);
    expect(await actions.confirmEnrolmentAction({ code: "123456" })).toMatchObject({
      ok: false,
      code: "already_enrolled",
    });
  });

  it("confirming without a started enrolment is refused", async () => {
    expect(await actions.confirmEnrolmentAction({ code: "123456" })).toMatchObject({
      ok: false,
      code: "no_enrolment",
    });
  });

  it("an empty or overlong code is invalid input", async () => {
    expect(await actions.confirmEnrolmentAction({ code: " " })).toMatchObject({
      ok: false,
      code: "invalid",
      fieldErrors: { code: ["Enter the code."] },
    });
    expect(await actions.confirmEnrolmentAction({ code: "1".repeat(65) })).toMatchObject({
      code: "invalid",
      fieldErrors: { code: ["A code is at most 64 characters."] },
    });
  });
});

describe("recovery codes", () => {
  it("each works once; the others still work", async () => {
    const { recoveryCodes } = await enrol();
    const now = new Date();
    expect(await spendRecoveryCode(userId, recoveryCodes[0]!, now)).toBe(true);
    expect(await spendRecoveryCode(userId, recoveryCodes[0]!, now)).toBe(false);
    expect(await spendRecoveryCode(userId, recoveryCodes[1]!.replace("-", "").toUpperCase(), now)).toBe(true);
    expect(await spendRecoveryCode(userId, "abcde-fghjk", now)).toBe(false);
    expect(await getDb().recoveryCode.count({ where: { userId, usedAt: null } })).toBe(8);
  });

  it("two requests racing with the same code: only one passes", async () => {
    const { recoveryCodes } = await enrol();
    const results = await Promise.all([
      spendRecoveryCode(userId, recoveryCodes[2]!, new Date()),
      spendRecoveryCode(userId, recoveryCodes[2]!, new Date()),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("new codes need a current code, replace the old ones, and are audited", async () => {
    const { secret, recoveryCodes } = await enrol();
    expect(await actions.regenerateRecoveryCodesAction({ code: "000000" })).toMatchObject({
      ok: false,
      code: "wrong_code",
    });
    vi.useFakeTimers({ now: later(1), toFake: ["Date"] });
    const fresh = (await actions.regenerateRecoveryCodesAction({ code: codeFor(secret) })) as Codes;
    expect(fresh.recoveryCodes).toHaveLength(10);
    expect(await spendRecoveryCode(userId, recoveryCodes[5]!, new Date())).toBe(false);
    expect(await spendRecoveryCode(userId, fresh.recoveryCodes[5]!, new Date())).toBe(true);
    const actionsLogged = await getDb().auditLog.findMany({
      where: { actorUserId: userId },
      orderBy: { id: "asc" },
      select: { action: true },
    });
    expect(actionsLogged.map((a) => a.action)).toEqual([
      "twoFactor.enrol",
      "twoFactor.recoveryCodes.regenerate",
    ]);
  });

  it("a recovery code passes step-up once, audited with what is left", async () => {
    const { recoveryCodes } = await enrol();
    expect(await actions.verifyStepUpAction({ code: recoveryCodes[7]! })).toEqual({ ok: true });
    expect(await actions.verifyStepUpAction({ code: recoveryCodes[7]! })).toMatchObject({
      ok: false,
      code: "wrong_code",
    });
    const used = await getDb().auditLog.findFirstOrThrow({
      where: { actorUserId: userId, action: "twoFactor.recoveryCode.use" },
    });
    expect(used.after).toEqual({ during: "stepUp", remaining: 9 });
  });
});

describe("codes from the app", () => {
  it("the same code sent twice at once: only one passes", async () => {
    const { secret } = await enrol();
    vi.useFakeTimers({ now: later(1), toFake: ["Date"] });
    const code = codeFor(secret);
    const results = await Promise.all([
      actions.verifyStepUpAction({ code }),
      actions.verifyStepUpAction({ code }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });
});

describe("turning it off", () => {
  it("needs a current code; then secret and recovery codes are gone; audited", async () => {
    const { secret } = await enrol();
    expect(await actions.disableTwoFactorAction({ code: "000000" })).toMatchObject({
      ok: false,
      code: "wrong_code",
    });
    expect((await stored()).totpEnrolledAt).not.toBeNull();
    vi.useFakeTimers({ now: later(1), toFake: ["Date"] });
    expect(await actions.disableTwoFactorAction({ code: codeFor(secret) })).toEqual({ ok: true });
    expect(await stored()).toEqual({ totpSecret: null, totpEnrolledAt: null, totpLastStep: null });
    expect(await getDb().recoveryCode.count({ where: { userId } })).toBe(0);
    const entry = await getDb().auditLog.findFirstOrThrow({
      where: { actorUserId: userId, action: "twoFactor.disable" },
    });
    expect(entry.after).toEqual({ method: "totp" });
  });

  it("wrong codes count towards the lock; once locked no code is checked", async () => {
    const { secret } = await enrol();
    for (let i = 0; i < 5; i++) await actions.disableTwoFactorAction({ code: "000000" });
    vi.useFakeTimers({ now: later(1), toFake: ["Date"] });
    expect(await actions.disableTwoFactorAction({ code: codeFor(secret) })).toMatchObject({
      ok: false,
      code: "locked",
    });
    expect((await stored()).totpEnrolledAt).not.toBeNull();
  });
});

describe("in Russian", () => {
  it("a wrong code, for a user who chose Russian", async () => {
    await getDb().user.update({ where: { id: userId }, data: { locale: "ru" } });
    await actions.startEnrolmentAction();
    expect(await actions.confirmEnrolmentAction({ code: "000000" })).toEqual({
      ok: false,
      code: "wrong_code",
      message: "Неверный код или код уже был использован.",
    });
  });
});
